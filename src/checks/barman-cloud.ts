import { describeValue } from '../manifests/errors';
import { Json, asArray, asObject, asString, dig, objectMeta, stringMap } from '../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../manifests/known-plugins';
import { COMPLETE_INPUT_NOTE, CheckIssue } from './issue';

const KNOWN_KEYS = ['barmanObjectName', 'serverName'];

/**
 * The Cluster annotation that skips the empty-archive check (cloudnative-pg v1.30.0
 * pkg/utils/labels_annotations.go skipEmptyWalArchiveCheck). The check runs before a recovery
 * restores anything (pkg/management/postgres/restore.go checkBackupDestination in-tree;
 * plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go checkBackupDestination,
 * resolveRestoreEmptyWalArchiveCheck) and before the first WAL a new instance archives (in-tree
 * pkg/management/postgres/archiver/archiver.go internalRun, checkWalArchive; the plugin's
 * internal/cnpgi/common/wal.go Archive, resolveArchiveEmptyWalArchiveCheck), in both places only
 * while IsEmptyWalArchiveCheckEnabled, that is unless the Cluster's annotation is exactly
 * `enabled`. CloudNativePG v1.30.0 sends no decision of its own in the restore or archive request
 * (internal/cnpi/plugin/client/restore_job.go innerRestore, wal.go innerArchiveWAL; its cnpg-i
 * v0.5.0 requests have no `check_empty_wal_archive`, which cnpg-i v0.6.0 proto/restore_job.proto
 * and wal.proto add), so the plugin reads the same annotation from the Cluster it is sent.
 * @internal
 */
export const SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION = 'cnpg.io/skipEmptyWalArchiveCheck';

/** Whether a Cluster skips the empty-archive check: its annotation is exactly `enabled` (case counts). @internal */
export function emptyWalArchiveCheckSkipped(cluster: Json): boolean {
  return stringMap(dig(cluster, 'metadata', 'annotations'))[SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION] === 'enabled';
}

/**
 * What the empty-archive check does to a Cluster whose own archive already holds its source's
 * WAL. A recovery from a backup checks before restoring and stops (pkg/management/postgres/
 * restore.go Restore, checkBackupDestination; the plugin's restore.go Restore); a recovery from
 * volume snapshots does not (restore.go RestoreSnapshot), but leaves the marker
 * (concludeRestore), so the check fails on the first WAL it archives and nothing is archived.
 * @internal
 */
export function emptyArchiveCheckOutcome(cluster: Json): string {
  return dig(cluster, 'spec', 'bootstrap', 'recovery', 'volumeSnapshots') !== undefined
    ? "the recovery from volume snapshots skips the check before restoring, but Barman Cloud's empty-archive check fails on the first WAL it archives and no WAL is archived"
    : "Barman Cloud's empty-archive check fails before restoring and the recovery stops";
}

/**
 * What a message about the empty-archive check adds for a Cluster that carries the annotation
 * with a value that does not skip it (`true`, `Enabled`): empty otherwise.
 * @internal
 */
export function skipAnnotationNote(cluster: Json): string {
  const value = dig(cluster, 'metadata', 'annotations', SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION);
  if (value === undefined || value === 'enabled') return '';
  return ` (its ${SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION} is ${describeValue(value)}, which does not skip the check: only the exact value 'enabled' does)`;
}

/** The Barman Cloud configuration of a Cluster as plugin-barman-cloud v0.14.0 config.go NewFromCluster builds it. @internal */
export interface BarmanCloudConfig {
  readonly barmanObjectName: string;
  readonly serverName: string;
  readonly recoveryBarmanObjectName: string;
  readonly recoveryServerName: string;
  readonly replicaSourceBarmanObjectName: string;
}

function externalPlugin(cluster: Json, source: string): Json | undefined {
  if (source === '') return undefined;
  const ext = asArray(dig(cluster, 'spec', 'externalClusters'))
    .map((e) => asObject(e) ?? {})
    .find((e) => e.name === source);
  const plugin = asObject(ext?.plugin);
  return plugin && plugin.name === BARMAN_CLOUD_PLUGIN_NAME ? plugin : undefined;
}

/** Every ObjectStore name a Cluster's Barman Cloud parameters mention. @internal */
export function referencedObjectStores(cluster: Json): string[] {
  const names = new Set<string>();
  for (const p of asArray(dig(cluster, 'spec', 'plugins')))
    if (dig(p, 'name') === BARMAN_CLOUD_PLUGIN_NAME) {
      const n = stringMap(dig(p, 'parameters')).barmanObjectName;
      if (n) names.add(n);
    }
  for (const e of asArray(dig(cluster, 'spec', 'externalClusters')))
    if (dig(e, 'plugin', 'name') === BARMAN_CLOUD_PLUGIN_NAME) {
      const n = stringMap(dig(e, 'plugin', 'parameters')).barmanObjectName;
      if (n) names.add(n);
    }
  return [...names];
}

