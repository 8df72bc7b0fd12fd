import { knownPluginImage } from '../manifests/known-plugins';
import { CheckIssue } from './issue';

/**
 * The name an image's plugin reports about itself, when the image is known
 * ({@link knownPluginImage}: plugin-barman-cloud v0.14.0 internal/cnpgi/metadata/constants.go
 * PluginName; cnpg-i-hello-world a6f35d3 pkg/metadata/doc.go PluginName).
 * @internal
 */
export function reportedPluginName(image: string): string | undefined {
  return knownPluginImage(image)?.pluginName;
}

/**
 * Class 5: the operator looks plugins up by the reported name (cloudnative-pg v1.30.0
 * internal/cnpi/plugin/client/client.go getPlugin; connection.go newPluginDataFromConnection),
 * so a Service label that differs from it leaves Clusters without the plugin's work.
 * @internal
 */
export function checkPluginIdentity(label: string, images: readonly string[]): CheckIssue[] {
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
