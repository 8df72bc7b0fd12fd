/*
 * Data loss: an object that holds data disappears from the next manifests. With GitOps pruning
 * (Argo CD, Flux) it is deleted, and whatever it owns with it.
 */
import { objectStoresUsedBy, walArchiveOf } from './cluster-facts';
import { BARMAN_GROUP, CNPG_GROUP, PlanContext, PlanObject, PlanRule, canonical, dig } from './plan-model';

/** @internal */
export const CLUSTER_REMOVED: PlanRule = {
  id: 'CNPGI201',
  name: 'cluster-removed',
  severities: { error: 'A Cluster of the previous manifests is not in the next ones (deleted, or renamed: the report names the Cluster that looks like it).' },
  what: 'A Cluster disappears, or is renamed: matched by what it is (same namespace and the same spec, or the same WAL archive ObjectStore and server name).',
  why:
    'CloudNativePG makes the Cluster the owner of its PVCs (cloudnative-pg v1.30.0 pkg/reconciler/persistentvolumeclaim/build.go Build, through ' +
    'api/v1/cluster_funcs.go SetInheritedDataAndOwnership), so pruning the Cluster garbage-collects its volumes; a new name is an empty Cluster ' +
    'with new Services (`<name>-rw`) and, by default, a new Barman Cloud server name (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster).',
  fix: "Pin the old name: `metadata: { name: '<old name>' }` (cdk8s-cnpg-i names a Cluster after its construct id, so keep the id).",
  kinds: ['Cluster'],
};

/** @internal */
export const OBJECT_STORE_REMOVED: PlanRule = {
  id: 'CNPGI202',
  name: 'object-store-removed',
  severities: {
    error: 'A Cluster of the next manifests (or of the previous ones, archiving into it) names the ObjectStore.',
    warning: 'No Cluster of either set uses it: its backups are no longer reachable from these manifests.',
  },
  what: 'A Barman Cloud ObjectStore disappears or is renamed (matched by the same namespace and destinationPath).',
  why:
    'Barman Cloud reads the ObjectStore named by `barmanObjectName` for every WAL it archives or restores ' +
    '(plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive); without it archiving fails and the WAL piles up on the instance volume, ' +
    'and recovery from its backups has no credentials or destination.',
  fix: "Pin the old name: `metadata: { name: '<old name>' }` on the ObjectStore, or point every Cluster at the new one and take a new base backup.",
  kinds: ['ObjectStore', 'Cluster'],
};

/** @internal */
export const PVC_REMOVED: PlanRule = {
  id: 'CNPGI203',
  name: 'pvc-removed',
  severities: { error: 'A PersistentVolumeClaim of the previous manifests is not in the next ones.' },
  what: 'A PersistentVolumeClaim written in the manifests disappears or is renamed.',
  why:
    'Pruning deletes the claim (Kubernetes garbage collection, nothing the operator can stop); with the usual `Delete` reclaim policy the volume and its data ' +
    'go with it. A claim that CloudNativePG expects for an instance is created again, empty (cloudnative-pg v1.30.0 pkg/reconciler/persistentvolumeclaim/create.go createIfNotExists).',
  fix: 'Keep the claim under its old name, or annotate it `argocd.argoproj.io/sync-options: Prune=false` / `kustomize.toolkit.fluxcd.io/prune: disabled` before removing it.',
  kinds: ['PersistentVolumeClaim'],
};

/** @internal */
export const DATA_LOSS_RULES: readonly PlanRule[] = [CLUSTER_REMOVED, OBJECT_STORE_REMOVED, PVC_REMOVED];

/** Groups the objects of `next` that `previous` lacks by namespace, for rename matching. */
function addedByNamespace(ctx: PlanContext, kind: string, group: string): Map<string, PlanObject[]> {
  const out = new Map<string, PlanObject[]>();
  for (const o of ctx.next.ofKind(kind, group)) {
    if (ctx.previous.get(o)) continue;
    const ns = o.namespace ?? '';
    const list = out.get(ns);
    if (list) list.push(o);
    else out.set(ns, [o]);
  }
  return out;
}

function takeMatch(candidates: PlanObject[] | undefined, matches: (c: PlanObject) => boolean): PlanObject | undefined {
  if (!candidates) return undefined;
  const i = candidates.findIndex(matches);
  return i < 0 ? undefined : candidates.splice(i, 1)[0];
}

/** @internal */
export function checkDataLoss(ctx: PlanContext): void {
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
    ctx.emit({
      ruleId: CLUSTER_REMOVED.id,
      severity: 'error',
      object: old.ref,
      path: 'metadata.name',
      before: old.name,
      after: renamed?.name ?? null,
      message: renamed
        ? `is renamed to '${renamed.name}' (same namespace and ${canonical(renamed.body.spec) === spec ? 'the same spec' : 'the same WAL archive'}): ` +
          'with pruning the Cluster is deleted with its PVCs, and an empty Cluster is created, with new Services and a new backup server name'
        : 'disappears: with pruning the Cluster is deleted, and its PVCs with it',
      fix: renamed
        ? `pin \`metadata.name: ${old.name}\` on the Cluster now named '${renamed.name}'`
        : `keep the Cluster, or pin \`metadata.name: ${old.name}\` where it moved; delete a database deliberately, outside GitOps pruning`,
    });
  }

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
    ctx.emit({
      ruleId: OBJECT_STORE_REMOVED.id,
      severity: inUse ? 'error' : 'warning',
      object: old.ref,
      path: 'metadata.name',
      before: old.name,
      after: renamed?.name ?? null,
      message:
        (renamed ? `is renamed to '${renamed.name}' (same destinationPath)` : 'disappears') +
        (inUse
          ? ': Clusters that archive into or recover from it lose their WAL archive and their backups'
          : ': the backups it describes are no longer reachable from these manifests'),
      fix: `pin \`metadata.name: ${old.name}\` on the ObjectStore${renamed ? ` now named '${renamed.name}'` : ''}`,
    });
  }

  for (const old of ctx.previous.ofKind('PersistentVolumeClaim', '')) {
    if (ctx.next.get(old)) continue;
    ctx.emit({
      ruleId: PVC_REMOVED.id,
      severity: 'error',
      object: old.ref,
      path: 'metadata.name',
      before: old.name,
      after: null,
      message: 'disappears: with pruning the claim is deleted, and with a Delete reclaim policy its volume and data',
      fix: `keep the claim as \`metadata.name: ${old.name}\`, or stop pruning it before removing it from the manifests`,
    });
  }
}
