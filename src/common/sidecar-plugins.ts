import { IConstruct } from 'constructs';

/*
 * The plugins that constructs run as sidecars of the operator: their socket name (the container
 * name) appears nowhere in the YAML, so whoever reads the construct tree (the doctor's
 * `Doctor.analyze`) learns each container's plugin name here, from the construct that added it,
 * without knowing the construct's class.
 */

/**
 * A plugin running as a sidecar container of the operator.
 * @internal
 */
export interface SidecarPluginRecord {
  /** The sidecar container's name, which is the socket's name. */
  readonly containerName: string;
  /** The plugin's name. */
  readonly pluginName: string;
}

const SIDECARS = new WeakMap<IConstruct, SidecarPluginRecord>();

/**
 * Records that `construct` runs the plugin `pluginName` in the operator's container
 * `containerName`.
 * @internal
 */
export function recordSidecarPlugin(construct: IConstruct, record: SidecarPluginRecord): void {
  SIDECARS.set(construct, { containerName: record.containerName, pluginName: record.pluginName });
}

/**
 * The sidecar plugin `construct` runs, when it recorded one.
 * @internal
 */
export function sidecarPluginOf(construct: IConstruct): SidecarPluginRecord | undefined {
  return SIDECARS.get(construct);
}
