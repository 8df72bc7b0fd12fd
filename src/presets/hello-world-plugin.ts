import { Construct } from 'constructs';
import { invalid } from '../common/errors';
import { requireString, typeName, validateStringMap } from '../common/validate';
import { IPlugin } from '../plugins/plugin';
import { StandalonePlugin, StandalonePluginProps } from '../plugins/standalone-plugin';
import { PluginLogLevel } from './log-level';
import { HELLO_WORLD_PLUGIN_IMAGE } from './versions';

/**
 * Props of {@link HelloWorldPlugin}. The props shared with {@link StandalonePlugin} have the
 * same meaning and defaults there.
 */
export interface HelloWorldPluginProps extends Pick<StandalonePluginProps,
'tls' | 'serverName' | 'serviceName' | 'port' | 'replicas' | 'strategy' | 'resources' | 'imagePullPolicy' | 'imagePullSecrets'
| 'nodeSelector' | 'tolerations' | 'priorityClassName' | 'user' | 'group' | 'serviceAccountToken' | 'networkPolicy'
| 'operatorPodLabels' | 'labels' | 'env'> {
  /**
   * The plugin image (it runs the `plugin` subcommand).
   * @default 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0' (`HELLO_WORLD_PLUGIN_IMAGE`)
   */
  readonly image?: string;
  /**
   * The plugin's `--log-level`.
   * @default PluginLogLevel.INFO
   */
  readonly logLevel?: PluginLogLevel;
}

/** The Cluster-side parameters of the hello-world plugin, see {@link HelloWorldPlugin.parameters}. */
export interface HelloWorldParameters {
  /**
   * Labels the plugin adds to the Cluster's instance pods. The plugin refuses to change them
   * once the Cluster exists.
   * @default - not set: the plugin adds `plugin-metadata: default`
   */
  readonly labels?: Record<string, string>;
  /**
   * Annotations the plugin adds to the Cluster's instance pods.
   * @default - not set: the plugin adds `plugin-metadata: default`
   */
  readonly annotations?: Record<string, string>;
}

const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_PREFIX = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The CNPG-I hello-world example plugin (`cnpg-i-hello-world.cloudnative-pg.io`), deployed as a
 * {@link StandalonePlugin} running its `plugin` subcommand. It adds labels and annotations to
 * the instance pods of the Clusters that enable it; {@link HelloWorldPlugin.parameters} builds
 * those Cluster-side parameters.
 *
 * ```ts
 * const hello = new HelloWorldPlugin(system, 'hello');
 * cluster.addPlugin(hello, { parameters: HelloWorldPlugin.parameters({ labels: { team: 'db' } }) });
 * ```
 */
export class HelloWorldPlugin extends Construct implements IPlugin {
  /** The name the hello-world plugin reports, and that Clusters use. */
  public static readonly PLUGIN_NAME = 'cnpg-i-hello-world.cloudnative-pg.io';

  /**
   * The `spec.plugins[].parameters` of a Cluster using the hello-world plugin. The plugin reads
   * `labels` and `annotations` as JSON objects encoded in strings; this writes them with sorted
   * keys (deterministic output) after checking that the keys and values are valid Kubernetes
   * labels and annotations, which the plugin would only find out when it patches the pods.
   */
  public static parameters(parameters: HelloWorldParameters): Record<string, string> {
    const scope = 'HelloWorldPlugin.parameters';
    if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) {
      invalid(scope, 'parameters', parameters, `must be an object, not ${typeName(parameters)}`, "pass { labels: { team: 'db' } }");
    }
    const out: Record<string, string> = {};
    if (parameters.labels !== undefined) {
      const labels = validateStringMap(scope, 'labels', parameters.labels);
      for (const [k, v] of Object.entries(labels)) {
        checkMetadataKey(scope, 'labels', k);
        if (v.length > 63 || (v !== '' && !QUALIFIED_NAME.test(v))) {
          invalid(scope, `labels.${k}`, v, 'is not a valid label value',
            'use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit');
        }
      }
      out.labels = sortedJson(labels);
    }
    if (parameters.annotations !== undefined) {
      const annotations = validateStringMap(scope, 'annotations', parameters.annotations);
      for (const k of Object.keys(annotations)) checkMetadataKey(scope, 'annotations', k);
      out.annotations = sortedJson(annotations);
    }
    return out;
  }

  /** `cnpg-i-hello-world.cloudnative-pg.io`. */
  public readonly pluginName: string;
  /** The plugin Deployment, Service, TLS objects and ServiceAccount. */
  public readonly plugin: StandalonePlugin;
  /** The plugin image in use. */
  public readonly image: string;

  constructor(scope: Construct, id: string, props: HelloWorldPluginProps = {}) {
    super(scope, id);
    if (props === null || typeof props !== 'object') {
      invalid(this, 'props', props, `must be an object, not ${typeName(props)}`, 'pass {} or leave it out');
    }
    const fix = 'use an image reference such as ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0';
    this.image = requireString(this, 'image', props.image ?? HELLO_WORLD_PLUGIN_IMAGE, fix);
    if (/\s/.test(this.image)) {
      invalid(this, 'image', this.image, 'contains white space', fix);
    }
    const logLevel = props.logLevel ?? PluginLogLevel.INFO;
    if (!(Object.values(PluginLogLevel) as string[]).includes(logLevel)) {
      invalid(this, 'logLevel', logLevel, `is not one of ${Object.values(PluginLogLevel).join(', ')}`, 'use PluginLogLevel');
    }
    this.plugin = new StandalonePlugin(this, 'Plugin', {
      ...pickDefined(props),
      pluginName: HelloWorldPlugin.PLUGIN_NAME,
      image: this.image,
      args: ['plugin', `--log-level=${logLevel}`],
    });
    this.pluginName = this.plugin.pluginName;
  }
}

/** Only the StandalonePlugin props the user set (JavaScript callers cannot slip in `args` or `pluginName`). */
function pickDefined(props: HelloWorldPluginProps): Partial<StandalonePluginProps> {
  const keys = ['tls', 'serverName', 'serviceName', 'port', 'replicas', 'strategy', 'resources', 'imagePullPolicy', 'imagePullSecrets',
    'nodeSelector', 'tolerations', 'priorityClassName', 'user', 'group', 'serviceAccountToken', 'networkPolicy', 'operatorPodLabels',
    'labels', 'env'] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (props[k] !== undefined) out[k] = props[k];
  }
  return out as Partial<StandalonePluginProps>;
}

/** Label and annotation keys: an optional DNS subdomain prefix and `/`, then a name of at most 63 characters. */
function checkMetadataKey(scope: string, prop: string, key: string): void {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  const prefixOk = prefix === undefined || (prefix.length <= 253 && LABEL_PREFIX.test(prefix));
  if (!prefixOk || name.length > 63 || !QUALIFIED_NAME.test(name)) {
    invalid(scope, prop, key, 'is not a valid Kubernetes key',
      "use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/team'");
  }
}

function sortedJson(map: Record<string, string>): string {
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(map).sort()) sorted[k] = map[k];
  return JSON.stringify(sorted);
}
