/*
 * Backup chain: the destination of an ObjectStore changes while a Cluster archives into it, so
 * a new archive without base backups starts silently.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { walArchiveOf } from '../../cluster-facts';
import { BARMAN_GROUP, CNPG_GROUP, PlanContext, asString, dig } from '../../plan-model';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI241',
  name: 'object-store-destination-changed',
  severities: [{ severity: 'error', when: 'A Cluster of the next manifests archives into the ObjectStore whose `destinationPath` or `serverName` changes.' }],
  what: "An ObjectStore's `spec.configuration.destinationPath` or `serverName` changes while a Cluster archives into it.",
  why:
    'Barman Cloud resolves the destination from the ObjectStore on every archive call (plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive): ' +
    'the Cluster silently starts a new archive, without base backups, and the old backups are no longer where the store points.',
  fix: 'Keep the destination; to move, create a second ObjectStore, switch the Cluster to it, and take a base backup.',
  kinds: ['ObjectStore', 'Cluster'],
  check(ctx, report) {
    // ObjectStores archived into by a Cluster of the next set, per namespace and name.
    const archivingInto = new Map<string, string[]>();
    for (const next of ctx.next.ofKind('Cluster', CNPG_GROUP)) {
      const store = walArchiveOf(next.body, next.name)?.objectStore;
      if (store === undefined) continue;
      const key = `${next.namespace ?? ''}\u0000${store}`;
      const list = archivingInto.get(key);
      if (list) list.push(next.name);
      else archivingInto.set(key, [next.name]);
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
        report(
          'error',
          next,
          `changes ${field} from '${b ?? '(unset)'}' to '${a ?? '(unset)'}' while Cluster${clusters.length === 1 ? '' : 's'} ` +
            `${clusters.map((c) => `'${c}'`).join(', ')} archive${clusters.length === 1 ? 's' : ''} into it: a new archive without base backups starts silently`,
          `keep \`${field}: ${b ?? '(unset)'}\`; to move, add a second ObjectStore, switch the Cluster to it and take a base backup`,
          `spec.configuration.${field}`,
          { before: b ?? null, after: a ?? null },
        );
      }
    }
  },
};
