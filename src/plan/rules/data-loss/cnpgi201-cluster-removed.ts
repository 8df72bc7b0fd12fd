/*
 * Data loss: a Cluster disappears from the next manifests. With GitOps pruning (Argo CD, Flux)
 * it is deleted, and its PVCs with it.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { walArchiveOf } from '../../cluster-facts';
import { CNPG_GROUP, PlanContext, canonical } from '../../plan-model';
import { addedByNamespace, takeMatch } from './renames';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI201',
  name: 'cluster-removed',
  severities: [
    {
      severity: 'error',
      when: 'A Cluster of the previous manifests is not in the next ones (deleted, or renamed: the report names the Cluster that looks like it).',
    },
  ],
  what: 'A Cluster disappears, or is renamed: matched by what it is (same namespace and the same spec, or the same WAL archive ObjectStore and server name).',
  why:
    'CloudNativePG makes the Cluster the owner of its PVCs (cloudnative-pg v1.30.0 pkg/reconciler/persistentvolumeclaim/build.go Build, through ' +
    'api/v1/cluster_funcs.go SetInheritedDataAndOwnership), so pruning the Cluster garbage-collects its volumes; a new name is an empty Cluster ' +
    'with new Services (`<name>-rw`) and, by default, a new Barman Cloud server name (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster).',
  fix: "Pin the old name: `metadata: { name: '<old name>' }` (cdk8s-cnpg-i names a Cluster after its construct id, so keep the id).",
  kinds: ['Cluster'],
  check(ctx, report) {
    const addedClusters = addedByNamespace(ctx, 'Cluster', CNPG_GROUP);
    for (const old of ctx.previous.ofKind('Cluster', CNPG_GROUP)) {
      if (ctx.next.get(old)) continue;
      const spec = canonical(old.body.spec);
      const archive = walArchiveOf(old.body, old.name);
      // The same archive: same ObjectStore, and the same server name (or the default, the Cluster's name, on both).
      const defaultServer = archive?.serverName === old.name;
      const candidates = addedClusters.get(old.namespace ?? '');
      const renamed =
        takeMatch(candidates, (c) => canonical(c.body.spec) === spec) ??
        takeMatch(candidates, (c) => {
          const a = walArchiveOf(c.body, c.name);
          return (
            archive?.objectStore !== undefined &&
            a?.objectStore === archive.objectStore &&
            (a.serverName === archive.serverName || (defaultServer && a.serverName === c.name))
          );
        });
      report(
        'error',
        old,
        renamed
          ? `is renamed to '${renamed.name}' (same namespace and ${canonical(renamed.body.spec) === spec ? 'the same spec' : 'the same WAL archive'}): ` +
              'with pruning the Cluster is deleted with its PVCs, and an empty Cluster is created, with new Services and a new backup server name'
          : 'disappears: with pruning the Cluster is deleted, and its PVCs with it',
        renamed
          ? `pin \`metadata.name: ${old.name}\` on the Cluster now named '${renamed.name}'`
          : `keep the Cluster, or pin \`metadata.name: ${old.name}\` where it moved; delete a database deliberately, outside GitOps pruning`,
        'metadata.name',
        { before: old.name, after: renamed?.name ?? null },
      );
    }
  },
};
