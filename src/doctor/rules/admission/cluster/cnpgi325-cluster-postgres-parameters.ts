/*
 * CNPGI325: validateConfiguration's checks of what may be written in spec.postgresql.parameters.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportConfigurationTopic } from './configuration-topics';

/** A parameter name, a fixed parameter, `shared_buffers` or a boolean setting the webhook refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI325',
  name: 'cluster-postgres-parameters',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A key of a Cluster's `spec.postgresql.parameters` is no PostgreSQL setting name, or a parameter the operator manages (`port`, `listen_addresses`, `archive_command`, `shared_preload_libraries`, `ssl*`, `recovery_target*`, ...) is set to a value other than the operator's own, or `shared_buffers` is no PostgreSQL size, or `hot_standby_feedback` or `sync_replication_slots` is no PostgreSQL boolean.",
  why: "The operator writes the keys into postgresql.conf as they are and owns the fixed parameters; the Cluster webhook refuses a bad name, a fixed parameter that differs from the configuration the operator computes (only the values the operator writes itself, such as `archive_mode: 'on'` on a primary Cluster, pass), a `shared_buffers` it cannot read as a size, and a boolean it cannot read (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateConfiguration, tryParseBooleanPostgresParameter, parsePostgresQuantityValue; pkg/postgres/configuration.go FixedConfigurationParameters, CnpgConfigurationSettings, CreatePostgresqlConfiguration; pkg/postgres/booleans.go ParsePostgresConfigBoolean).",
  fix: 'Remove the fixed parameter (the Cluster has its own field for most: `spec.postgresql.shared_preload_libraries`, `spec.postgresql.synchronous`, `spec.certificates`, ...), use setting names such as `work_mem`, sizes such as `512MB`, and `on` or `off`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportConfigurationTopic('parameters'),
};
