/*
 * CNPGI304: the Cluster webhook's validateSuperuserSecret.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateSuperuserSecret refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI304',
  name: 'cluster-superuser-secret',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.superuserSecret` has an empty name.",
  why: 'The Cluster webhook refuses it, naming the field `spec.superusersecret.name` (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateSuperuserSecret).',
  fix: 'Name the superuser Secret, or remove `superuserSecret`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateSuperuserSecret'),
};
