import { ApiObject, Duration, Lazy } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct, IConstruct } from 'constructs';
import {
  SCALE_TO_ZERO_CHECK_INTERVAL_MINUTES,
  SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES,
  SCALE_TO_ZERO_ENABLED_ANNOTATION,
  SCALE_TO_ZERO_INACTIVITY_ANNOTATION,
  checkScaleToZeroSchedule,
} from '../checks/scale-to-zero';
import { childObjectName } from '../common/names';
import { Kind } from '../common/prop-kinds';
import { PropKind, PropSpec, checkProps, checkValue, refuseFirst } from '../common/props';
import { requireDuration } from '../common/render';
import { resourcesOf } from '../common/resources';
import { invalid } from '../manifests/errors';
import { Json, asObject, asString, dig } from '../manifests/json';
import { SCALE_TO_ZERO_PLUGIN_NAME } from '../manifests/known-plugins';
import { compareQuantities, parseQuantity } from '../manifests/quantity';
import { RENAMED_PLUGIN_KEYS } from '../plugins/internal';
import { IPlugin, IPluginCluster, PluginClusterEntry } from '../plugins/plugin';
import { PLUGIN_DEPLOYMENT_SPEC, PluginDeploymentProps, StandalonePlugin, pluginNamespace, sharedProps } from '../plugins/standalone-plugin';
import { PostgresCluster } from '../postgres/postgres-cluster';
import { addChecks, addSchemaGuard, internalChild, synthJson } from '../schema/guard';
import { PluginLogLevel } from './log-level';
import { SCALE_TO_ZERO_PLUGIN_IMAGE, SCALE_TO_ZERO_PLUGIN_VERSION, SCALE_TO_ZERO_SIDECAR_IMAGE } from './versions';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const CNPG_GROUP = 'postgresql.cnpg.io';

/**
 * The environment variables the plugin reads its settings from (cnpg-i-scale-to-zero v0.1.9
 * cmd/plugin/plugin.go main, viper.BindEnv): the sidecar image, the log level it passes to the
 * sidecar, and the sidecar's resources.
 */
const ENV = {
  sidecarImage: 'SIDECAR_IMAGE',
  logLevel: 'LOG_LEVEL',
  cpuRequest: 'SIDECAR_CPU_REQUEST',
  cpuLimit: 'SIDECAR_CPU_LIMIT',
  memoryRequest: 'SIDECAR_MEMORY_REQUEST',
  memoryLimit: 'SIDECAR_MEMORY_LIMIT',
} as const;

/**
 * The sidecar's resources when the plugin is given none (internal/config/config.go
 * ToResourceRequirements: `defaultCPURequest` and the others). The plugin also falls back to
 * these, silently, for a value that is not a quantity.
 */
const SIDECAR_DEFAULTS = { cpuRequest: '50m', cpuLimit: '200m', memoryRequest: '64Mi', memoryLimit: '64Mi' } as const;

/**
 * Props of {@link ScaleToZeroPlugin}. The props shared with {@link StandalonePlugin} have the
 * same meaning and defaults there.
 */
export interface ScaleToZeroPluginProps extends PluginDeploymentProps {
  /**
   * The plugin image (it runs the `plugin` subcommand), pinned to a tag or a digest.
   * @default 'ghcr.io/xataio/cnpg-i-scale-to-zero:v0.1.9' (`SCALE_TO_ZERO_PLUGIN_IMAGE`)
   */
  readonly image?: string;
  /**
   * The image of the sidecar the plugin injects into every instance pod of the Clusters that
   * enable it (`SIDECAR_IMAGE`). Keep it at the same release as `image`; the plugin's own
   * default is the moving `:main` tag.
   * @default 'ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:v0.1.9' (`SCALE_TO_ZERO_SIDECAR_IMAGE`)
   */
  readonly sidecarImage?: string;
  /**
   * The log level of the plugin and of the sidecars it injects (`LOG_LEVEL`).
   * @default PluginLogLevel.INFO
   */
  readonly logLevel?: PluginLogLevel;
  /**
   * CPU and memory requests and limits of each injected sidecar container (`SIDECAR_CPU_REQUEST`,
   * `SIDECAR_CPU_LIMIT`, `SIDECAR_MEMORY_REQUEST`, `SIDECAR_MEMORY_LIMIT`), e.g.
   * `{ memory: { request: Size.mebibytes(128), limit: Size.mebibytes(128) } }`. A value left out
   * keeps the plugin's default; all four are written.
   * @default - the plugin's: CPU 50m request and 200m limit, memory 64Mi request and limit
   */
  readonly sidecarResources?: kplus.ContainerResources;
}

