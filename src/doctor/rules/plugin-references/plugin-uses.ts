/*
 * What the plugin-references rules (CNPGI039, CNPGI040) share: the plugin names that Clusters,
 * Backups and ScheduledBackups use.
 */
import { objectsOf, asString, asObject } from '../../../manifests/json';
import type { Manifest } from '../../../manifests/manifest-index';
import type { DoctorModel } from '../../model/doctor-model';

/** The API group of CloudNativePG's resources. */
export const CNPG_GROUP = 'postgresql.cnpg.io';

/** One use of a plugin name by an enabled entry. */
export interface PluginUse {
  readonly object: Manifest;
  readonly name: string;
  readonly path: string;
  /** Who uses it, for messages: `Cluster`, `Cluster external cluster 'x'`, `Backup`, `ScheduledBackup`. */
  readonly usedBy: string;
}

/**
 * The plugin names the enabled entries of Clusters (`spec.plugins`, `externalClusters[].plugin`)
 * and the plugin Backups and ScheduledBackups use, in input order.
 */
export function pluginUses(model: DoctorModel): PluginUse[] {
  const out: PluginUse[] = [];
  for (const m of model.index.ofKind('Cluster', CNPG_GROUP)) {
    const spec = asObject(m.raw.spec);
    if (!spec) continue;
    for (const { item, i } of objectsOf(spec.plugins)) {
      const name = asString(item.name);
      if (name && item.enabled !== false) out.push({ object: m, name, path: `spec.plugins[${i}].name`, usedBy: 'Cluster' });
    }
    for (const { item, i } of objectsOf(spec.externalClusters)) {
      const plugin = asObject(item.plugin);
      if (!plugin) continue;
      const label = asString(item.name) ? `external cluster '${item.name}'` : `spec.externalClusters[${i}]`;
      const name = asString(plugin.name);
      if (name && plugin.enabled !== false) out.push({ object: m, name, path: `spec.externalClusters[${i}].plugin.name`, usedBy: `Cluster ${label}` });
    }
  }
  for (const [kind, scheduled] of [
    ['Backup', false],
    ['ScheduledBackup', true],
  ] as const) {
    for (const m of model.index.ofKind(kind, CNPG_GROUP)) {
      const spec = asObject(m.raw.spec);
      if (!spec || (asString(spec.method) ?? 'barmanObjectStore') !== 'plugin') continue;
      const name = asString(asObject(spec.pluginConfiguration)?.name);
      if (name) out.push({ object: m, name, path: 'spec.pluginConfiguration.name', usedBy: scheduled ? 'ScheduledBackup' : 'Backup' });
    }
  }
  return out;
}