/** @internal */
export function barmanCloudConfig(cluster: Json): BarmanCloudConfig {
  const name = objectMeta(cluster).name;
  const entries = asArray(dig(cluster, 'spec', 'plugins')).map((p) => asObject(p) ?? {});
  // NewPlugin keeps the parameters of the last entry with the name (enabled or not);
  // serverName comes from the last enabled one.
  const first = [...entries].reverse().find((p) => p.name === BARMAN_CLOUD_PLUGIN_NAME);
  let serverName = name;
  for (const p of entries) {
    const sn = stringMap(p.parameters).serverName;
    if (p.name === BARMAN_CLOUD_PLUGIN_NAME && p.enabled !== false && sn !== undefined) serverName = sn;
  }
  const rec = externalPlugin(cluster, asString(dig(cluster, 'spec', 'bootstrap', 'recovery', 'source')) ?? '');
  const rep = externalPlugin(cluster, asString(dig(cluster, 'spec', 'replica', 'source')) ?? '');
  const recParams = stringMap(rec?.parameters);
  return {
    barmanObjectName: stringMap(first?.parameters).barmanObjectName ?? '',
    serverName,
    recoveryBarmanObjectName: recParams.barmanObjectName ?? '',
    // Defaults to the recovering Cluster's own name, not the source's.
    recoveryServerName: rec ? recParams.serverName || name : '',
    replicaSourceBarmanObjectName: stringMap(rep?.parameters).barmanObjectName ?? '',
  };
}

/** Options of {@link checkBarmanCloudCluster}. @internal */
export interface BarmanCloudClusterOptions {
  /**
   * Whether a Barman Cloud entry without barmanObjectName is an error. The constructs pass
   * `false` and leave it to the doctor: an entry without it is inert rather than refused by
   * anything.
   * @default true
   */
  readonly requireObjectName?: boolean;
  /**
   * The namespace the Cluster and each ObjectStore will live in, as the caller resolves it (the
   * doctor: its manifest index, which gives an object without one the default namespace).
   * @default - `metadata.namespace`, else `default`
   */
  readonly namespaceOf?: (o: Json) => string | undefined;
  /**
   * Whether `objectStores` are every ObjectStore there will be (the doctor's `complete`): an
   * ObjectStore missing from them is then an error, not a warning.
   * @default false
   */
  readonly complete?: boolean;
}

/**
 * A Cluster that enables Barman Cloud and names no ObjectStore for it, neither to archive into nor
 * to recover or replicate from (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go
 * PluginConfiguration.Validate: "no reference to barmanObjectName have been included"); undefined
 * otherwise. The plugin reads the parameters of the last entry with its name (config.go NewPlugin).
 * @internal
 */
export function missingBarmanObjectName(cluster: Json): CheckIssue | undefined {
  const entries = asArray(dig(cluster, 'spec', 'plugins')).map((p) => asObject(p) ?? {});
  const index = entries.map((p) => p.name).lastIndexOf(BARMAN_CLOUD_PLUGIN_NAME);
  const enabled = entries.some((p) => p.name === BARMAN_CLOUD_PLUGIN_NAME && p.enabled !== false);
  if (index < 0 || !enabled) return undefined;
  const config = barmanCloudConfig(cluster);
  if (config.barmanObjectName !== '' || config.recoveryBarmanObjectName !== '' || config.replicaSourceBarmanObjectName !== '') return undefined;
  return {
    severity: 'error',
    path: `spec.plugins[${index}].parameters.barmanObjectName`,
    message: "is missing; Barman Cloud's configuration check fails, its lifecycle hook injects no sidecar, and WAL archiving through the plugin fails",
    fix: "set parameters.barmanObjectName to the name of an ObjectStore in the Cluster's namespace",
  };
}

/**
 * Class 6 for one Cluster: parameter keys, the ObjectStore namespace, the recovery destination
 * (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster,
 * Validate, GetBarmanObjectKey; internal/cnpgi/operator/lifecycle.go LifecycleHook;
 * internal/cnpgi/restore/restore.go Restore, checkBackupDestination).
 * `objectStores` are the ObjectStores of the input (all namespaces), or undefined when none are.
 * @internal
 */
