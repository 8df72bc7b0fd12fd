import { Construct } from 'constructs';
import { checkBarmanCloudCluster, referencedObjectStores } from '../checks/barman-cloud';
import { checkClusterReferences } from '../checks/cluster-references';
import { CheckIssue } from '../checks/issue';
import { claimedNamespaces } from '../common/stable-names';
import { Problem } from '../manifests/errors';
import { Json } from '../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../manifests/known-plugins';

/**
 * The first of what the doctor reports as an error for a Cluster, found with the same checks
 * (`src/checks/`), so that the constructs (which refuse it at synth) and the doctor
 * agree: the Cluster webhook's cross-references, and Barman Cloud's parameters, ObjectStore
 * namespace and recovery destination. `cluster` is the rendered `postgresql.cnpg.io/v1` Cluster
 * JSON; `scope` the construct whose app holds the ObjectStores.
 * @internal
 */
export function clusterMistake(scope: Construct, cluster: Json): Problem | undefined {
  const issues: CheckIssue[] = [...checkClusterReferences(cluster)];
  if (referencedObjectStores(cluster).length > 0 || JSON.stringify(cluster.spec ?? {}).includes(`"${BARMAN_CLOUD_PLUGIN_NAME}"`)) {
    const stores = referencedObjectStores(cluster).flatMap((name) =>
      claimedNamespaces(scope, 'ObjectStore', name).map((namespace) => ({ metadata: { name, namespace } })),
    );
    issues.push(
      ...checkBarmanCloudCluster(cluster, stores, { requireObjectName: false }).filter(
        (i) =>
          // An ObjectStore missing from the app may live elsewhere; only one in the wrong namespace is certain.
          i.severity === 'error' || /ignored$/.test(i.message),
      ),
    );
  }
  const first = issues[0];
  return first && { prop: first.path, value: valueAt(cluster, first.path), problem: first.message, fix: first.fix };
}

/** The value at a path such as `spec.plugins[0].parameters.serverName`, for the error message. */
function valueAt(root: Json, path: string): unknown {
  let v: unknown = root;
  for (const part of path.split('.').flatMap((p) => p.split(/\[(\d+)\]/).filter((x) => x !== ''))) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}
