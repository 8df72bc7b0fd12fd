/*
 * The Cluster's defaulting webhook (cloudnative-pg v1.30.0 api/v1/cluster_defaults.go
 * Cluster.Default, which is setDefaults(true); SetDefaults, setDefaults(false), is what the update
 * validation runs on the stored object). It fills in what is missing, in its order; the
 * validating webhook then judges the result, so a value the defaulter writes is judged as
 * written.
 *
 * The webhook works on Go structs: an absent field, `null` and an empty string are all "missing".
 * Here the object stays JSON, and a field of another type than the CRD's (which the API server
 * refuses before any webhook) is left as it is, never replaced.
 */
import { Json, asArray, asObject, asString, dig } from '../../manifests/json';
import type { AdmissionContext } from './admission-check';
import { annotationsOf, applicationOwner, isReplicaCluster, postgresMajor, walArchivingDisabled } from './cluster-reading';
import { isSet } from './go-values';
import { operatorSettings } from './operator-settings';
import { operatorParameters } from './postgres-configuration';

/** How the defaulter runs. @internal */
export interface DefaultingOptions {
  /**
   * Keep the user's fixed PostgreSQL parameters in `spec.postgresql.parameters` (Default, on the
   * object being admitted, so that validateConfiguration can refuse them), or drop them
   * (SetDefaults, on the stored object of an update).
   * @default true
   */
  readonly keepUserFixedParameters?: boolean;
}

/** The application database and its owner when the bootstrap method does not name them. */
const DEFAULT_APPLICATION_DATABASE = 'app';
/** The ConfigMap and Secret names, and key, the defaulter gives the default monitoring queries. */
const DEFAULT_MONITORING_NAME = 'cnpg-default-monitoring';
const DEFAULT_MONITORING_KEY = 'queries';
/** The liveness probe's isolation check timeouts, in milliseconds, when none are written. */
const DEFAULT_ISOLATION_TIMEOUT = 1000;

const isMissing = (v: unknown): boolean => v === undefined || v === null || v === '';

/** `parent[key]` as an object: the one there, a new one in place of a missing one, else undefined. */
function stanza(parent: Json, key: string): Json | undefined {
  if (!isSet(parent[key])) parent[key] = {};
  return asObject(parent[key]);
}

/** Writes `value` at `key` when the field is missing (an absent, null or empty string). */
function fill(o: Json, key: string, value: unknown): void {
  if (isMissing(o[key])) o[key] = value;
}

/**
 * `cluster` (a copy the caller owns, CRD defaults applied) as Cluster.Default leaves it; changed in
 * place and returned.
 * @internal
 */
