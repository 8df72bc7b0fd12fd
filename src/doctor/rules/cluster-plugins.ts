/*
 * CNPGI041, CNPGI042, CNPGI046: what the Cluster webhook refuses about plugins, and the
 * duplicate entry it lets through. (CNPGI043, an external cluster without a source, is retired:
 * CNPGI100 reports it with the other external-cluster rules.)
 */
import { dig, objectsOf, asString, asObject } from '../../manifests/json';
import { Manifest } from '../../manifests/manifest-index';
import { Report, defineFamily } from './rule';

type ClusterRuleId = 'CNPGI041' | 'CNPGI042' | 'CNPGI046';

/** The Cluster rules about plugins. */
export const clusterPlugins = defineFamily({
  rules: [
    {
      id: 'CNPGI041',
      name: 'wal-archiver-count',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'More than one enabled plugin of a Cluster sets `isWALArchiver: true`.',
      why: 'The CNPG webhook rejects the Cluster: "Cannot enable more than one WAL archiver plugin" (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go ClusterCustomValidator.validatePluginConfiguration).',
      fix: 'Keep `isWALArchiver: true` on one plugin only.',
      kinds: ['postgresql.cnpg.io/Cluster'],
    },
    {
      id: 'CNPGI042',
      name: 'wal-archiver-barman-object-store',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A Cluster has a WAL archiver plugin and `spec.backup.barmanObjectStore`.',
      why: 'The CNPG webhook rejects the Cluster: only one WAL archiving method is allowed (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go ClusterCustomValidator.validatePluginConfiguration).',
      fix: "Remove `spec.backup.barmanObjectStore` (the plugin archives WAL) or the plugin's `isWALArchiver`.",
      kinds: ['postgresql.cnpg.io/Cluster'],
    },
    {
      id: 'CNPGI046',
      name: 'plugin-duplicate-in-cluster',
      severities: [{ severity: 'warning', when: 'always (two enabled WAL archiver entries are also CNPGI041)' }],
      what: 'A Cluster lists the same plugin name twice in `spec.plugins`.',
      why: "Nothing refuses or merges the entries: the webhook checks WAL archivers only (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go ClusterCustomValidator.validatePluginConfiguration) and the names are collected as listed (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go GetPluginConfigurationEnabledPluginNames); the operator loads the plugin once (cloudnative-pg v1.30.0 internal/cnpi/plugin/client/client.go WithPlugins) and a plugin that looks its entry up by name reads one of them (Barman Cloud the last: plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewPlugin), so the Cluster works but the other entry's parameters are silently lost.",
      fix: 'Merge the two entries.',
      kinds: ['postgresql.cnpg.io/Cluster'],
    },
  ],
  check(model, report) {
    for (const m of model.index.ofKind('Cluster', 'postgresql.cnpg.io')) checkCluster(report, m);
  },
});

function checkCluster(report: Report<ClusterRuleId>, m: Manifest): void {
  const spec = asObject(m.raw.spec);
  if (!spec) return;
  const seen = new Map<string, number>();
  const archivers: string[] = [];
  for (const { item, i } of objectsOf(spec.plugins)) {
    const path = `spec.plugins[${i}]`;
    const name = asString(item.name);
    if (!name) continue; // CNPGI039
    if (seen.has(name)) {
      report(
        'CNPGI046',
        'warning',
        m,
        `plugin '${name}' is listed twice (spec.plugins[${seen.get(name)}] and [${i}]); the webhook accepts it and the plugin is loaded once, but one entry's settings are silently lost`,
        'merge the two entries into one',
        `${path}.name`,
      );
    } else {
      seen.set(name, i);
    }
    const enabled = item.enabled !== false;
    if (enabled && item.isWALArchiver === true) archivers.push(name);
  }
  if (archivers.length > 1) {
    report(
      'CNPGI041',
      'error',
      m,
      `plugins ${archivers.map((a) => `'${a}'`).join(' and ')} all set isWALArchiver; the webhook allows one WAL archiver per Cluster`,
      'keep isWALArchiver: true on one plugin only',
      'spec.plugins',
    );
  }
  if (archivers.length > 0 && asObject(dig(spec, 'backup', 'barmanObjectStore'))) {
    report(
      'CNPGI042',
      'error',
      m,
      `plugin '${archivers[0]}' is the WAL archiver and spec.backup.barmanObjectStore is set; the webhook rejects two WAL archiving methods`,
      'remove spec.backup.barmanObjectStore (the plugin archives WAL), or isWALArchiver',
      'spec.backup.barmanObjectStore',
    );
  }
}
