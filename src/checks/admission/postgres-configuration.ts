/*
 * The PostgreSQL configuration the operator computes for a Cluster, as far as admission reads it
 * (cloudnative-pg v1.30.0 pkg/postgres/configuration.go: FixedConfigurationParameters,
 * CnpgConfigurationSettings, CreatePostgresqlConfiguration; booleans.go
 * ParsePostgresConfigBoolean), and the two facts of a Cluster it depends on: whether it is a
 * replica cluster (api/v1/cluster_funcs.go IsReplica) and whether WAL archiving is switched off
 * (pkg/utils/labels_annotations.go IsWalArchivingDisabled).
 */
import { Json, asObject, asString, dig } from '../../manifests/json';

/**
 * The parameters a user may not set in `spec.postgresql.parameters`: the operator manages them
 * (pkg/postgres/configuration.go FixedConfigurationParameters, "fixed" and "blocked" alike).
 * @internal
 */
export const FIXED_PARAMETERS: ReadonlySet<string> = new Set([
  // need a restart
  'allow_system_table_mods',
  'archive_mode',
  'bonjour',
  'bonjour_name',
  'cluster_name',
  'config_file',
  'data_directory',
  'data_sync_retry',
  'event_source',
  'external_pid_file',
  'hba_file',
  'hot_standby',
  'ident_file',
  'jit_provider',
  'listen_addresses',
  'logging_collector',
  'port',
  'primary_conninfo',
  'primary_slot_name',
  'recovery_target',
  'recovery_target_action',
  'recovery_target_inclusive',
  'recovery_target_lsn',
  'recovery_target_name',
  'recovery_target_time',
  'recovery_target_timeline',
  'recovery_target_xid',
  'restore_command',
  'shared_preload_libraries',
  'temp_tablespaces',
  'unix_socket_directories',
  'unix_socket_group',
  'unix_socket_permissions',
  // need a reload
  'archive_cleanup_command',
  'archive_command',
  'log_destination',
  'log_directory',
  'log_file_mode',
  'log_filename',
  'log_rotation_age',
  'log_rotation_size',
  'log_truncate_on_rotation',
  'pg_failover_slots.primary_dsn',
  'pg_failover_slots.standby_slot_names',
  'promote_trigger_file',
  'recovery_end_command',
  'recovery_min_apply_delay',
  'restart_after_crash',
  'ssl',
  'ssl_ca_file',
  'ssl_cert_file',
  'ssl_crl_file',
  'ssl_dh_params_file',
  'ssl_ecdh_curve',
  'ssl_key_file',
  'ssl_passphrase_command',
  'ssl_passphrase_command_supports_reload',
  'ssl_prefer_server_ciphers',
  'stats_temp_directory',
  'synchronous_standby_names',
  'synchronized_standby_slots',
  'syslog_facility',
  'syslog_ident',
  'syslog_sequence_numbers',
  'syslog_split_messages',
]);

/**
 * The values the operator writes where the user wrote nothing (CnpgConfigurationSettings
 * GlobalDefaultSettings; no version-specific defaults exist at v1.30.0). The fixed ones among
 * them (`logging_collector`, the `log_*` file settings, `shared_preload_libraries`) are the only
 * values of a fixed parameter the webhook accepts, besides `archive_mode`.
 * @internal
 */
export const OPERATOR_DEFAULT_PARAMETERS: Readonly<Record<string, string>> = {
  archive_timeout: '5min',
  dynamic_shared_memory_type: 'posix',
  full_page_writes: 'on',
  logging_collector: 'on',
  log_destination: 'csvlog',
  log_directory: '/controller/log',
  log_filename: 'postgres',
  log_rotation_age: '0',
  log_rotation_size: '0',
  log_truncate_on_rotation: 'false',
  max_parallel_workers: '32',
  max_worker_processes: '32',
  max_replication_slots: '32',
  shared_memory_type: 'mmap',
  ssl_max_protocol_version: 'TLSv1.3',
  ssl_min_protocol_version: 'TLSv1.3',
  wal_keep_size: '512MB',
  wal_level: 'logical',
  wal_log_hints: 'on',
  wal_sender_timeout: '5s',
  wal_receiver_timeout: '5s',
  shared_preload_libraries: '',
};