export function defaultCluster(cluster: Json, context: AdmissionContext, options: DefaultingOptions = {}): Json {
  const spec = asObject(cluster.spec);
  if (!spec) return cluster;
  const settings = operatorSettings(context);
  const annotations = annotationsOf(cluster);

  if (isMissing(spec.imageName) && !isSet(spec.imageCatalogRef)) spec.imageName = settings.defaultImageName;
  defaultBootstrap(spec);

  const affinity = stanza(spec, 'affinity');
  if (affinity && (!isSet(affinity.enablePodAntiAffinity) || affinity.enablePodAntiAffinity === true)) fill(affinity, 'podAntiAffinityType', 'preferred');

  const backup = asObject(spec.backup);
  if (backup) fill(backup, 'target', 'prefer-standby');

  if (postgresMajor(cluster, context) !== undefined) {
    const postgresql = stanza(spec, 'postgresql');
    const user = asObject(postgresql?.parameters);
    if (postgresql && (user || !isSet(postgresql.parameters))) {
      postgresql.parameters = operatorParameters({
        user: user ?? {},
        keepUserFixed: options.keepUserFixedParameters ?? true,
        replica: isReplicaCluster(cluster),
        walArchivingDisabled: walArchivingDisabled(cluster),
      });
    }
  }

  fill(spec, 'logLevel', 'info');

  if (dig(spec, 'monitoring', 'disableDefaultQueries') !== true) {
    const monitoring = stanza(spec, 'monitoring');
    if (monitoring && settings.monitoringQueriesConfigMap !== '') addDefaultQueries(monitoring, 'customQueriesConfigMap');
    if (monitoring && settings.monitoringQueriesSecret !== '') addDefaultQueries(monitoring, 'customQueriesSecret');
  }

  const slots = stanza(spec, 'replicationSlots');
  if (slots) {
    if (!isSet(slots.highAvailability)) slots.highAvailability = { enabled: true, slotPrefix: '_cnpg_' };
    if (!isSet(slots.synchronizeReplicas)) slots.synchronizeReplicas = { enabled: true };
  }

  const tablespaces = asArray(spec.tablespaces);
  if (tablespaces.length > 0) {
    const owner = applicationOwner(cluster) || 'postgres';
    for (const t of tablespaces) {
      const o = asObject(t);
      const ownerRef = o && stanza(o, 'owner');
      if (ownerRef) fill(ownerRef, 'name', owner);
    }
  }

  const synchronous = asObject(dig(spec, 'postgresql', 'synchronous'));
  if (synchronous) fill(synchronous, 'dataDurability', 'required');

  addIncludedPlugins(spec, settings.includePlugins);
  defaultProbes(spec, annotations);

  const quorum = goBool(annotations['alpha.cnpg.io/failoverQuorum']);
  if (quorum !== undefined && synchronous) synchronous.failoverQuorum = quorum;
  return cluster;
}

/**
 * `spec.bootstrap`: created when missing; then recovery, else pg_basebackup, else initdb (created
 * when missing) get the application database `app` and its owner, the database's name;
 * initdb also UTF8 and the C locale. A monolith import keeps an empty database.
 */
function defaultBootstrap(spec: Json): void {
  const bootstrap = stanza(spec, 'bootstrap');
  if (!bootstrap) return;
  const databaseAndOwner = (method: Json | undefined, keepDatabase = false): void => {
    if (!method) return;
    if (!keepDatabase) fill(method, 'database', DEFAULT_APPLICATION_DATABASE);
    const database = asString(method.database);
    if (database) fill(method, 'owner', database);
  };
  if (isSet(bootstrap.recovery)) return databaseAndOwner(asObject(bootstrap.recovery));
  if (isSet(bootstrap.pg_basebackup)) return databaseAndOwner(asObject(bootstrap.pg_basebackup));
  if (!isSet(bootstrap.initdb)) bootstrap.initdb = { database: DEFAULT_APPLICATION_DATABASE, owner: DEFAULT_APPLICATION_DATABASE };
  const initdb = asObject(bootstrap.initdb);
  if (!initdb) return;
  databaseAndOwner(initdb, dig(initdb, 'import', 'type') === 'monolith');
  fill(initdb, 'encoding', 'UTF8');
  fill(initdb, 'localeCollate', 'C');
  fill(initdb, 'localeCType', 'C');
}

/** Puts the default monitoring queries first in `monitoring[field]`, unless an entry already names them. */
function addDefaultQueries(monitoring: Json, field: 'customQueriesConfigMap' | 'customQueriesSecret'): void {
  if (isSet(monitoring[field]) && !Array.isArray(monitoring[field])) return;
  const list = asArray(monitoring[field]);
  if (list.some((entry) => dig(entry, 'name') === DEFAULT_MONITORING_NAME)) return;
  monitoring[field] = [{ name: DEFAULT_MONITORING_NAME, key: DEFAULT_MONITORING_KEY }, ...list];
}

/** The operator's `INCLUDE_PLUGINS` that `spec.plugins` does not list, appended enabled. */
function addIncludedPlugins(spec: Json, include: readonly string[]): void {
  if (include.length === 0 || (isSet(spec.plugins) && !Array.isArray(spec.plugins))) return;
  const listed = new Set(asArray(spec.plugins).map((p) => dig(p, 'name')));
  const added = include.filter((name) => !listed.has(name)).map((name) => ({ name, enabled: true }));
  if (added.length > 0) spec.plugins = [...asArray(spec.plugins), ...added];
}

