/*
 * CNPGI352: the Cluster webhook's warning about a retention policy that nothing reads.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.backup.retentionPolicy` without the in-tree Barman Cloud support that reads it. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI352',
  name: 'cluster-retention-policy-unused',
  severities: [{ severity: 'warning', when: '`spec.backup.retentionPolicy` is set and `spec.backup.barmanObjectStore` is not.' }],
  what: 'A Cluster sets `spec.backup.retentionPolicy` but not `spec.backup.barmanObjectStore`, the only backup method that reads it.',
  why: 'The Cluster webhook accepts it with a warning; no backup is removed by that policy (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getRetentionPolicyWarnings, through getAdmissionWarnings on creation and update).',
  fix: "Set the retention in the backup plugin's configuration and remove `spec.backup.retentionPolicy`.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'getRetentionPolicyWarnings'),
};
