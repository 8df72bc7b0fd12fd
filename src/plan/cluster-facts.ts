/*
 * What the plan rules read from a Cluster, the way CloudNativePG v1.30.0 and Barman Cloud
 * v0.14.0 read it. Plain JSON in, plain values out.
 */
import { BARMAN_CLOUD_PLUGIN_NAME } from '../manifests/known-plugins';
import { Json, asArray, asObject, asString, dig } from './plan-model';

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
