import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { validatePluginName } from '../common/validate';

/**
 * A Cluster of this program as a plugin sees it when the Cluster enables it: what
 * {@link IPlugin.bindToCluster} may write on (annotations of `apiObject`, objects beside it).
 * `PostgresCluster` is one.
 */
export interface IPluginCluster extends IConstruct {
  /** The Cluster's `metadata.name`. */
  readonly name: string;
  /** The Cluster's namespace; undefined when its chart sets none. */
  readonly namespace?: string;
  /** The Cluster object. */
  readonly apiObject: ApiObject;
}

/**
 * The `spec.plugins[]` entry a Cluster is about to write for a plugin, as given to
 * {@link IPlugin.bindToCluster} (a copy: changing it changes nothing).
 */
export interface PluginClusterEntry {
  /** Whether the operator uses the plugin for this Cluster. */
  readonly enabled: boolean;
  /** Whether the plugin archives the WAL of this Cluster. */
  readonly isWalArchiver: boolean;
  /**
   * The plugin's parameters, an object store's included.
   * @default - none
   */
  readonly parameters?: Record<string, string>;
}

/**
 * A CNPG-I plugin that Clusters, Backups and recoveries can name.
 *
 * The name must be the same in four places: the `cnpg.io/pluginName` label of the plugin's
 * Service (or its socket file name, for a sidecar), the name the plugin reports over gRPC,
 * `Cluster.spec.plugins[].name` and the Backup / external cluster `plugin.name`. Everything that
 * takes an `IPlugin` reads the name from here, so it cannot drift.
 */
export interface IPlugin {
  /** The plugin's name, e.g. `barman-cloud.cloudnative-pg.io`. */
  readonly pluginName: string;

  /**
   * Writes what else enabling this plugin on a Cluster takes, beside its `spec.plugins[]` entry:
   * the Cluster annotations the plugin reads, RBAC for its sidecar, synth-time checks of the
   * entry. `PostgresCluster.addPlugin` calls it once the entry is checked and before the entry
   * is written; throwing (with the call to use instead) refuses the entry.
   *
   * Optional: a plugin without it needs only the entry. The Scale-to-Zero preset writes its
   * annotations and Role here, so `cluster.addPlugin(scaleToZero)` and `scaleToZero.enable(cluster)`
   * give the same output.
   */
  bindToCluster?(cluster: IPluginCluster, entry: PluginClusterEntry): void;
}

/**
 * References plugins that this program does not deploy.
 */
export class Plugin {
  /**
   * A plugin installed some other way (a Helm chart, another repository), by its name.
   * The name is checked like a `StandalonePlugin`'s.
   */
  public static fromPluginName(pluginName: string): IPlugin {
    validatePluginName('Plugin.fromPluginName', 'pluginName', pluginName);
    return { pluginName };
  }

  private constructor() {}
}
