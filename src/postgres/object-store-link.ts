import { Kind } from '../common/prop-kinds';
import { checkValue, refuseFirst } from '../common/props';
import { ErrorScope, describeValue, wrongType } from '../manifests/errors';

/**
 * An object store that a Cluster's plugin archives to, backs up into or recovers from.
 *
 * Linked with the `objectStore` option of `addPlugin`, `ExternalClusterSource.fromPlugin` and
 * `ClusterBootstrap.recoveryFromPlugin`: a Barman Cloud `ObjectStore` of this program, or one
 * managed elsewhere (`ObjectStore.fromObjectStoreName`). The store names the plugin parameters
 * that point its plugin at it; the Cluster adds them to the plugin's own.
 */
export interface IObjectStore {
  /** The store's `metadata.name`. */
  readonly name: string;
  /** The store's namespace; undefined when unknown (then nothing checks it). */
  readonly namespace?: string;
  /**
   * The plugin parameters that point a Cluster's plugin at this store.
   *
   * They are added to the parameters given beside the store (for a Barman Cloud `ObjectStore`,
   * the parameter that names it).
   */
  clusterParameters(): Record<string, string>;
  /**
   * The plugin parameters, beside `clusterParameters()`, that make a recovery or a replica read
   * the archive that a Cluster named `clusterName` writes into this store when its WAL archiver
   * has `archiverParameters` (what `ClusterBootstrap.recoveryFromCluster()` and
   * `replicaOfCluster()` derive). For a Barman Cloud `ObjectStore`, the `serverName` the Cluster
   * archives under.
   * @param clusterName the `metadata.name` of the archiving Cluster
   * @param archiverParameters the parameters of its WAL archiver plugin (those of the store included)
   */
  archiveParameters(clusterName: string, archiverParameters: Record<string, string>): Record<string, string>;
}

/**
 * The parameters of a plugin that a Cluster in `clusterNamespace` links to `store`: `parameters`
 * and those of the store. The plugin looks the store up in the Cluster's namespace, so a store
 * known to live in another one is refused, and so are parameters that already name a store.
 * @internal
 */
export function linkObjectStore(
  scope: ErrorScope,
  prop: string,
  parameters: Record<string, string> | undefined,
  store: IObjectStore | undefined,
  clusterNamespace: string | undefined,
): Record<string, string> | undefined {
  if (store === undefined) return parameters;
  const isStore = store !== null && typeof store === 'object' && typeof store.name === 'string' && typeof store.clusterParameters === 'function';
  const own = isStore ? store.clusterParameters() : {};
  if (isStore) checkValue(scope, `${prop}.clusterParameters()`, own, Kind.stringMap);
  const value = (store as { name?: unknown } | null)?.name ?? store;
  const given = Object.keys(own).find((k) => parameters?.[k] !== undefined);
  refuseFirst(scope, [
    [!isStore, prop, value, wrongType('an ObjectStore or ObjectStore.fromObjectStoreName(...)', store), 'pass the ObjectStore construct'],
    [
      isStore && store.namespace !== undefined && store.namespace !== clusterNamespace,
      prop,
      value,
      `is in namespace '${isStore ? store.namespace : ''}', but Barman Cloud looks for it in the Cluster's namespace ${describeValue(clusterNamespace)}`,
      "create the ObjectStore in the Cluster's chart or namespace",
    ],
    [given !== undefined, prop, value, `is given together with parameters.${given}`, 'give the ObjectStore only: its name is the parameter'],
  ]);
  return { ...parameters, ...own };
}
