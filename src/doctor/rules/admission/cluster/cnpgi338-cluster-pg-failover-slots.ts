/*
 * CNPGI338: the Cluster webhook's check of pg_failover_slots.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster sets a `pg_failover_slots.*` parameter without `hot_standby_feedback` on, or without the high availability replication slots. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI338',
  name: 'cluster-pg-failover-slots',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Cluster sets a `pg_failover_slots.*` parameter without `hot_standby_feedback` on, or without the high availability replication slots.',
  why: "The extension needs the standbys' feedback and the operator's replication slots, and the Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateManagedExtensions, validatePgFailoverSlots; cloudnative-pg v1.30.0 pkg/postgres/booleans.go ParsePostgresConfigBoolean).",
  fix: "Set `hot_standby_feedback: 'on'` and keep `spec.replicationSlots.highAvailability.enabled: true`.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateManagedExtensions', 'validatePgFailoverSlots'),
};
