/*
 * CNPGI333: the Cluster webhook's check of logical decoding slot synchronization.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `synchronizeLogicalDecoding` without pg_failover_slots, or before PostgreSQL 17, or without the settings it needs. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI333',
  name: 'cluster-synchronize-logical-decoding',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster sets `spec.replicationSlots.highAvailability.synchronizeLogicalDecoding: true` without the pg_failover_slots extension (no `pg_failover_slots.*` parameter) and either runs PostgreSQL older than 17, or lacks `hot_standby_feedback: 'on'` or `sync_replication_slots: 'on'`.",
  why: 'Logical slots reach the replicas through pg_failover_slots, or from PostgreSQL 17 on through `sync_replication_slots`, which needs hot standby feedback; the Cluster webhook refuses the Cluster otherwise (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateSynchronizeLogicalDecoding; pkg/postgres/configuration.go IsManagedExtensionUsed).',
  fix: "On PostgreSQL 17 or later set `hot_standby_feedback: 'on'` and `sync_replication_slots: 'on'`; before 17, configure pg_failover_slots.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateSynchronizeLogicalDecoding'),
};
