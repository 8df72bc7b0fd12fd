import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { validateLabelKey, validateStringMap } from '../common/validate';
import { HELLO_WORLD_PLUGIN_NAME } from '../manifests/known-plugins';
import { RENAMED_PLUGIN_KEYS } from '../plugins/internal';
import { IPlugin, IPluginCluster, PluginClusterEntry } from '../plugins/plugin';
import {
  PLUGIN_DEPLOYMENT_SPEC,
  PluginDeploymentProps,
  SCALED_DEPLOYMENT_SPEC,
  StandalonePlugin,
  pluginNamespace,
  sharedProps,
} from '../plugins/standalone-plugin';
import { internalChild } from '../schema/guard';
import { PluginLogLevel } from './log-level';
import { HELLO_WORLD_PLUGIN_IMAGE, HELLO_WORLD_PLUGIN_VERSION } from './versions';

/**
 * Props of {@link HelloWorldPlugin}. The props shared with {@link StandalonePlugin} have the
 * same meaning and defaults there.
 */
export interface HelloWorldPluginProps extends PluginDeploymentProps {
  /**
   * Number of plugin pods, as for `StandalonePlugin`.
   * @default 1
   */
  readonly replicas?: number;
  /**
   * How pods are replaced on change, as for `StandalonePlugin`.
   * @default - RollingUpdate with maxSurge 25% and maxUnavailable 25%
   */
  readonly strategy?: kplus.DeploymentStrategy;
  /**
   * Mount a Kubernetes API token in the pods; the hello-world plugin does not call the API.
   * @default false
   */
  readonly automountServiceAccountToken?: boolean;
  /**
   * The plugin image (it runs the `plugin` subcommand), pinned to a tag or a digest.
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

const PARAMETERS_SPEC: PropSpec<HelloWorldParameters> = {
  labels: Kind.labels,
  annotations: (s, p, v) => void Object.keys(validateStringMap(s, p, v)).forEach((k) => validateLabelKey(s, p, k, 'annotation')),
};

const PROPS_SPEC: PropSpec<HelloWorldPluginProps> = {
  ...PLUGIN_DEPLOYMENT_SPEC,
  ...SCALED_DEPLOYMENT_SPEC,
  image: Kind.image(HELLO_WORLD_PLUGIN_IMAGE),
  logLevel: Kind.enumOf(PluginLogLevel, 'PluginLogLevel'),
};

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
  public static readonly PLUGIN_NAME = HELLO_WORLD_PLUGIN_NAME;
  /** The cnpg-i-hello-world release the defaults follow (`HELLO_WORLD_PLUGIN_VERSION`). */
  public static readonly PLUGIN_VERSION = HELLO_WORLD_PLUGIN_VERSION;
  /** The default plugin image (`HELLO_WORLD_PLUGIN_IMAGE`). */
  public static readonly PLUGIN_IMAGE = HELLO_WORLD_PLUGIN_IMAGE;

  /**
   * The `spec.plugins[].parameters` of a Cluster using the hello-world plugin. The plugin reads
   * `labels` and `annotations` as JSON objects encoded in strings; this writes them with sorted
   * keys (deterministic output) after checking that the keys and values are valid Kubernetes
   * labels and annotations, which the plugin would only find out when it patches the pods.
   */
  public static parameters(parameters: HelloWorldParameters): Record<string, string> {
    checkProps('HelloWorldPlugin.parameters', 'parameters', parameters, PARAMETERS_SPEC, { example: "{ labels: { team: 'db' } }" });
    const out: Record<string, string> = {};
    if (parameters.labels !== undefined) out.labels = sortedJson(parameters.labels);
    if (parameters.annotations !== undefined) out.annotations = sortedJson(parameters.annotations);
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
    checkProps(this, 'props', props, PROPS_SPEC, { example: '{} or nothing', renamed: RENAMED_PLUGIN_KEYS });
    pluginNamespace(this);
    this.image = props.image ?? HELLO_WORLD_PLUGIN_IMAGE;
    const logLevel = props.logLevel ?? PluginLogLevel.INFO;
    this.plugin = new StandalonePlugin(this, internalChild(this, 'Plugin'), {
      ...sharedProps(props),
      ...(props.replicas !== undefined ? { replicas: props.replicas } : {}),
      ...(props.strategy !== undefined ? { strategy: props.strategy } : {}),
      ...(props.automountServiceAccountToken !== undefined ? { automountServiceAccountToken: props.automountServiceAccountToken } : {}),
      pluginName: HelloWorldPlugin.PLUGIN_NAME,
      image: this.image,
      args: ['plugin', `--log-level=${logLevel}`],
    });
    this.pluginName = this.plugin.pluginName;
  }

  /**
   * Adds nothing beside the Cluster's `spec.plugins[]` entry: this plugin needs no Cluster
   * annotation, RBAC or synth-time check. Written out (rather than left out, as `IPlugin`
   * allows in TypeScript) because jsii has no optional methods: the Java binding's `IPlugin`
   * declares it, and a class without it would not compile there.
   */
  public bindToCluster(_cluster: IPluginCluster, _entry: PluginClusterEntry): void {}
}

function sortedJson(map: Record<string, string>): string {
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(map).sort()) sorted[k] = map[k];
  return JSON.stringify(sorted);
}
