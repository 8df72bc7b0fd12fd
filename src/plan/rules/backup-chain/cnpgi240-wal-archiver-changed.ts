/*
 * Backup chain: the WAL archiver of an existing Cluster stops, or writes somewhere else, so the
 * WAL no longer lands next to the base backups it continues.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { walArchiveOf } from '../../cluster-facts';
import { CNPG_GROUP, PlanContext } from '../../plan-model';

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
          'spec.plugins',
          { before: before.plugin, after: null },
        );
        continue;
      }
      const changes: Array<[string, string | undefined, string | undefined]> = [
        ['WAL archiver plugin', before.plugin, after.plugin],
        ['ObjectStore (barmanObjectName)', before.objectStore, after.objectStore],
        ['server name', before.serverName, after.serverName],
      ];
      const changed = changes.filter(([, b, a]) => b !== a);
      if (changed.length === 0) continue;
      const [what, b, a] = changed[0];
      report(
        'warning',
        next,
        `archives its WAL elsewhere: the ${changed.map(([w]) => w).join(' and ')} change${changed.length === 1 ? 's' : ''} ` +
          `(${changed.map(([, x, y]) => `'${x ?? '(none)'}' -> '${y ?? '(none)'}'`).join(', ')}); the new archive has no base backup yet`,
        'revert it, or take a base backup right after the change and keep the old ObjectStore until its backups expire',
        what === 'WAL archiver plugin' ? 'spec.plugins' : `spec.plugins[${after.plugin}].parameters`,
        { before: b ?? null, after: a ?? null },
      );
    }
  },
};