/** Options of {@link ScaleToZeroPlugin.enable}. */
export interface ScaleToZeroClusterOptions {
  /**
   * How long the Cluster's primary must have no client connection before the sidecar hibernates
   * the Cluster (`xata.io/scale-to-zero-inactivity-minutes`), in whole minutes, at least one
   * (the sidecar counts connections once a minute). Always written.
   * @default Duration.minutes(30), the plugin's default
   */
  readonly inactivity?: Duration;
}

/**
 * Xata's Scale-to-Zero CNPG-I plugin (`cnpg-i-scale-to-zero.xata.io`), installed the way its
 * v0.1.9 release manifest installs it, in the chart's namespace instead of `cnpg-system`.
 *
 * The plugin injects a sidecar into the instance pods of the Clusters that enable it; the
 * sidecar of the primary counts client connections once a minute and, after the Cluster's
 * inactivity threshold, hibernates it (`cnpg.io/hibernation: on`) and suspends the
 * ScheduledBackup named like the Cluster. Nothing in the plugin wakes the Cluster up or resumes
 * that ScheduledBackup: that is the user's (or the platform's) to do.
 *
 * Creates a {@link StandalonePlugin} (Deployment, the discoverable Service, mutual TLS,
 * NetworkPolicy) running `plugin`, with its settings in the environment. The plugin itself calls
 * no Kubernetes API (cmd/plugin/plugin.go registers the identity and lifecycle services only,
 * and the lifecycle hook works on the objects the operator sends), so its pods get no API token
 * and no RBAC; the upstream manifest binds its sidecar ClusterRole to the plugin's
 * ServiceAccount, which does not use it. The sidecar runs under each Cluster's ServiceAccount:
 * {@link ScaleToZeroPlugin.enable} gives it what it calls, on its own Cluster only.
 *
 * ```ts
 * const scaleToZero = new ScaleToZeroPlugin(system, 'scale-to-zero');
 * scaleToZero.enable(cluster, { inactivity: Duration.minutes(10) });
 * ```
 */
export class ScaleToZeroPlugin extends Construct implements IPlugin {
  /** The name the Scale-to-Zero plugin reports, and that Clusters use. */
  public static readonly PLUGIN_NAME = SCALE_TO_ZERO_PLUGIN_NAME;
  /** The cnpg-i-scale-to-zero release the defaults follow (`SCALE_TO_ZERO_PLUGIN_VERSION`). */
  public static readonly PLUGIN_VERSION = SCALE_TO_ZERO_PLUGIN_VERSION;
  /** The default plugin image (`SCALE_TO_ZERO_PLUGIN_IMAGE`). */
  public static readonly PLUGIN_IMAGE = SCALE_TO_ZERO_PLUGIN_IMAGE;
  /** The default sidecar image (`SCALE_TO_ZERO_SIDECAR_IMAGE`). */
  public static readonly SIDECAR_IMAGE = SCALE_TO_ZERO_SIDECAR_IMAGE;
  /** The inactivity threshold the plugin uses when a Cluster does not set one: 30 minutes. */
  public static readonly DEFAULT_INACTIVITY = Duration.minutes(SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES);

  /** `cnpg-i-scale-to-zero.xata.io`. */
  public readonly pluginName: string;
  /** The plugin Deployment, Service, TLS objects and ServiceAccount. */
  public readonly plugin: StandalonePlugin;
  /** The plugin image in use. */
  public readonly image: string;
  /** The sidecar image in use (`SIDECAR_IMAGE`). */
  public readonly sidecarImage: string;

