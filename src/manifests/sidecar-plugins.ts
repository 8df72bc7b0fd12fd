/*
 * The one fact of a cdk8s app that its manifests do not carry: which plugin a sidecar container
 * of the operator serves (the socket's name is chosen at run time). `SidecarPlugin` records it
 * here, and the doctor's run over an app (`Doctor.analyze`) reads it as if it were the
 * `sidecarPlugins` option, without knowing the construct's class. In the ground layer so that
 * both can reach it.
 */
import type { IConstruct } from 'constructs';

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
