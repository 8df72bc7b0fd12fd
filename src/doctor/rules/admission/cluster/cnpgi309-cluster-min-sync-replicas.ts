/*
 * CNPGI309: the Cluster webhook's validateMinSyncReplicas.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateMinSyncReplicas refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI309',
  name: 'cluster-min-sync-replicas',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.minSyncReplicas` is negative or above `maxSyncReplicas`.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateMinSyncReplicas).',
  fix: 'Keep `0 <= minSyncReplicas <= maxSyncReplicas`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateMinSyncReplicas'),
};