  constructor(scope: Construct, id: string, props: ScaleToZeroPluginProps = {}) {
    super(scope, id);
    checkProps(this, 'props', props, PROPS_SPEC, { example: '{} or nothing', renamed: RENAMED_PLUGIN_KEYS });
    pluginNamespace(this);
    this.image = props.image ?? SCALE_TO_ZERO_PLUGIN_IMAGE;
    this.sidecarImage = props.sidecarImage ?? SCALE_TO_ZERO_SIDECAR_IMAGE;
    const logLevel = props.logLevel ?? PluginLogLevel.INFO;
    const given = resourcesOf(this, 'sidecarResources', props.sidecarResources, ['cpu', 'memory']);
    const sidecar = {
      cpuRequest: given?.requests?.cpu ?? SIDECAR_DEFAULTS.cpuRequest,
      cpuLimit: given?.limits?.cpu ?? SIDECAR_DEFAULTS.cpuLimit,
      memoryRequest: given?.requests?.memory ?? SIDECAR_DEFAULTS.memoryRequest,
      memoryLimit: given?.limits?.memory ?? SIDECAR_DEFAULTS.memoryLimit,
    };
    const owned = Object.values(ENV).find((k) => props.envVariables !== undefined && k in props.envVariables);
    refuseFirst(this, [
      [
        owned !== undefined,
        `envVariables.${owned}`,
        props.envVariables?.[owned ?? ''],
        'is set by the construct from its typed props',
        'set sidecarImage, logLevel or sidecarResources instead',
      ],
      // The plugin applies each default on its own; a request above the limit it then writes
      // makes the API server refuse every instance pod of the Clusters that enable it.
      ...(['cpu', 'memory'] as const).map((r): [boolean, string, unknown, string, string] => {
        const request = sidecar[`${r}Request`];
        const limit = sidecar[`${r}Limit`];
        return [
          exceeds(request, limit),
          `sidecarResources.${r}.request`,
          request,
          `is above the sidecar's ${r} limit ${limit}${given?.limits?.[r] === undefined ? ' (the plugin default)' : ''}: the API server would refuse every instance pod the sidecar is injected into`,
          `set sidecarResources.${r}.limit too, at least ${request}`,
        ];
      }),
    ]);

    this.plugin = new StandalonePlugin(this, internalChild(this, 'Plugin'), {
      ...sharedProps(props),
      pluginName: ScaleToZeroPlugin.PLUGIN_NAME,
      image: this.image,
      args: ['plugin'],
      envVariables: {
        ...props.envVariables,
        [ENV.logLevel]: kplus.EnvValue.fromValue(logLevel),
        [ENV.sidecarImage]: kplus.EnvValue.fromValue(this.sidecarImage),
        [ENV.cpuRequest]: kplus.EnvValue.fromValue(sidecar.cpuRequest),
        [ENV.cpuLimit]: kplus.EnvValue.fromValue(sidecar.cpuLimit),
        [ENV.memoryRequest]: kplus.EnvValue.fromValue(sidecar.memoryRequest),
        [ENV.memoryLimit]: kplus.EnvValue.fromValue(sidecar.memoryLimit),
      },
    });
    this.pluginName = this.plugin.pluginName;
  }

  /** The inactivity of each Cluster being enabled through {@link enable}, read by {@link bindToCluster}. */
  private readonly pendingInactivity = new WeakMap<IPluginCluster, number>();

  /**
   * Enables scale-to-zero on a Cluster: adds the plugin to `spec.plugins`, writes the
   * `xata.io/scale-to-zero-enabled: "true"` and `xata.io/scale-to-zero-inactivity-minutes`
   * annotations, and a Role and RoleBinding in the Cluster's namespace that let the sidecar,
   * which runs under the Cluster's ServiceAccount, get and update this Cluster (to hibernate it)
   * and the ScheduledBackup of the same name (to suspend it): the calls of
   * internal/sidecar/cluster_client.go, on those two objects only. `cluster.addPlugin(scaleToZero)`
   * does the same with the default inactivity.
   *
   * At synth, a ScheduledBackup of this Cluster named otherwise (and not suspended) is refused:
   * the sidecar never suspends it, and each Backup it starts while the Cluster sleeps fails
   * (the doctor's CNPGI141). Name the schedule like the Cluster: `cluster.addScheduledBackup(id,
   * { metadata: { name: cluster.name }, ... })`.
   */
  public enable(cluster: PostgresCluster, options: ScaleToZeroClusterOptions = {}): void {
    checkValue(this, 'cluster', cluster, CLUSTER_KIND);
    const o = checkProps(this, `enable(${cluster.name})`, options, ENABLE_SPEC, { optional: true }) ?? {};
    const minutes =
      o.inactivity === undefined ? SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES : Math.round(o.inactivity.toMilliseconds({ integral: false }) / 60_000);
    this.pendingInactivity.set(cluster, minutes);
    try {
      cluster.addPlugin(this);
    } finally {
      this.pendingInactivity.delete(cluster);
    }
  }

