/*
 * CNPGI346: the Cluster webhook's check of the ServiceAccount.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster sets both `spec.serviceAccountName` and `spec.serviceAccountTemplate`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI346',
  name: 'cluster-service-account',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Cluster sets both `spec.serviceAccountName` and `spec.serviceAccountTemplate`.',
  why: 'The instances either run as an existing ServiceAccount or as one the operator makes from the template, and the Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateServiceAccountConfig).',
  fix: 'Keep one of the two.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateServiceAccountConfig'),
};
