/*
 * The PostgreSQL configuration the operator computes for a Cluster, as far as admission reads it
 * (cloudnative-pg v1.30.0 pkg/postgres/configuration.go: FixedConfigurationParameters,
 * CnpgConfigurationSettings, CreatePostgresqlConfiguration without the mandatory settings, which
 * only the instance's configuration file gets): the defaulter writes it into
 * `spec.postgresql.parameters`, and validateConfiguration compares the user's fixed parameters
 * with it.
 */
import { Json, asObject, dig } from '../../manifests/json';
import { isReplicaCluster, walArchivingDisabled } from './cluster-reading';

/**
 * The parameters the operator manages (pkg/postgres/configuration.go
 * FixedConfigurationParameters): `fixed` ones it sets itself, `blocked` ones that must keep their
 * default for the operator to work. A user may not set either, unless to the value the operator
 * computes.
 * @internal
 */
export const FIXED_PARAMETERS: Readonly<Record<string, 'fixed' | 'blocked'>> = {
  allow_system_table_mods: 'blocked',
  archive_mode: 'fixed',
  bonjour: 'blocked',
  bonjour_name: 'blocked',
  cluster_name: 'fixed',
  config_file: 'blocked',
  data_directory: 'blocked',
  data_sync_retry: 'blocked',
  event_source: 'blocked',
  external_pid_file: 'blocked',
  hba_file: 'blocked',
  hot_standby: 'blocked',
  ident_file: 'blocked',
  jit_provider: 'blocked',
  listen_addresses: 'blocked',
  logging_collector: 'blocked',
  port: 'fixed',
  primary_conninfo: 'fixed',
  primary_slot_name: 'fixed',
  recovery_target: 'fixed',
  recovery_target_action: 'fixed',
  recovery_target_inclusive: 'fixed',
  recovery_target_lsn: 'fixed',
  recovery_target_name: 'fixed',
  recovery_target_time: 'fixed',
  recovery_target_timeline: 'fixed',
  recovery_target_xid: 'fixed',
  restore_command: 'fixed',
  shared_preload_libraries: 'fixed',
  temp_tablespaces: 'fixed',
  unix_socket_directories: 'blocked',
  unix_socket_group: 'blocked',
  unix_socket_permissions: 'blocked',
  archive_cleanup_command: 'blocked',
  archive_command: 'fixed',
  log_destination: 'blocked',
  log_directory: 'blocked',
  log_file_mode: 'blocked',
  log_filename: 'blocked',
  log_rotation_age: 'blocked',
  log_rotation_size: 'blocked',
  log_truncate_on_rotation: 'blocked',
  'pg_failover_slots.primary_dsn': 'fixed',
  'pg_failover_slots.standby_slot_names': 'fixed',
  promote_trigger_file: 'blocked',
  recovery_end_command: 'blocked',
  recovery_min_apply_delay: 'blocked',
  restart_after_crash: 'blocked',
  ssl: 'fixed',
  ssl_ca_file: 'fixed',
  ssl_cert_file: 'fixed',
  ssl_crl_file: 'fixed',
  ssl_dh_params_file: 'fixed',
  ssl_ecdh_curve: 'fixed',
  ssl_key_file: 'fixed',
  ssl_passphrase_command: 'fixed',
  ssl_passphrase_command_supports_reload: 'fixed',
  ssl_prefer_server_ciphers: 'fixed',
  stats_temp_directory: 'blocked',
  synchronous_standby_names: 'fixed',
  synchronized_standby_slots: 'fixed',
  syslog_facility: 'blocked',
  syslog_ident: 'blocked',
  syslog_sequence_numbers: 'blocked',
  syslog_split_messages: 'blocked',
};

const FIXED_NAMES: ReadonlySet<string> = new Set(Object.keys(FIXED_PARAMETERS));

/** Whether `name` is a parameter the operator manages. @internal */
export function isFixedParameter(name: string): boolean {
  return FIXED_NAMES.has(name);
}

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

/** What the operator's configuration of a Cluster depends on, at admission. @internal */
export interface ParameterInputs {
  /** `spec.postgresql.parameters` as written (values of another type are kept as they are). */
  readonly user: Readonly<Record<string, unknown>>;
  /** The user's fixed parameters are kept (the defaulter) or dropped (the stored object, SetDefaults, validateConfiguration). */
  readonly keepUserFixed: boolean;
  /** The Cluster is a replica cluster (archive_mode `always`). */
  readonly replica: boolean;
  /** `cnpg.io/skipWalArchiving: enabled` (archive_mode `off`). */
  readonly walArchivingDisabled: boolean;
}

/**
 * The parameters the operator computes for a Cluster, sorted by name (the defaulting webhook
 * writes them as a Go map, whose JSON is sorted): the operator's defaults, then the user's
 * parameters (the fixed ones only when `keepUserFixed`), then `archive_mode`.
 * @internal
 */
export function operatorParameters(inputs: ParameterInputs): Record<string, unknown> {
  const archiveMode = archiveModeOf(inputs.walArchivingDisabled, inputs.replica);
  const userKeys = Object.keys(inputs.user).filter((key) => inputs.keepUserFixed || !isFixedParameter(key));
  // Most Clusters set no parameter: the operator's own configuration, ready made.
  if (userKeys.length === 0) return { ...WITHOUT_USER_PARAMETERS[archiveMode] };
  const merged = new Map<string, unknown>(Object.entries(OPERATOR_DEFAULT_PARAMETERS));
  for (const key of userKeys) merged.set(key, inputs.user[key]);
  merged.set('archive_mode', archiveMode);
  const out: Record<string, unknown> = {};
  for (const key of [...merged.keys()].sort()) {
    // A parameter named __proto__ is data, not the object's prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: merged.get(key), enumerable: true, writable: true, configurable: true });
    else out[key] = merged.get(key);
  }
  return out;
}

/** The operator's configuration of a Cluster without parameters, sorted, for each archive_mode. */
const WITHOUT_USER_PARAMETERS: Readonly<Record<string, Readonly<Record<string, string>>>> = Object.fromEntries(
  ['on', 'off', 'always'].map((mode) => {
    const all: Record<string, string> = { ...OPERATOR_DEFAULT_PARAMETERS, archive_mode: mode };
    return [
      mode,
      Object.fromEntries(
        Object.keys(all)
          .sort()
          .map((k) => [k, all[k]]),
      ),
    ];
  }),
);

/**
 * `spec.instances`, or the CRD's default (1) where it is not an integer: the API server writes
 * the default before the webhook runs.
 * @internal
 */
export function instancesOf(cluster: Json): number {
  const instances = dig(cluster, 'spec', 'instances');
  return typeof instances === 'number' && Number.isInteger(instances) ? instances : 1;
}

/** The `archive_mode` the operator writes: `off` when WAL archiving is switched off, `always` on a replica cluster, else `on`. */
function archiveModeOf(walArchivingOff: boolean, replica: boolean): string {
  return walArchivingOff ? 'off' : replica ? 'always' : 'on';
}

/**
 * The `archive_mode` the operator writes for `cluster` (IsWalArchivingDisabled, IsReplica).
 * @internal
 */
export function operatorArchiveMode(cluster: Json): string {
  return archiveModeOf(walArchivingDisabled(cluster), isReplicaCluster(cluster));
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
  if (!isFixedParameter(name)) {
    const value = dig(cluster, 'spec', 'postgresql', 'parameters', name);
    if (typeof value === 'string') return value;
  }
  return DEFAULTS.get(name);
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
