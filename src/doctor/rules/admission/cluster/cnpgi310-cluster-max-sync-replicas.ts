/*
 * CNPGI310: the Cluster webhook's validateMaxSyncReplicas.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.maxSyncReplicas` is negative, or not below the number of instances. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI310',
  name: 'cluster-max-sync-replicas',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.maxSyncReplicas` is negative, or not below the number of instances.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateMaxSyncReplicas): one instance is the primary, so at most `instances - 1` can be synchronous replicas.',
  fix: 'Keep `maxSyncReplicas` below `instances`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateMaxSyncReplicas'),
};
