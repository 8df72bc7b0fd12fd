import { FidelityIssue } from './issue';

/**
 * The names plugins report in GetPluginMetadata, by image repository (the path after the
 * registry, without tag or digest): plugin-barman-cloud v0.14.0 internal/cnpgi/metadata/constants.go
 * PluginName; cnpg-i-hello-world a6f35d3 pkg/metadata/doc.go PluginName.
 * @internal
 */
const IDENTITIES: Record<string, string> = {
  'cloudnative-pg/plugin-barman-cloud': 'barman-cloud.cloudnative-pg.io',
  'cloudnative-pg/plugin-barman-cloud-testing': 'barman-cloud.cloudnative-pg.io',
  'cloudnative-pg/cnpg-i-hello-world': 'cnpg-i-hello-world.cloudnative-pg.io',
  'cloudnative-pg/cnpg-i-hello-world-testing': 'cnpg-i-hello-world.cloudnative-pg.io',
};

/** The name an image's plugin reports about itself, when the image is known. @internal */
export function reportedPluginName(image: string): string | undefined {
  const noDigest = image.split('@')[0];
  const lastSlash = noDigest.lastIndexOf('/');
  const colon = noDigest.indexOf(':', lastSlash + 1);
  const repo = colon >= 0 ? noDigest.slice(0, colon) : noDigest;
  const parts = repo.split('/');
  const path = parts.length > 1 && /[.:]|^localhost$/.test(parts[0]) ? parts.slice(1).join('/') : repo;
  return IDENTITIES[path];
}

/**
 * Class 5: the operator looks plugins up by the reported name (cloudnative-pg v1.30.0
 * internal/cnpi/plugin/client/client.go getPlugin; connection.go newPluginDataFromConnection),
 * so a Service label that differs from it leaves Clusters without the plugin's work.
 * @internal
 */
export function checkPluginIdentity(label: string, images: readonly string[]): FidelityIssue[] {
  for (const image of images) {
    const reported = reportedPluginName(image);
    if (reported !== undefined && reported !== label) {
      return [
        {
          severity: 'error',
          path: 'metadata.labels.cnpg.io/pluginName',
          message: `is '${label}' but the image ${image} reports itself as '${reported}'; the operator connects by the label and then looks the plugin up by the reported name, so Clusters naming '${label}' get no sidecar and no archiving`,
          fix: `label the Service cnpg.io/pluginName: ${reported} and name '${reported}' in the Clusters`,
        },
      ];
    }
  }
  return [];
}
