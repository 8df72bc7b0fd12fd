/*
 * Data loss: a Barman Cloud ObjectStore disappears; the Clusters that archive into it lose their
 * WAL archive, and its backups their description.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { objectStoresUsedBy } from '../../cluster-facts';
import { BARMAN_GROUP, CNPG_GROUP, PlanContext, dig } from '../../plan-model';
import { addedByNamespace, takeMatch } from './renames';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI202',
  name: 'object-store-removed',
  severities: [
    { severity: 'error', when: 'A Cluster of the next manifests (or of the previous ones, archiving into it) names the ObjectStore.' },
    { severity: 'warning', when: 'No Cluster of either set uses it: its backups are no longer reachable from these manifests.' },
  ],
  what: 'A Barman Cloud ObjectStore disappears or is renamed (matched by the same namespace and destinationPath).',
  why:
    'Barman Cloud reads the ObjectStore named by `barmanObjectName` for every WAL it archives or restores ' +
    '(plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive); without it archiving fails and the WAL piles up on the instance volume, ' +
    'and recovery from its backups has no credentials or destination.',
  fix: "Pin the old name: `metadata: { name: '<old name>' }` on the ObjectStore, or point every Cluster at the new one and take a new base backup.",
  kinds: ['ObjectStore', 'Cluster'],
  check(ctx, report) {
    // ObjectStores used by a Cluster of either set: losing one is an error.
    const used = new Set<string>();
    for (const side of [ctx.previous, ctx.next]) {
      for (const c of side.ofKind('Cluster', CNPG_GROUP)) {
        for (const s of objectStoresUsedBy(c.body)) used.add(`${c.namespace ?? ''}\u0000${s}`);
      }
    }
    const addedStores = addedByNamespace(ctx, 'ObjectStore', BARMAN_GROUP);
    for (const old of ctx.previous.ofKind('ObjectStore', BARMAN_GROUP)) {
      if (ctx.next.get(old)) continue;
      const destination = dig(old.body, 'spec', 'configuration', 'destinationPath');
      const renamed = takeMatch(
        addedStores.get(old.namespace ?? ''),
        (c) => destination !== undefined && dig(c.body, 'spec', 'configuration', 'destinationPath') === destination,
      );
      const inUse = used.has(`${old.namespace ?? ''}\u0000${old.name}`);
      report(
        inUse ? 'error' : 'warning',
        old,
        (renamed ? `is renamed to '${renamed.name}' (same destinationPath)` : 'disappears') +
          (inUse
            ? ': Clusters that archive into or recover from it lose their WAL archive and their backups'
            : ': the backups it describes are no longer reachable from these manifests'),
        `pin \`metadata.name: ${old.name}\` on the ObjectStore${renamed ? ` now named '${renamed.name}'` : ''}`,
        'metadata.name',
        { before: old.name, after: renamed?.name ?? null },
      );
    }
  },
};