export function checkBarmanCloudCluster(cluster: Json, objectStores?: readonly Json[], options: BarmanCloudClusterOptions = {}): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const name = objectMeta(cluster).name;
  const namespaceOf = (o: Json): string => options.namespaceOf?.(o) ?? objectMeta(o).namespace ?? 'default';
  const ns = namespaceOf(cluster);
  const entries = asArray(dig(cluster, 'spec', 'plugins')).map((p) => asObject(p) ?? {});
  // The plugin reads the parameters of the last entry with its name (config.go NewPlugin).
  const index = entries.map((p) => p.name).lastIndexOf(BARMAN_CLOUD_PLUGIN_NAME);
  const config = barmanCloudConfig(cluster);
  const paramSets: Array<{ path: string; params: Record<string, string> }> = [];
  if (index >= 0) paramSets.push({ path: `spec.plugins[${index}].parameters`, params: stringMap(entries[index].parameters) });
  asArray(dig(cluster, 'spec', 'externalClusters')).forEach((e, i) => {
    const p = asObject(dig(e, 'plugin'));
    if (p?.name === BARMAN_CLOUD_PLUGIN_NAME) paramSets.push({ path: `spec.externalClusters[${i}].plugin.parameters`, params: stringMap(p.parameters) });
  });
  for (const { path, params } of paramSets) {
    for (const key of Object.keys(params)) {
      if (KNOWN_KEYS.includes(key)) continue;
      const close = KNOWN_KEYS.find((k) => k.toLowerCase() === key.toLowerCase() || key.toLowerCase().includes('object'));
      issues.push({
        severity: 'warning',
        path: `${path}.${key}`,
        message: `Barman Cloud reads only barmanObjectName and serverName; '${key}' is ignored`,
        fix: close ? `rename it to ${close}` : 'remove it',
      });
    }
  }
  const missing = options.requireObjectName === false ? undefined : missingBarmanObjectName(cluster);
  if (missing !== undefined) issues.push(missing);
  if (objectStores) {
    const refs: Array<{ path: string; store: string }> = [];
    if (config.barmanObjectName && index >= 0) refs.push({ path: `spec.plugins[${index}].parameters.barmanObjectName`, store: config.barmanObjectName });
    paramSets.slice(index >= 0 ? 1 : 0).forEach(({ path, params }) => {
      if (params.barmanObjectName) refs.push({ path: `${path}.barmanObjectName`, store: params.barmanObjectName });
    });
    for (const r of refs) {
      const same = objectStores.filter((o) => objectMeta(o).name === r.store);
      if (same.some((o) => namespaceOf(o) === ns)) continue;
      const elsewhere = same.map(namespaceOf);
      issues.push({
        severity: elsewhere.length || options.complete ? 'error' : 'warning',
        path: r.path,
        message: elsewhere.length
          ? `ObjectStore '${r.store}' is in namespace ${elsewhere.join(', ')}, but Barman Cloud looks it up only in the Cluster's namespace '${ns}'`
          : `ObjectStore '${r.store}' is not in the input; Barman Cloud looks for it in namespace '${ns}'${options.complete ? COMPLETE_INPUT_NOTE : ''}`,
        fix: `create ObjectStore '${r.store}' in namespace '${ns}'`,
        ...(elsewhere.length ? { comparesNamespaceWith: same } : {}),
      });
    }
  }
  // With the skip annotation the recovery goes on and the Cluster continues its source's archive
  // on a new timeline: what the annotation is for (see SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION).
  if (
    config.recoveryBarmanObjectName !== '' &&
    config.barmanObjectName === config.recoveryBarmanObjectName &&
    config.serverName === config.recoveryServerName &&
    !emptyWalArchiveCheckSkipped(cluster)
  ) {
    issues.push({
      severity: 'error',
      path: index >= 0 ? `spec.plugins[${index}].parameters` : 'spec.plugins',
      message: `Cluster '${name}' recovers from ObjectStore '${config.recoveryBarmanObjectName}' server '${config.recoveryServerName}' and archives into the same ObjectStore and server name; ${emptyArchiveCheckOutcome(cluster)}${skipAnnotationNote(cluster)}; ${SKIP_EMPTY_WAL_ARCHIVE_CHECK_ANNOTATION}: enabled skips the check and continues the source's archive on a new timeline`,
      fix: `give the new Cluster its own serverName (e.g. parameters.serverName: ${name}-v2) or its own ObjectStore`,
    });
  }
  return issues;
}

/**
 * The plugin Deployment needs SIDECAR_IMAGE (plugin-barman-cloud v0.14.0
 * internal/cmd/operator/main.go NewCmd). `envFromUnknown` says whether envFrom sources the input
 * cannot show might set it.
 * @internal
 */
export function checkBarmanCloudDeployment(container: Json, envFromUnknown: boolean): CheckIssue[] {
  const env = asArray(container.env)
    .map((e) => asObject(e) ?? {})
    .find((e) => e.name === 'SIDECAR_IMAGE');
  if (env && (asString(env.value) ?? '') !== '') return [];
  if (env && env.valueFrom !== undefined) return [];
  if (!env && asArray(container.envFrom).length > 0 && envFromUnknown) {
    return [
      {
        severity: 'warning',
        path: 'env',
        message: 'SIDECAR_IMAGE is not in env; the plugin refuses to start without it unless an envFrom source provides it',
        fix: 'set SIDECAR_IMAGE to ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:<version>',
      },
    ];
  }
  return [
    {
      severity: 'error',
      path: 'env',
      message: `SIDECAR_IMAGE is ${env ? 'empty' : 'not set'}; the Barman Cloud operator command refuses to start`,
      fix: 'set SIDECAR_IMAGE to ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:<version>',
    },
  ];
}
