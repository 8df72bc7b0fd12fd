/*
 * Backup chain: a change after which the WAL no longer lands next to the base backups it
 * continues, so point-in-time recovery across the change is not possible.
 */
import { walArchiveOf } from './cluster-facts';
import { BARMAN_GROUP, CNPG_GROUP, PlanContext, PlanRule, asString, dig } from './plan-model';

/** @internal */
export const WAL_ARCHIVER_CHANGED: PlanRule = {
  id: 'CNPGI240',
  name: 'wal-archiver-changed',
  severities: {
    error: 'The Cluster archived its WAL before and no longer does (no enabled plugin with `isWALArchiver`, no in-tree barmanObjectStore).',
    warning: "`isWALArchiver` moves to another plugin, or Barman Cloud's `barmanObjectName` or `serverName` parameter changes.",
  },
  what: 'The WAL archiver of an existing Cluster stops, moves to another plugin, or archives into another ObjectStore or server name.',
  why:
    'The archiver is the one enabled plugin with `isWALArchiver` (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePluginConfiguration); ' +
    'Barman Cloud writes under `<destinationPath>/<serverName>` of the ObjectStore named by `barmanObjectName`, the server name defaulting to the Cluster name ' +
    '(plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster). A new place has no base backup to replay the WAL onto.',
  fix: 'Revert it; for a deliberate move, take a base backup right after the change and keep the old ObjectStore until its backups expire.',
  kinds: ['Cluster'],
};

/** @internal */
export const OBJECT_STORE_DESTINATION_CHANGED: PlanRule = {
  id: 'CNPGI241',
  name: 'object-store-destination-changed',
  severities: { error: 'A Cluster of the next manifests archives into the ObjectStore whose `destinationPath` or `serverName` changes.' },
  what: "An ObjectStore's `spec.configuration.destinationPath` or `serverName` changes while a Cluster archives into it.",
  why:
    'Barman Cloud resolves the destination from the ObjectStore on every archive call (plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive): ' +
    'the Cluster silently starts a new archive, without base backups, and the old backups are no longer where the store points.',
  fix: 'Keep the destination; to move, create a second ObjectStore, switch the Cluster to it, and take a base backup.',
  kinds: ['ObjectStore', 'Cluster'],
};

/** @internal */
export const BACKUP_CHAIN_RULES: readonly PlanRule[] = [WAL_ARCHIVER_CHANGED, OBJECT_STORE_DESTINATION_CHANGED];

/** @internal */
export function checkBackupChain(ctx: PlanContext): void {
  // ObjectStores archived into by a Cluster of the next set, per namespace and name.
  const archivingInto = new Map<string, string[]>();
  for (const next of ctx.next.ofKind('Cluster', CNPG_GROUP)) {
    const after = walArchiveOf(next.body, next.name);
    if (after?.objectStore !== undefined) {
      const key = `${next.namespace ?? ''}\u0000${after.objectStore}`;
      archivingInto.set(key, [...(archivingInto.get(key) ?? []), next.name]);
    }
    const prev = ctx.previous.get(next);
    if (!prev) continue;
    const before = walArchiveOf(prev.body, prev.name);
    if (!before) continue;
    if (!after) {
      ctx.emit({
        ruleId: WAL_ARCHIVER_CHANGED.id,
        severity: 'error',
        object: next.ref,
        path: 'spec.plugins',
        before: before.plugin,
        after: null,
        message: `stops archiving WAL (it archived through ${before.plugin}): no point-in-time recovery after this change`,
        fix: `keep \`isWALArchiver: true\` on ${before.plugin}`,
      });
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
    ctx.emit({
      ruleId: WAL_ARCHIVER_CHANGED.id,
      severity: 'warning',
      object: next.ref,
      path: what === 'WAL archiver plugin' ? 'spec.plugins' : `spec.plugins[${after.plugin}].parameters`,
      before: b ?? null,
      after: a ?? null,
      message:
        `archives its WAL elsewhere: the ${changed.map(([w]) => w).join(' and ')} change${changed.length === 1 ? 's' : ''} ` +
        `(${changed.map(([, x, y]) => `'${x ?? '(none)'}' -> '${y ?? '(none)'}'`).join(', ')}); the new archive has no base backup yet`,
      fix: 'revert it, or take a base backup right after the change and keep the old ObjectStore until its backups expire',
    });
  }

  for (const prev of ctx.previous.ofKind('ObjectStore', BARMAN_GROUP)) {
    const next = ctx.next.get(prev);
    if (!next) continue;
    const clusters = archivingInto.get(`${next.namespace ?? ''}\u0000${next.name}`);
    if (!clusters) continue;
    for (const field of ['destinationPath', 'serverName']) {
      const b = asString(dig(prev.body, 'spec', 'configuration', field));
      const a = asString(dig(next.body, 'spec', 'configuration', field));
      if (b === a) continue;
      ctx.emit({
        ruleId: OBJECT_STORE_DESTINATION_CHANGED.id,
        severity: 'error',
        object: next.ref,
        path: `spec.configuration.${field}`,
        before: b ?? null,
        after: a ?? null,
        message:
          `changes ${field} from '${b ?? '(unset)'}' to '${a ?? '(unset)'}' while Cluster${clusters.length === 1 ? '' : 's'} ` +
          `${clusters.map((c) => `'${c}'`).join(', ')} archive${clusters.length === 1 ? 's' : ''} into it: a new archive without base backups starts silently`,
        fix: `keep \`${field}: ${b ?? '(unset)'}\`; to move, add a second ObjectStore, switch the Cluster to it and take a base backup`,
      });
    }
  }
}