/**
 * `spec.instances`, or the CRD's default (1) where it is not an integer: the API server writes
 * the default before the webhook runs.
 * @internal
 */
export function instancesOf(cluster: Json): number {
  const instances = dig(cluster, 'spec', 'instances');
  return typeof instances === 'number' && Number.isInteger(instances) ? instances : 1;
}

/** The annotation that switches WAL archiving off (`enabled`), so that `archive_mode` is `off`. @internal */
export const SKIP_WAL_ARCHIVING_ANNOTATION = 'cnpg.io/skipWalArchiving';

/** Whether the Cluster's `cnpg.io/skipWalArchiving` annotation is exactly `enabled`. @internal */
export function walArchivingDisabled(cluster: Json): boolean {
  return dig(cluster, 'metadata', 'annotations', SKIP_WAL_ARCHIVING_ANNOTATION) === 'enabled';
}

/**
 * Whether `cluster` is a replica cluster: `spec.replica.enabled` when it is set; otherwise, with
 * a `spec.replica` stanza, whether its `self` (default: the Cluster's name) differs from its
 * `primary`.
 * @internal
 */
export function isReplicaCluster(cluster: Json): boolean {
  const replica = asObject(dig(cluster, 'spec', 'replica'));
  if (replica === undefined) return false;
  if (typeof replica.enabled === 'boolean') return replica.enabled;
  const self = asString(replica.self) || (asString(dig(cluster, 'metadata', 'name')) ?? '');
  return self !== (asString(replica.primary) ?? '');
}

/**
 * The `archive_mode` the operator writes: `off` when WAL archiving is switched off, `always` on a
 * replica cluster, else `on`.
 * @internal
 */
export function operatorArchiveMode(cluster: Json): string {
  if (walArchivingDisabled(cluster)) return 'off';
  return isReplicaCluster(cluster) ? 'always' : 'on';
}

const DEFAULTS: ReadonlyMap<string, string> = new Map(Object.entries(OPERATOR_DEFAULT_PARAMETERS));

/**
 * One parameter of the configuration the Cluster webhook compares the user's with
 * (CreatePostgresqlConfiguration as validateConfiguration calls it): `archive_mode` as the
 * operator writes it; a parameter the user may set, the user's value (a string: the CRD refuses
 * others); otherwise the operator's default, or `undefined` where the operator writes none (so a
 * fixed parameter the user sets is never its own reference).
 * @internal
 */
export function operatorParameter(cluster: Json, name: string): string | undefined {
  if (name === 'archive_mode') return operatorArchiveMode(cluster);
  if (!FIXED_PARAMETERS.has(name)) {
    const value = dig(cluster, 'spec', 'postgresql', 'parameters', name);
    if (typeof value === 'string') return value;
  }
  return DEFAULTS.get(name);
}

const POSTGRES_TRUE = new Set(['1', 'on', 'y', 'ye', 'yes', 't', 'tr', 'tru', 'true']);
const POSTGRES_FALSE = new Set(['0', 'of', 'off', 'n', 'no', 'f', 'fa', 'fal', 'fals', 'false']);

/**
 * A PostgreSQL boolean setting as the operator reads it: `on`, `off`, `true`, `false`, `yes`,
 * `no`, `1`, `0` or an unambiguous prefix, in any case; `undefined` for anything else.
 * @internal
 */
export function parsePostgresBoolean(value: string): boolean | undefined {
  const lower = value.toLowerCase();
  if (POSTGRES_TRUE.has(lower)) return true;
  return POSTGRES_FALSE.has(lower) ? false : undefined;
}

/**
 * Whether a parameter of the `pg_failover_slots` extension is set (a key starting with
 * `pg_failover_slots.`), which makes the operator manage that extension (configuration.go
 * IsManagedExtensionUsed).
 * @internal
 */
export function usesPgFailoverSlots(cluster: Json): boolean {
  const parameters = asObject(dig(cluster, 'spec', 'postgresql', 'parameters')) ?? {};
  return Object.keys(parameters).some((key) => key.startsWith('pg_failover_slots.'));
}