/**
 * `spec.probes.liveness.isolationCheck`, unless set: from the `alpha.cnpg.io/livenessPinger`
 * annotation when it reads, else enabled with both timeouts at 1000 ms (setProbes).
 */
function defaultProbes(spec: Json, annotations: Record<string, string>): void {
  const probes = stanza(spec, 'probes');
  const liveness = probes && stanza(probes, 'liveness');
  if (!liveness || isSet(liveness.isolationCheck)) return;
  const pinger = annotations['alpha.cnpg.io/livenessPinger'];
  const fromAnnotation = pinger === undefined ? undefined : livenessPingerConfig(pinger);
  liveness.isolationCheck =
    fromAnnotation !== undefined && !('error' in fromAnnotation)
      ? { ...fromAnnotation }
      : { enabled: true, requestTimeout: DEFAULT_ISOLATION_TIMEOUT, connectionTimeout: DEFAULT_ISOLATION_TIMEOUT };
}

/** The isolation check an `alpha.cnpg.io/livenessPinger` annotation describes. @internal */
export interface IsolationCheck {
  readonly enabled: boolean;
  readonly requestTimeout: number;
  readonly connectionTimeout: number;
}

const MIN_GO_INT = -(2 ** 63);
const MAX_GO_INT = 2 ** 63;

/**
 * Reads an `alpha.cnpg.io/livenessPinger` annotation as CloudNativePG does
 * (api/v1/cluster_defaults.go NewLivenessPingerConfigFromAnnotations): Go's JSON decoding into
 * `{enabled, requestTimeout, connectionTimeout}` (field names matched case-insensitively, unknown
 * fields ignored, a value of another type an error), `enabled` required, a zero or missing timeout
 * 1000. The error says why it does not read.
 * @internal
 */
export function livenessPingerConfig(annotation: string): IsolationCheck | { readonly error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(annotation);
  } catch (e) {
    return { error: `it is not JSON (${(e as Error).message})` };
  }
  if (parsed !== null && asObject(parsed) === undefined) return { error: `it is JSON ${Array.isArray(parsed) ? 'array' : typeof parsed}, not an object` };
  const fields = goFields(asObject(parsed) ?? {}, ['enabled', 'requestTimeout', 'connectionTimeout']);
  const enabled = fields.enabled;
  if (isSet(enabled) && typeof enabled !== 'boolean') return { error: 'enabled is not a boolean' };
  const timeout = (name: 'requestTimeout' | 'connectionTimeout'): number | string => {
    const v = fields[name];
    if (!isSet(v)) return DEFAULT_ISOLATION_TIMEOUT;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < MIN_GO_INT || v >= MAX_GO_INT) return `${name} is not an integer`;
    return v === 0 ? DEFAULT_ISOLATION_TIMEOUT : v;
  };
  const requestTimeout = timeout('requestTimeout');
  const connectionTimeout = timeout('connectionTimeout');
  if (typeof requestTimeout === 'string') return { error: requestTimeout };
  if (typeof connectionTimeout === 'string') return { error: connectionTimeout };
  if (typeof enabled !== 'boolean') return { error: 'the enabled field is missing' };
  return { enabled, requestTimeout, connectionTimeout };
}

/**
 * The values of `names` in a JSON object as Go's encoding/json assigns them to struct fields: a
 * key names a field when it equals the field's name ignoring case, and a later key overwrites.
 */
function goFields<K extends string>(o: Json, names: readonly K[]): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const key of Object.keys(o)) {
    const name = names.find((n) => n.toLowerCase() === key.toLowerCase());
    if (name !== undefined) out[name] = o[key];
  }
  return out;
}

/** Go's strconv.ParseBool: the boolean, or undefined when the text is none of its spellings. @internal */
export function goBool(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}
