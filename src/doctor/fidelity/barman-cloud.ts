import { FidelityIssue, Obj, arr, at, meta, obj, str, strings } from './issue';

/** The name plugin-barman-cloud reports (v0.14.0 internal/cnpgi/metadata/constants.go PluginName). @internal */
export const BARMAN_CLOUD_NAME = 'barman-cloud.cloudnative-pg.io';
const KNOWN_KEYS = ['barmanObjectName', 'serverName'];

/** The Barman Cloud configuration of a Cluster as plugin-barman-cloud v0.14.0 config.go NewFromCluster builds it. @internal */
export interface BarmanCloudConfig {
  readonly barmanObjectName: string;
  readonly serverName: string;
  readonly recoveryBarmanObjectName: string;
  readonly recoveryServerName: string;
  readonly replicaSourceBarmanObjectName: string;
}

function externalPlugin(cluster: Obj, source: string): Obj | undefined {
  if (source === '') return undefined;
  const ext = arr(at(cluster, 'spec', 'externalClusters'))
    .map((e) => obj(e) ?? {})
    .find((e) => e.name === source);
  const plugin = obj(ext?.plugin);
  return plugin && plugin.name === BARMAN_CLOUD_NAME ? plugin : undefined;
}

/** Every ObjectStore name a Cluster's Barman Cloud parameters mention. @internal */
export function referencedObjectStores(cluster: Obj): string[] {
  const names = new Set<string>();
  for (const p of arr(at(cluster, 'spec', 'plugins')))
    if (at(p, 'name') === BARMAN_CLOUD_NAME) {
      const n = strings(at(p, 'parameters')).barmanObjectName;
      if (n) names.add(n);
    }
  for (const e of arr(at(cluster, 'spec', 'externalClusters')))
    if (at(e, 'plugin', 'name') === BARMAN_CLOUD_NAME) {
      const n = strings(at(e, 'plugin', 'parameters')).barmanObjectName;
      if (n) names.add(n);
    }
  return [...names];
}

/** @internal */
export function barmanCloudConfig(cluster: Obj): BarmanCloudConfig {
  const name = meta(cluster).name;
  const entries = arr(at(cluster, 'spec', 'plugins')).map((p) => obj(p) ?? {});
  // NewPlugin keeps the parameters of the last entry with the name (enabled or not);
  // serverName comes from the last enabled one.
  const first = [...entries].reverse().find((p) => p.name === BARMAN_CLOUD_NAME);
  let serverName = name;
  for (const p of entries) {
    const sn = strings(p.parameters).serverName;
    if (p.name === BARMAN_CLOUD_NAME && p.enabled !== false && sn !== undefined) serverName = sn;
  }
  const rec = externalPlugin(cluster, str(at(cluster, 'spec', 'bootstrap', 'recovery', 'source')) ?? '');
  const rep = externalPlugin(cluster, str(at(cluster, 'spec', 'replica', 'source')) ?? '');
  const recParams = strings(rec?.parameters);
  return {
    barmanObjectName: strings(first?.parameters).barmanObjectName ?? '',
    serverName,
    recoveryBarmanObjectName: recParams.barmanObjectName ?? '',
    // Defaults to the recovering Cluster's own name, not the source's.
    recoveryServerName: rec ? recParams.serverName || name : '',
    replicaSourceBarmanObjectName: strings(rep?.parameters).barmanObjectName ?? '',
  };
}

/**
 * Class 6 for one Cluster: parameter keys, the ObjectStore namespace, the recovery destination
 * (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster,
 * Validate, GetBarmanObjectKey; internal/cnpgi/operator/lifecycle.go LifecycleHook;
 * internal/cnpgi/restore/restore.go Restore, checkBackupDestination).
 * `objectStores` are the ObjectStores of the input (all namespaces), or undefined when none are.
 * `requireObjectName: false` skips the missing-barmanObjectName error (the constructs leave it to
 * the doctor: an entry without it is inert rather than refused by anything).
 * @internal
 */
