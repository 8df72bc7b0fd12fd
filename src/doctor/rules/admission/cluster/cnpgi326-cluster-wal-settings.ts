/*
 * CNPGI326: validateConfiguration's checks of the WAL settings against the Cluster's shape.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportConfigurationTopic } from './configuration-topics';

/** `wal_level`, `max_wal_senders`, `wal_log_hints`, `min_wal_size` or `max_wal_size` the webhook refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI326',
  name: 'cluster-wal-settings',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's WAL settings do not fit it: `wal_level` is unknown, or `minimal` with more than one instance, with WAL archiving on (no `cnpg.io/skipWalArchiving: enabled`) or on a replica cluster; `minimal` without `max_wal_senders: '0'`; `wal_log_hints` is no boolean, or off with more than one instance; `min_wal_size` or `max_wal_size` is no PostgreSQL size, `min_wal_size` is not below `max_wal_size` (defaults 80MB and 1GB), or a size set is not below the WAL volume.",
  why: "Replicas, WAL archiving and pg_rewind need more WAL than `minimal` and hint bits in it, and PostgreSQL does not start with WAL senders on minimal WAL; the Cluster webhook refuses these combinations (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateConfiguration, validateWalSizeConfiguration, tryParseBooleanPostgresParameter; pkg/postgres/configuration.go CreatePostgresqlConfiguration for the operator's `wal_level` default `logical` and `archive_mode`).",
  fix: "Leave `wal_level` and `wal_log_hints` out (the operator's `logical` and `on`), keep `minimal` for a single instance without archiving (with `max_wal_senders: '0'`), and keep `min_wal_size` < `max_wal_size` < the WAL volume.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportConfigurationTopic('wal'),
};
