/*
 * CNPGI328: the Cluster webhook's check of the number of synchronous replicas.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `synchronous.number` not below the instances plus the standby names. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI328',
  name: 'cluster-synchronous-replicas',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.postgresql.synchronous.number` is not below `spec.instances` plus the names in `standbyNamesPre` and `standbyNamesPost` (e.g. `number: 3` with 3 instances).",
  why: 'One of the instances is the primary, which cannot be its own synchronous replica, so commits would wait for a standby that cannot exist; the Cluster webhook refuses the Cluster at `spec.postgresql.synchronous` (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateSynchronousReplicaConfiguration).',
  fix: 'Set `number` to at most the instances minus one plus the standby names listed, or add instances.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateSynchronousReplicaConfiguration'),
};
