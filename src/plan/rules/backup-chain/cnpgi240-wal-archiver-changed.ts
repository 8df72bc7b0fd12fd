/*
 * Backup chain: the WAL archiver of an existing Cluster stops, or writes somewhere else, so the
 * WAL no longer lands next to the base backups it continues.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { clusterPlugins, walArchiveOf } from '../../cluster-facts';
import { CNPG_GROUP, Json, PlanContext } from '../../plan-model';

/**
 * The field that names a Cluster's archiver: `spec.plugins[<i>]` of the enabled plugin with
 * `isWALArchiver` (as `walArchiveOf` picks it), else the in-tree `spec.backup.barmanObjectStore`.
 */
function archiverPath(cluster: Json): string {
  const archiver = clusterPlugins(cluster).find((p) => p.enabled && p.isWALArchiver);
  return archiver ? `spec.plugins[${archiver.index}]` : 'spec.backup.barmanObjectStore';
}

/**
 * Where the archiving stopped in `next`: the old archiver's entry turned off
 * (`spec.plugins[<i>].enabled` or `.isWALArchiver`), else the list or section it was removed from.
 */
function stoppedPath(prev: Json, next: Json): string {
  const wasPlugin = clusterPlugins(prev).find((p) => p.enabled && p.isWALArchiver);
  if (!wasPlugin) return 'spec.backup.barmanObjectStore';
  const now = clusterPlugins(next).find((p) => p.name === wasPlugin.name);
  if (!now) return 'spec.plugins';
  return `spec.plugins[${now.index}].${now.enabled ? 'isWALArchiver' : 'enabled'}`;
}

/** The field of each part of `WalArchive` under the archiver's path. */
const FIELDS = {
  plugin: { plugin: 'isWALArchiver', inTree: '' },
  objectStore: { plugin: 'parameters.barmanObjectName', inTree: 'destinationPath' },
  serverName: { plugin: 'parameters.serverName', inTree: 'serverName' },
} as const;

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI240',
  name: 'wal-archiver-changed',
  severities: [
    {
      severity: 'error',
      when: 'The Cluster archived its WAL before and no longer does (no enabled plugin with `isWALArchiver`, no in-tree barmanObjectStore).',
    },
    { severity: 'warning', when: "`isWALArchiver` moves to another plugin, or Barman Cloud's `barmanObjectName` or `serverName` parameter changes." },
  ],
  what: 'The WAL archiver of an existing Cluster stops, moves to another plugin, or archives into another ObjectStore or server name.',
  why:
    'The archiver is the one enabled plugin with `isWALArchiver` (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePluginConfiguration); ' +
    'Barman Cloud writes under `<destinationPath>/<serverName>` of the ObjectStore named by `barmanObjectName`, the server name defaulting to the Cluster name ' +
    '(plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster). A new place has no base backup to replay the WAL onto.',
  fix: 'Revert it; for a deliberate move, take a base backup right after the change and keep the old ObjectStore until its backups expire.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const next of ctx.next.ofKind('Cluster', CNPG_GROUP)) {
      const prev = ctx.previous.get(next);
      if (!prev) continue;
      const before = walArchiveOf(prev.body, prev.name);
      if (!before) continue;
      const after = walArchiveOf(next.body, next.name);
      if (!after) {
        report(
          'error',
          next,
          `stops archiving WAL (it archived through ${before.plugin}): no point-in-time recovery after this change`,
          `keep \`isWALArchiver: true\` on ${before.plugin}`,
          stoppedPath(prev.body, next.body),
          { before: before.plugin, after: null },
        );
        continue;
      }
      const changes: Array<[string, keyof typeof FIELDS, string | undefined, string | undefined]> = [
        ['WAL archiver plugin', 'plugin', before.plugin, after.plugin],
        ['ObjectStore (barmanObjectName)', 'objectStore', before.objectStore, after.objectStore],
        ['server name', 'serverName', before.serverName, after.serverName],
      ];
      const changed = changes.filter(([, , b, a]) => b !== a);
      if (changed.length === 0) continue;
      const [, part, b, a] = changed[0];
      const at = archiverPath(next.body);
      const field = FIELDS[part][at.startsWith('spec.plugins') ? 'plugin' : 'inTree'];
      report(
        'warning',
        next,
        `archives its WAL elsewhere: the ${changed.map(([w]) => w).join(' and ')} change${changed.length === 1 ? 's' : ''} ` +
          `(${changed.map(([, , x, y]) => `'${x ?? '(none)'}' -> '${y ?? '(none)'}'`).join(', ')}); the new archive has no base backup yet`,
        'revert it, or take a base backup right after the change and keep the old ObjectStore until its backups expire',
        field === '' ? at : `${at}.${field}`,
        { before: b ?? null, after: a ?? null },
      );
    }
  },
};
