/**
 * The plugin images this library knows, with the name each reports about itself in
 * GetPluginMetadata and the subcommand its entrypoint needs:
 * - plugin-barman-cloud v0.14.0: internal/cnpgi/metadata/constants.go PluginName
 *   (`barman-cloud.cloudnative-pg.io`); cmd/manager/main.go main, a cobra root command without a
 *   `Run`, so the plugin Deployment must name `operator`;
 * - cnpg-i-scale-to-zero v0.1.9: pkg/metadata/doc.go PluginName (`cnpg-i-scale-to-zero.xata.io`);
 *   cmd/plugin/plugin.go main, a cobra root command whose subcommand `plugin` serves it;
 * - cnpg-i-hello-world a6f35d3 (the repository has no v0.1.0 tag): pkg/metadata/doc.go
 *   PluginName (`cnpg-i-hello-world.cloudnative-pg.io`); main.go main, subcommand `plugin`.
 * An image is known by the last component of its repository, with or without `-testing`, so
 * mirrors and the testing builds are known too; the sidecar images (`-sidecar`) are not plugins.
 * @internal
 */
export interface KnownPluginImage {
  /** The last component of the image repository. */
  readonly repository: string;
  /** The name the plugin reports, which the operator looks it up by. */
  readonly pluginName: string;
  /** The subcommand the entrypoint must be given to serve the plugin. */
  readonly subcommand: string;
}

/**
 * The name plugin-barman-cloud v0.14.0 reports about itself (internal/cnpgi/metadata/constants.go
 * PluginName): what Clusters, Backups and recoveries name it by.
 * @internal
 */
export const BARMAN_CLOUD_PLUGIN_NAME = 'barman-cloud.cloudnative-pg.io';

/**
 * The name cnpg-i-hello-world reports about itself (a6f35d3 pkg/metadata/doc.go PluginName).
 * @internal
 */
export const HELLO_WORLD_PLUGIN_NAME = 'cnpg-i-hello-world.cloudnative-pg.io';

/**
 * The name cnpg-i-scale-to-zero v0.1.9 reports about itself (pkg/metadata/doc.go PluginName).
 * @internal
 */
export const SCALE_TO_ZERO_PLUGIN_NAME = 'cnpg-i-scale-to-zero.xata.io';

const KNOWN: readonly KnownPluginImage[] = [
  { repository: 'plugin-barman-cloud', pluginName: BARMAN_CLOUD_PLUGIN_NAME, subcommand: 'operator' },
  { repository: 'cnpg-i-hello-world', pluginName: HELLO_WORLD_PLUGIN_NAME, subcommand: 'plugin' },
  { repository: 'cnpg-i-scale-to-zero', pluginName: SCALE_TO_ZERO_PLUGIN_NAME, subcommand: 'plugin' },
];

/** The parts of an image reference: `repository[:tag][@digest]`. @internal */
export function imageParts(image: string): { repository: string; tag?: string; digest?: string } {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const digest = at >= 0 ? image.slice(at + 1) : undefined;
  const colon = name.lastIndexOf(':');
  const tagged = colon > name.lastIndexOf('/');
  return { repository: tagged ? name.slice(0, colon) : name, tag: tagged ? name.slice(colon + 1) : undefined, digest };
}

/** The known plugin `image` is a build of, if any. @internal */
export function knownPluginImage(image: string): KnownPluginImage | undefined {
  const last = (imageParts(image).repository.split('/').pop() ?? '').replace(/-testing$/, '');
  return KNOWN.find((k) => k.repository === last);
}

/**
 * A sidecar a known plugin injects into a Cluster's instance pods through its lifecycle hook.
 * plugin-barman-cloud v0.14.0 internal/cnpgi/operator/lifecycle.go reconcileInstancePod injects
 * it only when the Cluster's enabled plugin entry has a `barmanObjectName` parameter (or a
 * replica source names an ObjectStore), and reconcilePodSpec names it `plugin-barman-cloud`,
 * gives it the image of the plugin's `SIDECAR_IMAGE` variable (internal/cmd/operator/main.go
 * binds `sidecar-image` to it) and makes it a native sidecar (an init container with
 * `restartPolicy: Always`, injectPluginSidecarPodSpec). cnpg-i-scale-to-zero v0.1.9
 * internal/plugin/lifecycle/lifecycle.go reconcileMetadata injects a container `scale-to-zero`
 * into every instance pod of a Cluster that enables it, whatever its parameters, with the image
 * of its `SIDECAR_IMAGE` variable (cmd/plugin/plugin.go binds `sidecar-image` to it).
 * @internal
 */
export interface KnownInstanceSidecar {
  /** The plugin name. */
  readonly pluginName: string;
  /** The container name in the instance pod. */
  readonly container: string;
  /** The plugin parameter whose non-empty value makes the plugin inject the sidecar; undefined when it always does. */
  readonly parameter?: string;
  /** The environment variable of the plugin's own container that holds the sidecar image. */
  readonly imageVariable: string;
}

/** The instance sidecars this library knows. @internal */
export const KNOWN_INSTANCE_SIDECARS: readonly KnownInstanceSidecar[] = [
  { pluginName: BARMAN_CLOUD_PLUGIN_NAME, container: 'plugin-barman-cloud', parameter: 'barmanObjectName', imageVariable: 'SIDECAR_IMAGE' },
  { pluginName: SCALE_TO_ZERO_PLUGIN_NAME, container: 'scale-to-zero', imageVariable: 'SIDECAR_IMAGE' },
];
