/**
 * The upstream releases the presets install by default. Bump them here, and only here, when a
 * new release has been checked against the presets (RBAC rules, arguments, environment).
 */

/** The plugin-barman-cloud release the `BarmanCloudPlugin` defaults follow. */
export const BARMAN_CLOUD_PLUGIN_VERSION = 'v0.14.0';

/** The Barman Cloud plugin image (`operator` subcommand) of {@link BARMAN_CLOUD_PLUGIN_VERSION}. */
export const BARMAN_CLOUD_PLUGIN_IMAGE = `ghcr.io/cloudnative-pg/plugin-barman-cloud:${BARMAN_CLOUD_PLUGIN_VERSION}`;

/**
 * The Barman Cloud instance sidecar image of {@link BARMAN_CLOUD_PLUGIN_VERSION}: the plugin
 * injects it into every PostgreSQL instance pod of a Cluster that uses the plugin.
 */
export const BARMAN_CLOUD_SIDECAR_IMAGE = `ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:${BARMAN_CLOUD_PLUGIN_VERSION}`;

/** The cnpg-i-hello-world release the `HelloWorldPlugin` defaults follow (the first and, so far, only tag). */
export const HELLO_WORLD_PLUGIN_VERSION = 'v0.1.0';

/**
 * The hello-world plugin image of {@link HELLO_WORLD_PLUGIN_VERSION}. The release workflow
 * publishes `ghcr.io/<repository>:<tag>` for tags (untagged builds go to `...-testing`).
 */
export const HELLO_WORLD_PLUGIN_IMAGE = `ghcr.io/cloudnative-pg/cnpg-i-hello-world:${HELLO_WORLD_PLUGIN_VERSION}`;

/**
 * The ObjectStore CustomResourceDefinition of {@link BARMAN_CLOUD_PLUGIN_VERSION} in the
 * upstream repository, for `BarmanCloudPlugin`'s `objectStoreCrd` (fetched at synth time).
 */
export const BARMAN_CLOUD_OBJECT_STORE_CRD_URL = `https://raw.githubusercontent.com/cloudnative-pg/plugin-barman-cloud/${BARMAN_CLOUD_PLUGIN_VERSION}/config/crd/bases/barmancloud.cnpg.io_objectstores.yaml`;

/**
 * The cnpg-i-scale-to-zero release the `ScaleToZeroPlugin` defaults follow. Its CI publishes
 * both images under the release tag (.github/workflows/ci.yml `image_tag` on a release).
 */
export const SCALE_TO_ZERO_PLUGIN_VERSION = 'v0.1.9';

/** The Scale-to-Zero plugin image (`plugin` subcommand) of {@link SCALE_TO_ZERO_PLUGIN_VERSION}. */
export const SCALE_TO_ZERO_PLUGIN_IMAGE = `ghcr.io/xataio/cnpg-i-scale-to-zero:${SCALE_TO_ZERO_PLUGIN_VERSION}`;

/**
 * The Scale-to-Zero sidecar image of {@link SCALE_TO_ZERO_PLUGIN_VERSION}: the plugin injects it
 * into every PostgreSQL instance pod of a Cluster that uses the plugin.
 */
export const SCALE_TO_ZERO_SIDECAR_IMAGE = `ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:${SCALE_TO_ZERO_PLUGIN_VERSION}`;