  /**
   * What `cluster.addPlugin(scaleToZero)` writes beside the plugin entry (see {@link enable}):
   * the two annotations the sidecar reads (cnpg-i-scale-to-zero v0.1.9
   * internal/sidecar/scale_to_zero.go getClusterScaleToZeroConfig) and the sidecar's Role and
   * RoleBinding. A disabled entry (`enabled: false`) gets none: no sidecar is injected to read
   * them. Called by `PostgresCluster.addPlugin`; a Cluster that is not a `PostgresCluster` is
   * refused.
   */
  public bindToCluster(target: IPluginCluster, entry: PluginClusterEntry): void {
    checkValue(this, 'cluster', target, CLUSTER_KIND);
    const cluster = target as PostgresCluster;
    if (!entry.enabled) return;
    const minutes = this.pendingInactivity.get(cluster) ?? SCALE_TO_ZERO_DEFAULT_INACTIVITY_MINUTES;
    cluster.apiObject.metadata.addAnnotation(SCALE_TO_ZERO_ENABLED_ANNOTATION, 'true');
    cluster.apiObject.metadata.addAnnotation(SCALE_TO_ZERO_INACTIVITY_ANNOTATION, String(minutes));

    const scope = new Construct(cluster, 'ScaleToZero');
    const namespace = cluster.namespace === undefined ? {} : { namespace: cluster.namespace };
    const resourceNames = [cluster.name];
    const role = new kplus.k8s.KubeRole(scope, 'Role', {
      metadata: { name: childObjectName(scope, 'Role', 'subdomain'), ...namespace },
      rules: [
        // hibernate: a fresh get of the Cluster (its client caches nothing for Clusters), then an
        // update adding cnpg.io/hibernation; the periodic reads are gets as well.
        { apiGroups: [CNPG_GROUP], resources: ['clusters'], resourceNames, verbs: ['get', 'update'] },
        // pauseScheduledBackup: a get of the ScheduledBackup named like the Cluster, then an
        // update setting spec.suspend.
        { apiGroups: [CNPG_GROUP], resources: ['scheduledbackups'], resourceNames, verbs: ['get', 'update'] },
      ],
    });
    addSchemaGuard(this, role);
    const binding = new kplus.k8s.KubeRoleBinding(scope, 'RoleBinding', {
      metadata: { name: childObjectName(scope, 'RoleBinding', 'subdomain'), ...namespace },
      roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: role.name },
      // CloudNativePG runs the instance pods (and so the sidecar) under spec.serviceAccountName,
      // or a ServiceAccount named like the Cluster (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go
      // GetServiceAccountName).
      subjects: Lazy.any({ produce: () => [{ kind: 'ServiceAccount', name: serviceAccountOf(cluster), ...namespace }] }) as never,
    });
    addSchemaGuard(this, binding);

    addChecks(cluster, () => refuseUnpausedSchedules(cluster));
  }
}

const CLUSTER_KIND: PropKind = Kind.instance(
  (v) => v instanceof PostgresCluster,
  'a PostgresCluster',
  'pass the PostgresCluster construct; a Cluster managed elsewhere needs the plugin entry and annotations written there',
);

const ENABLE_SPEC: PropSpec<ScaleToZeroClusterOptions> = {
  inactivity: (scope, prop, value) => {
    if (value === undefined) return undefined;
    // Zero passes the generic check so that it is refused here, in minutes, as the user wrote it.
    const duration = requireDuration(scope, prop, value, 'Duration.minutes(10)', { allowZero: true });
    const ms = duration.toMilliseconds({ integral: false });
    if (ms % 60_000 !== 0 || ms < SCALE_TO_ZERO_CHECK_INTERVAL_MINUTES * 60_000) {
      invalid(
        scope,
        prop,
        duration.toHumanString(),
        'is not a whole number of minutes of at least one: the plugin reads whole minutes (xata.io/scale-to-zero-inactivity-minutes) and counts connections once a minute',
        `use Duration.minutes(${Math.max(SCALE_TO_ZERO_CHECK_INTERVAL_MINUTES, Math.ceil(ms / 60_000))})`,
      );
    }
    return undefined;
  },
};

const PROPS_SPEC: PropSpec<ScaleToZeroPluginProps> = {
  ...PLUGIN_DEPLOYMENT_SPEC,
  image: Kind.image(SCALE_TO_ZERO_PLUGIN_IMAGE),
  sidecarImage: Kind.image(SCALE_TO_ZERO_SIDECAR_IMAGE),
  logLevel: Kind.enumOf(PluginLogLevel, 'PluginLogLevel'),
  sidecarResources: Kind.resources(['cpu', 'memory']),
};

function exceeds(request: string, limit: string): boolean {
  const r = parseQuantity(request);
  const l = parseQuantity(limit);
  return r !== undefined && l !== undefined && compareQuantities(r, l) > 0;
}

function serviceAccountOf(cluster: PostgresCluster): string {
  return asString(dig(synthJson(cluster.apiObject), 'spec', 'serviceAccountName')) ?? cluster.name;
}

/** The ScheduledBackups of the app that back up `cluster` and that its sidecar will not suspend. */
function refuseUnpausedSchedules(cluster: PostgresCluster): void {
  const clusterJson = synthJson(cluster.apiObject) as Json;
  for (const c of cluster.node.root.node.findAll()) {
    if (!(c instanceof ApiObject) || c.kind !== 'ScheduledBackup' || !c.apiVersion.startsWith(`${CNPG_GROUP}/`)) continue;
    if (c.metadata.namespace !== cluster.namespace) continue;
    const json = synthJson(c) as Json;
    const issue = checkScaleToZeroSchedule(clusterJson, json)[0];
    if (issue === undefined) continue;
    const owner: IConstruct = c.node.id === 'Resource' && c.node.scope !== undefined ? c.node.scope : c;
    invalid(owner, issue.path, asObject(json.metadata)?.name, issue.message, issue.fix);
  }
}