export function checkBarmanCloudCluster(cluster: Obj, objectStores?: readonly Obj[], options: { requireObjectName?: boolean } = {}): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  const { name, namespace } = meta(cluster);
  const ns = namespace ?? 'default';
  const entries = arr(at(cluster, 'spec', 'plugins')).map((p) => obj(p) ?? {});
  // The plugin reads the parameters of the last entry with its name (config.go NewPlugin).
  const index = entries.map((p) => p.name).lastIndexOf(BARMAN_CLOUD_NAME);
  const enabled = entries.some((p) => p.name === BARMAN_CLOUD_NAME && p.enabled !== false);
  const config = barmanCloudConfig(cluster);
  const paramSets: Array<{ path: string; params: Record<string, string> }> = [];
  if (index >= 0) paramSets.push({ path: `spec.plugins[${index}].parameters`, params: strings(entries[index].parameters) });
  arr(at(cluster, 'spec', 'externalClusters')).forEach((e, i) => {
    const p = obj(at(e, 'plugin'));
    if (p?.name === BARMAN_CLOUD_NAME) paramSets.push({ path: `spec.externalClusters[${i}].plugin.parameters`, params: strings(p.parameters) });
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
  if (
    options.requireObjectName !== false &&
    index >= 0 &&
    enabled &&
    config.barmanObjectName === '' &&
    config.recoveryBarmanObjectName === '' &&
    config.replicaSourceBarmanObjectName === ''
  ) {
    issues.push({
      severity: 'error',
      path: `spec.plugins[${index}].parameters.barmanObjectName`,
      message: "is missing; Barman Cloud's configuration check fails, its lifecycle hook injects no sidecar, and WAL archiving through the plugin fails",
      fix: "set parameters.barmanObjectName to the name of an ObjectStore in the Cluster's namespace",
    });
  }
  if (objectStores) {
    const refs: Array<{ path: string; store: string }> = [];
    if (config.barmanObjectName && index >= 0) refs.push({ path: `spec.plugins[${index}].parameters.barmanObjectName`, store: config.barmanObjectName });
    paramSets.slice(index >= 0 ? 1 : 0).forEach(({ path, params }) => {
      if (params.barmanObjectName) refs.push({ path: `${path}.barmanObjectName`, store: params.barmanObjectName });
    });
    for (const r of refs) {
      const same = objectStores.filter((o) => meta(o).name === r.store);
      if (same.some((o) => (meta(o).namespace ?? 'default') === ns)) continue;
      const elsewhere = same.map((o) => meta(o).namespace ?? 'default');
      issues.push({
        severity: elsewhere.length ? 'error' : 'warning',
        path: r.path,
        message: elsewhere.length
          ? `ObjectStore '${r.store}' is in namespace ${elsewhere.join(', ')}, but Barman Cloud looks it up only in the Cluster's namespace '${ns}'`
          : `ObjectStore '${r.store}' is not in the input; Barman Cloud looks for it in namespace '${ns}'`,
        fix: `create ObjectStore '${r.store}' in namespace '${ns}'`,
      });
    }
  }
  if (
    config.recoveryBarmanObjectName !== '' &&
    config.barmanObjectName === config.recoveryBarmanObjectName &&
    config.serverName === config.recoveryServerName
  ) {
    issues.push({
      severity: 'error',
      path: index >= 0 ? `spec.plugins[${index}].parameters` : 'spec.plugins',
      message: `Cluster '${name}' recovers from ObjectStore '${config.recoveryBarmanObjectName}' server '${config.recoveryServerName}' and archives into the same ObjectStore and server name; Barman Cloud's empty-archive check fails and recovery stops`,
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
export function checkBarmanCloudDeployment(container: Obj, envFromUnknown: boolean): FidelityIssue[] {
  const env = arr(container.env)
    .map((e) => obj(e) ?? {})
    .find((e) => e.name === 'SIDECAR_IMAGE');
  if (env && (str(env.value) ?? '') !== '') return [];
  if (env && env.valueFrom !== undefined) return [];
  if (!env && arr(container.envFrom).length > 0 && envFromUnknown) {
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
