import { validatePluginName } from '../common/validate';

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
