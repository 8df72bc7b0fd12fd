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
 * agree: the Cluster webhook's cross-references, and Barman Cloud's ObjectStore namespace and
 * recovery destination. What the doctor only warns about is not refused: a Barman Cloud
 * parameter other than barmanObjectName and serverName is ignored by the plugin and the Cluster
 * works (the doctor's CNPGI106 warning, also at synth with `Doctor.addValidation`).
 * `cluster` is the rendered `postgresql.cnpg.io/v1` Cluster JSON; `scope` the construct whose
 * app holds the ObjectStores.
 * @internal
 */
export function clusterMistake(scope: Construct, cluster: Json): Problem | undefined {
  const issues: CheckIssue[] = [...checkClusterReferences(cluster)];
  if (referencedObjectStores(cluster).length > 0 || JSON.stringify(cluster.spec ?? {}).includes(`"${BARMAN_CLOUD_PLUGIN_NAME}"`)) {
    const stores = referencedObjectStores(cluster).flatMap((name) =>
      claimedNamespaces(scope, 'ObjectStore', name).map((namespace) => ({ metadata: { name, namespace } })),
    );
    // An ObjectStore missing from the app may live elsewhere (a warning); only one in the wrong namespace is certain.
    issues.push(...checkBarmanCloudCluster(cluster, stores, { requireObjectName: false }).filter((i) => i.severity === 'error'));
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
