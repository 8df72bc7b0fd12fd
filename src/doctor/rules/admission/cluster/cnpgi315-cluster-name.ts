/*
 * CNPGI315: the Cluster webhook's validateName.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateName refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI315',
  name: 'cluster-name',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's name is not a DNS-1035 label (lower-case letters, digits and `-`, a letter first), or is longer than 50 characters.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateName; k8s.io/apimachinery IsDNS1035Label): the operator names Services, Pods and volumes after the Cluster.',
  fix: 'Use at most 50 characters of lower-case letters, digits and `-`, starting with a letter.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateName'),
};
