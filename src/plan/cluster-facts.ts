/*
 * What the plan rules read from a Cluster, the way CloudNativePG v1.30.0 and Barman Cloud
 * v0.14.0 read it. Plain JSON in, plain values out.
 */
import { BARMAN_CLOUD_PLUGIN_NAME } from '../manifests/known-plugins';
import { Json, asArray, asObject, asString, dig } from './plan-model';

const SUFFIX: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

/**
 * A Kubernetes quantity (`10Gi`, `500M`, `1e3`) as a number, or undefined when it does not
 * parse, in which case CloudNativePG does not compare sizes either (GetSizeOrNil returns nil).
 * @internal
 */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return undefined;
  const m = QUANTITY.exec(value.trim());
  if (!m) return undefined;
  const base = Number(m[1]);
  if (m[2] !== undefined) return base * 10 ** Number(m[2].slice(1));
  return base * SUFFIX[m[3] ?? ''];
}

/**
 * The requested size of a storage section as CloudNativePG reads it (api/v1 GetSizeOrNil):
 * `size` when set, else the PVC template's `resources.requests.storage`.
 * @internal
 */
export function storageSize(storage: unknown): { text: string; bytes: number } | undefined {
  const s = asObject(storage);
  if (!s) return undefined;
  const raw = asString(s.size) !== undefined && s.size !== '' ? s.size : dig(s, 'pvcTemplate', 'resources', 'requests', 'storage');
  const bytes = parseQuantity(raw);
  return bytes === undefined ? undefined : { text: String(raw), bytes };
}

/** CloudNativePG v1.30.0's default image (pkg/versions DefaultImageName) is PostgreSQL 18. @internal */
export const DEFAULT_POSTGRES_MAJOR = 18;

/**
 * The PostgreSQL major version a Cluster spec asks for (api/v1 GetPostgresqlMajorVersion): the
 * image catalog's `major`, else the major of the image tag, else the operator's default image.
 * Undefined when the tag does not parse (the webhook then reports the image, not the change).
 * @internal
 */
export function specMajor(spec: Json | undefined): number | undefined {
  const catalogMajor = dig(spec, 'imageCatalogRef', 'major');
  if (asObject(dig(spec, 'imageCatalogRef'))) {
    return typeof catalogMajor === 'number' && Number.isInteger(catalogMajor) ? catalogMajor : undefined;
  }
  const image = asString(dig(spec, 'imageName'));
  if (image === undefined || image === '') return DEFAULT_POSTGRES_MAJOR;
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  if (colon < 0) return undefined;
  const m = /^(\d+)(?:\.\d+)?/.exec(withoutDigest.slice(colon + 1));
  return m ? Number(m[1]) : undefined;
}

/** A plugin entry of `spec.plugins`, as the operator reads it (`enabled` defaults to true). @internal */
export interface ClusterPluginEntry {
  readonly name: string;
  readonly enabled: boolean;
  readonly isWALArchiver: boolean;
  readonly parameters: Record<string, string>;
  readonly index: number;
}

/** @internal */
export function clusterPlugins(cluster: Json): ClusterPluginEntry[] {
  const out: ClusterPluginEntry[] = [];
  asArray(dig(cluster, 'spec', 'plugins')).forEach((p, index) => {
    const o = asObject(p);
    const name = asString(o?.name);
    if (!o || name === undefined) return;
    const parameters: Record<string, string> = {};
    for (const [k, v] of Object.entries(asObject(o.parameters) ?? {})) {
      if (typeof v === 'string') parameters[k] = v;
    }
    out.push({ name, enabled: o.enabled !== false, isWALArchiver: o.isWALArchiver === true, parameters, index });
  });
  return out;
}

/**
 * Where a Cluster archives its WAL: the enabled WAL archiver plugin, and for Barman Cloud the
 * ObjectStore and the server name (Barman Cloud's default server name is the Cluster's name:
 * plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster).
 * The in-tree `spec.backup.barmanObjectStore` counts as the archiver `(in-tree barmanObjectStore)`.
 * @internal
 */
export interface WalArchive {
  readonly plugin: string;
  readonly objectStore?: string;
  readonly serverName?: string;
}

/** @internal */
export function walArchiveOf(cluster: Json, clusterName: string): WalArchive | undefined {
  const archiver = clusterPlugins(cluster).find((p) => p.enabled && p.isWALArchiver);
  if (archiver) {
    if (archiver.name !== BARMAN_CLOUD_PLUGIN_NAME) return { plugin: archiver.name };
    return {
      plugin: archiver.name,
      objectStore: archiver.parameters.barmanObjectName,
      serverName: archiver.parameters.serverName ?? clusterName,
    };
  }
  const inTree = asObject(dig(cluster, 'spec', 'backup', 'barmanObjectStore'));
  if (inTree) {
    return {
      plugin: '(in-tree barmanObjectStore)',
      objectStore: asString(inTree.destinationPath),
      serverName: asString(inTree.serverName) ?? clusterName,
    };
  }
  return undefined;
}

/**
 * Every plugin name an object needs the operator to know: a Cluster's enabled plugins and
 * external cluster plugins, a Backup's or ScheduledBackup's `pluginConfiguration.name`.
 * @internal
 */
export function pluginsUsedBy(kind: string, body: Json): string[] {
  if (kind === 'Cluster') {
    const names = clusterPlugins(body)
      .filter((p) => p.enabled)
      .map((p) => p.name);
    for (const e of asArray(dig(body, 'spec', 'externalClusters'))) {
      const n = asString(dig(e, 'plugin', 'name'));
      if (n !== undefined) names.push(n);
    }
    return names;
  }
  if (kind === 'Backup' || kind === 'ScheduledBackup') {
    const n = asString(dig(body, 'spec', 'pluginConfiguration', 'name'));
    return n === undefined || asString(dig(body, 'spec', 'method')) !== 'plugin' ? [] : [n];
  }
  return [];
}

/** The ObjectStores (Barman Cloud) a Cluster reads or writes: archiver and external clusters. @internal */
export function objectStoresUsedBy(cluster: Json): string[] {
  const names: string[] = [];
  for (const p of clusterPlugins(cluster)) {
    if (p.enabled && p.name === BARMAN_CLOUD_PLUGIN_NAME && p.parameters.barmanObjectName) names.push(p.parameters.barmanObjectName);
  }
  for (const e of asArray(dig(cluster, 'spec', 'externalClusters'))) {
    if (asString(dig(e, 'plugin', 'name')) === BARMAN_CLOUD_PLUGIN_NAME) {
      const n = asString(dig(e, 'plugin', 'parameters', 'barmanObjectName'));
      if (n !== undefined) names.push(n);
    }
  }
  return names;
}
