import { Json, asArray, asObject, asString, dig, objectMeta, stringMap } from '../manifests/json';
import { CheckIssue } from './issue';

/**
 * Class 3: what the Backup controller checks before it starts (cloudnative-pg v1.30.0
 * internal/controller/backup_controller.go checkPrerequisites and Reconcile, which loads only
 * the enabled plugins; internal/cnpi/plugin/client/client.go getPlugin).
 *
 * `cluster` is the Cluster the Backup names, in the Backup's namespace, if the input has it;
 * `includePlugins` the operator's INCLUDE_PLUGINS, which the defaulting webhook adds to
 * `spec.plugins` (api/v1/cluster_defaults.go setDefaultPlugins).
 * @internal
 */
export function checkBackupPrerequisites(backup: Json, cluster: Json | undefined, includePlugins: readonly string[] = []): CheckIssue[] {
  if (!cluster) return [];
  const spec = asObject(backup.spec) ?? {};
  const method = asString(spec.method) ?? 'barmanObjectStore';
  // A misspelled method is refused by the API server before any of this (see checkBackupSpec).
  if (!['barmanObjectStore', 'volumeSnapshot', 'plugin'].includes(method)) return [];
  const clusterName = objectMeta(cluster).name;
  const fail = (path: string, message: string, fix: string): CheckIssue => ({ severity: 'error', path, message, fix });
  const issues: CheckIssue[] = [];
  if (stringMap(dig(cluster, 'metadata', 'annotations'))['cnpg.io/hibernation'] === 'on') {
    issues.push(
      fail(
        'spec.cluster.name',
        `Cluster '${clusterName}' is hibernated (cnpg.io/hibernation: on); the Backup fails`,
        'back up before hibernating, or remove the annotation',
      ),
    );
  }
  const plugins = effectivePlugins(cluster, includePlugins);
  if (method === 'plugin') {
    const name = asString(dig(spec, 'pluginConfiguration', 'name')) ?? '';
    if (plugins.length === 0) {
      issues.push(
        fail(
          'spec.method',
          `is plugin but Cluster '${clusterName}' has no spec.plugins; the Backup fails at once (ClusterHasNoBackupExecutorPlugin)`,
          `add '${name || '<plugin>'}' to the Cluster's spec.plugins`,
        ),
      );
    } else if (name !== '') {
      const entry = plugins.find((p) => p.name === name);
      if (!entry) {
        issues.push(
          fail(
            'spec.pluginConfiguration.name',
            `'${name}' is not in Cluster '${clusterName}' spec.plugins; only the Cluster's enabled plugins are loaded, so the backup finds no such plugin`,
            `add '${name}' to the Cluster's spec.plugins, or back up through one of ${plugins.map((p) => `'${p.name}'`).join(', ')}`,
          ),
        );
      } else if (!entry.enabled) {
        issues.push(
          fail(
            'spec.pluginConfiguration.name',
            `'${name}' has enabled: false in Cluster '${clusterName}'; disabled plugins are not loaded, so the backup finds no such plugin`,
            `set enabled: true (or remove it) on that spec.plugins entry`,
          ),
        );
      }
    }
    return issues;
  }
  const backupSection = asObject(dig(cluster, 'spec', 'backup'));
  if (!backupSection) {
    issues.push(
      fail(
        'spec.method',
        `is ${method}${spec.method === undefined ? ' (the CRD default)' : ''} but Cluster '${clusterName}' has no spec.backup; the Backup fails`,
        'write method: plugin with pluginConfiguration.name, or configure spec.backup in the Cluster',
      ),
    );
  } else if (method === 'volumeSnapshot' && !asObject(backupSection.volumeSnapshot)) {
    issues.push(
      fail(
        'spec.method',
        `is volumeSnapshot but Cluster '${clusterName}' has no spec.backup.volumeSnapshot; the Backup fails`,
        'configure spec.backup.volumeSnapshot in the Cluster',
      ),
    );
  } else if (method === 'barmanObjectStore' && !asObject(backupSection.barmanObjectStore)) {
    issues.push(
      fail(
        'spec.method',
        `is barmanObjectStore${spec.method === undefined ? ' (the CRD default)' : ''} but Cluster '${clusterName}' has no spec.backup.barmanObjectStore; the Backup fails`,
        'write method: plugin with pluginConfiguration.name for a plugin backup',
      ),
    );
  }
  return issues;
}

/** `spec.plugins` after the defaulting webhook: INCLUDE_PLUGINS names not yet listed are appended enabled. @internal */
export function effectivePlugins(cluster: Json, includePlugins: readonly string[]): Array<{ name: string; enabled: boolean }> {
  const listed = asArray(dig(cluster, 'spec', 'plugins'))
    .map((p) => asObject(p) ?? {})
    .map((p) => ({ name: asString(p.name) ?? '', enabled: p.enabled !== false }));
  const names = new Set(listed.map((p) => p.name));
  for (const n of includePlugins)
    if (!names.has(n)) {
      listed.push({ name: n, enabled: true });
      names.add(n);
    }
  return listed;
}
