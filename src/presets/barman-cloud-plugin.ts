import { createHash } from 'crypto';
import { ApiObject, Include } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { missingBarmanObjectName } from '../checks/barman-cloud';
import { clusterScoped } from '../common/metadata';
import { childObjectName } from '../common/names';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { invalid } from '../manifests/errors';
import { Json } from '../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../manifests/known-plugins';
import { RENAMED_PLUGIN_KEYS } from '../plugins/internal';
import { IPlugin, IPluginCluster, PluginClusterEntry } from '../plugins/plugin';
import { PLUGIN_DEPLOYMENT_SPEC, PluginDeploymentProps, StandalonePlugin, pluginNamespace, sharedProps } from '../plugins/standalone-plugin';
import { addChecks, addSchemaGuard, internalChild, synthJson } from '../schema/guard';
import { PluginTlsMode } from '../tls/plugin-tls';
import { BarmanCloudNames } from './barman-cloud-names';
import { PluginLogLevel } from './log-level';
import { BARMAN_CLOUD_OBJECT_STORE_CRD_URL, BARMAN_CLOUD_PLUGIN_IMAGE, BARMAN_CLOUD_PLUGIN_VERSION, BARMAN_CLOUD_SIDECAR_IMAGE } from './versions';

/** The environment variable from which the plugin reads the instance sidecar image (required by `operator`). */
const SIDECAR_IMAGE_ENV = 'SIDECAR_IMAGE';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * Props of {@link BarmanCloudPlugin}. The props shared with {@link StandalonePlugin} have the
 * same meaning and defaults there.
 */
export interface BarmanCloudPluginProps extends PluginDeploymentProps {
  /**
   * The plugin image (it runs the `operator` subcommand), pinned to a tag or a digest.
   * @default 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0' (`BARMAN_CLOUD_PLUGIN_IMAGE`)
   */
  readonly image?: string;
  /**
   * The image of the sidecar the plugin injects into PostgreSQL instance pods, passed as
   * `SIDECAR_IMAGE`. Keep it at the same release as `image`.
   * @default 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.14.0' (`BARMAN_CLOUD_SIDECAR_IMAGE`)
   */
  readonly sidecarImage?: string;
  /**
   * The plugin's `--log-level`. The upstream manifest sets `debug`; `info` is the plugin's own
   * default and quieter in production.
   * @default PluginLogLevel.INFO
   */
  readonly logLevel?: PluginLogLevel;
  /**
   * A path or URL of a YAML file with the ObjectStore CustomResourceDefinition, added to the
   * chart with cdk8s `Include` (only `CustomResourceDefinition` objects are kept, without a
   * namespace). The plugin does not start without the CRD. `BARMAN_CLOUD_OBJECT_STORE_CRD_URL`
   * is the CRD of the default release; a URL is fetched at synth time.
   * @default - the CRD is not part of the output; install it some other way
   */
  readonly objectStoreCrd?: string;
  /**
   * The names of the plugin's objects: `BarmanCloudNames.upstream()` writes the names of the
   * upstream v0.14.0 manifest, to adopt an install made with `kubectl apply` in place.
   * Cannot be combined with `serviceName`.
   * @default BarmanCloudNames.generated()
   */
  readonly names?: BarmanCloudNames;
}

/**
 * The Barman Cloud CNPG-I plugin (`barman-cloud.cloudnative-pg.io`), installed the way the
 * upstream v0.14.0 release manifest installs it, in the chart's namespace instead of a
 * hard-coded `cnpg-system`.
 *
 * Creates a {@link StandalonePlugin} (Deployment with the `Recreate` strategy and one replica,
 * the discoverable Service, mutual TLS, NetworkPolicy) running `operator --leader-elect`, an
 * immutable ConfigMap holding `SIDECAR_IMAGE` (the image is not secret; the name carries a hash
 * of the image so that changing it rolls the Deployment), the ServiceAccount token the plugin
 * needs to talk to the API server, and the upstream RBAC: a ClusterRole and a metrics
 * ClusterRole with their ClusterRoleBindings, and the leader-election Role and RoleBinding,
 * all bound to the plugin's ServiceAccount in the chart's namespace.
 *
 * The chart's namespace must be the operator's namespace, and cert-manager must be installed
 * (unless `tls` is `PluginTls.fromSecrets`). Requires CloudNativePG 1.26 or later.
 *
 * ```ts
 * const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
 * const barman = new BarmanCloudPlugin(system, 'barman');
 * cluster.addPlugin(barman, { isWalArchiver: true, parameters: { barmanObjectName: store.name } });
 * ```
 */
export class BarmanCloudPlugin extends Construct implements IPlugin {
  /** The name the Barman Cloud plugin reports, and that Clusters, Backups and recoveries use. */
  public static readonly PLUGIN_NAME = BARMAN_CLOUD_PLUGIN_NAME;
  /** The plugin-barman-cloud release the defaults follow (`BARMAN_CLOUD_PLUGIN_VERSION`). */
  public static readonly PLUGIN_VERSION = BARMAN_CLOUD_PLUGIN_VERSION;
  /** The default plugin image (`BARMAN_CLOUD_PLUGIN_IMAGE`). */
  public static readonly PLUGIN_IMAGE = BARMAN_CLOUD_PLUGIN_IMAGE;
  /** The default instance sidecar image (`BARMAN_CLOUD_SIDECAR_IMAGE`). */
  public static readonly SIDECAR_IMAGE = BARMAN_CLOUD_SIDECAR_IMAGE;
  /** The ObjectStore CRD of the default release (`BARMAN_CLOUD_OBJECT_STORE_CRD_URL`). */
  public static readonly OBJECT_STORE_CRD_URL = BARMAN_CLOUD_OBJECT_STORE_CRD_URL;

  /** `barman-cloud.cloudnative-pg.io`. */
  public readonly pluginName: string;
  /** The plugin Deployment, Service, TLS objects and ServiceAccount. */
  public readonly plugin: StandalonePlugin;
  /** The plugin image in use. */
  public readonly image: string;
  /** The instance sidecar image in use (`SIDECAR_IMAGE`). */
  public readonly sidecarImage: string;
  /** The ConfigMap holding `SIDECAR_IMAGE`. */
  public readonly sidecarImageConfigMap: kplus.ConfigMap;
  /** The plugin's cluster-wide permissions. */
  public readonly clusterRole: kplus.k8s.KubeClusterRole;
  /** Binds {@link clusterRole} to the plugin's ServiceAccount. */
  public readonly clusterRoleBinding: kplus.k8s.KubeClusterRoleBinding;
  /** Permissions to authenticate and authorize scrapes of the (opt-in) metrics endpoint. */
  public readonly metricsAuthClusterRole: kplus.k8s.KubeClusterRole;
  /** Binds {@link metricsAuthClusterRole} to the plugin's ServiceAccount. */
  public readonly metricsAuthClusterRoleBinding: kplus.k8s.KubeClusterRoleBinding;
  /** Leader election permissions in the plugin's namespace. */
  public readonly leaderElectionRole: kplus.k8s.KubeRole;
  /** Binds {@link leaderElectionRole} to the plugin's ServiceAccount. */
  public readonly leaderElectionRoleBinding: kplus.k8s.KubeRoleBinding;
  /** The included ObjectStore CRD, when `objectStoreCrd` is set. */
  public readonly objectStoreCrd?: Include;

  constructor(scope: Construct, id: string, props: BarmanCloudPluginProps = {}) {
    super(scope, id);
    checkProps(this, 'props', props, PROPS_SPEC, { example: '{} or nothing', renamed: RENAMED_PLUGIN_KEYS });
    pluginNamespace(this);
    this.image = props.image ?? BARMAN_CLOUD_PLUGIN_IMAGE;
    this.sidecarImage = props.sidecarImage ?? BARMAN_CLOUD_SIDECAR_IMAGE;
    const logLevel = props.logLevel ?? PluginLogLevel.INFO;
    const fixed = props.names?._fixed;
    refuseFirst(this, [
      [
        props.envVariables !== undefined && SIDECAR_IMAGE_ENV in props.envVariables,
        `envVariables.${SIDECAR_IMAGE_ENV}`,
        props.envVariables?.[SIDECAR_IMAGE_ENV],
        'is set by the construct from sidecarImage',
        'set sidecarImage instead',
      ],
      [
        fixed !== undefined && props.serviceName !== undefined,
        'serviceName',
        props.serviceName,
        `conflicts with names, which fixes the Service name to '${fixed?.service}'`,
        'remove serviceName, or use BarmanCloudNames.generated()',
      ],
    ]);
    // The upstream Issuer is SelfSigned: with another TLS mode, the leaf issuer keeps a generated name.
    const selfSigned = props.tls === undefined || props.tls.mode === PluginTlsMode.SELF_SIGNED;

    this.sidecarImageConfigMap = new kplus.ConfigMap(this, 'SidecarImage', {
      metadata: {
        // Like upstream's generated Secret: a new image means a new name, so the pod template
        // changes and the Deployment rolls; the old ConfigMap is left for GitOps pruning.
        name: childObjectName(this.node.scope as Construct, this.node.id, 'subdomain', {
          extra: ['sidecar-image', createHash('sha256').update(this.sidecarImage).digest('hex').slice(0, 10)],
        }),
        labels: props.labels,
      },
      data: { [SIDECAR_IMAGE_ENV]: this.sidecarImage },
      immutable: true,
    });
    addSchemaGuard(this, ApiObject.of(this.sidecarImageConfigMap));

    this.plugin = new StandalonePlugin(this, internalChild(this, 'Plugin'), {
      ...sharedProps(props),
      pluginName: BarmanCloudPlugin.PLUGIN_NAME,
      image: this.image,
      args: ['operator', '--leader-elect', `--log-level=${logLevel}`],
      // One active replica (leader election) and no overlap of old and new pods on upgrades.
      replicas: 1,
      strategy: kplus.DeploymentStrategy.recreate(),
      envVariables: {
        ...props.envVariables,
        [SIDECAR_IMAGE_ENV]: kplus.EnvValue.fromConfigMap(this.sidecarImageConfigMap, SIDECAR_IMAGE_ENV),
      },
      // The plugin is a controller: it reads ObjectStores and Backups and writes Roles.
      automountServiceAccountToken: true,
      ...(fixed === undefined
        ? {}
        : {
            serviceName: fixed.service,
            objectNames: {
              deployment: fixed.deployment,
              serviceAccount: fixed.serviceAccount,
              selectorLabels: fixed.selectorLabels,
              issuer: selfSigned ? fixed.issuer : undefined,
              clientCertificate: fixed.clientCertificate,
              serverCertificate: fixed.serverCertificate,
              clientSecret: fixed.clientSecret,
              serverSecret: fixed.serverSecret,
            },
          }),
    });
    this.pluginName = this.plugin.pluginName;

    const labels = props.labels === undefined ? undefined : { ...props.labels };
    const subjects = [{ kind: 'ServiceAccount', name: this.plugin.serviceAccount.name, namespace: this.plugin.namespace }];

    this.clusterRole = this.guarded(
      clusterScoped(
        new kplus.k8s.KubeClusterRole(this, 'ClusterRole', {
          metadata: { labels, name: fixed?.clusterRole ?? childObjectName(this, 'ClusterRole', 'subdomain') },
          rules: [
            // The plugin writes, for each Cluster, a Role granting the instance sidecar read access
            // to its ObjectStores and their credential Secrets. Kubernetes only lets it grant what it
            // holds itself, so it needs these verbs on Secrets (create/delete as upstream grants them).
            { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'delete', 'get', 'list', 'watch'] },
            // Reconciles ObjectStores (the controller in the `operator` subcommand) and reads them
            // when it injects the sidecar into instance pods.
            { apiGroups: ['barmancloud.cnpg.io'], resources: ['objectstores'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
            // kubebuilder's rule for the kind it reconciles: lets it add finalizers to ObjectStores
            // and make them owners (blockOwnerDeletion) of other objects.
            { apiGroups: ['barmancloud.cnpg.io'], resources: ['objectstores/finalizers'], verbs: ['update'] },
            // Writes ObjectStore status (recovery window, last archived WAL); the Roles it writes let
            // the sidecar update it too, which again needs the verb here first.
            { apiGroups: ['barmancloud.cnpg.io'], resources: ['objectstores/status'], verbs: ['get', 'patch', 'update'] },
            // Reads the Backups that Clusters take through the plugin (granted upstream on the
            // ObjectStore reconciler).
            { apiGroups: ['postgresql.cnpg.io'], resources: ['backups'], verbs: ['get', 'list', 'watch'] },
            // Makes the Cluster the owner (with blockOwnerDeletion) of the per-Cluster Role and
            // RoleBinding, which the API server only allows to who may update the Cluster's finalizers.
            { apiGroups: ['postgresql.cnpg.io'], resources: ['clusters/finalizers'], verbs: ['update'] },
            // Creates and updates the per-Cluster Role and RoleBinding for the instance sidecar.
            { apiGroups: [RBAC_GROUP], resources: ['rolebindings', 'roles'], verbs: ['create', 'get', 'list', 'patch', 'update', 'watch'] },
          ],
        }),
      ),
    );
    this.clusterRoleBinding = this.guarded(
      clusterScoped(
        new kplus.k8s.KubeClusterRoleBinding(this, 'ClusterRoleBinding', {
          metadata: { labels, name: fixed?.clusterRoleBinding ?? childObjectName(this, 'ClusterRoleBinding', 'subdomain') },
          roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: this.clusterRole.name },
          subjects,
        }),
      ),
    );

    this.metricsAuthClusterRole = this.guarded(
      clusterScoped(
        new kplus.k8s.KubeClusterRole(this, 'MetricsAuthClusterRole', {
          metadata: { labels, name: fixed?.metricsAuthClusterRole ?? childObjectName(this, 'MetricsAuthClusterRole', 'subdomain') },
          rules: [
            // The metrics endpoint (off unless `--metrics-bind-address` is set) authenticates the
            // bearer token of each scrape with a TokenReview...
            { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
            // ...and authorizes it with a SubjectAccessReview.
            { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
          ],
        }),
      ),
    );
    this.metricsAuthClusterRoleBinding = this.guarded(
      clusterScoped(
        new kplus.k8s.KubeClusterRoleBinding(this, 'MetricsAuthClusterRoleBinding', {
          metadata: { labels, name: fixed?.metricsAuthClusterRoleBinding ?? childObjectName(this, 'MetricsAuthClusterRoleBinding', 'subdomain') },
          roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: this.metricsAuthClusterRole.name },
          subjects,
        }),
      ),
    );

    const leaderElectionVerbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];
    this.leaderElectionRole = this.guarded(
      new kplus.k8s.KubeRole(this, 'LeaderElectionRole', {
        metadata: { labels, name: fixed?.leaderElectionRole ?? childObjectName(this, 'LeaderElectionRole', 'subdomain') },
        rules: [
          // controller-runtime's leader election lock: older releases kept it in a ConfigMap...
          { apiGroups: [''], resources: ['configmaps'], verbs: leaderElectionVerbs },
          // ...current ones in a Lease, in the namespace of the ServiceAccount.
          { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: leaderElectionVerbs },
          // Records "became leader" events.
          { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
        ],
      }),
    );
    this.leaderElectionRoleBinding = this.guarded(
      new kplus.k8s.KubeRoleBinding(this, 'LeaderElectionRoleBinding', {
        metadata: { labels, name: fixed?.leaderElectionRoleBinding ?? childObjectName(this, 'LeaderElectionRoleBinding', 'subdomain') },
        roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: this.leaderElectionRole.name },
        subjects,
      }),
    );

    if (props.objectStoreCrd !== undefined) {
      this.objectStoreCrd = includeCrds(this, props.objectStoreCrd);
    }
  }

  /**
   * What `cluster.addPlugin(barman, ...)` adds beside the entry: a synth-time check that the
   * Cluster names an ObjectStore for the plugin (`objectStore`, or `barmanObjectName` in the
   * parameters or in the recovery or replica source's parameters). Without one the plugin's
   * configuration check fails (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go
   * PluginConfiguration.Validate), it injects no sidecar and archives nothing: an inert plugin,
   * refused with the option to pass. A disabled entry is not checked. The plugin writes the
   * sidecar's Role itself, per Cluster, at run time; nothing else is written here.
   */
  public bindToCluster(cluster: IPluginCluster, entry: PluginClusterEntry): void {
    if (!entry.enabled || !(cluster instanceof Construct)) return;
    const at = `plugins[${this.pluginName}]`;
    addChecks(cluster, () => {
      const issue = missingBarmanObjectName(synthJson(cluster.apiObject) as Json);
      if (issue === undefined) return;
      invalid(
        cluster,
        `${at}.parameters.barmanObjectName`,
        undefined,
        issue.message,
        `pass the ObjectStore: cluster.addPlugin(barman, { objectStore: store, isWalArchiver: true }) (or parameters: { barmanObjectName: '<ObjectStore name>' }); a Cluster that only recovers names it in its recovery source (ExternalClusterSource.fromPlugin(barman, { objectStore }))`,
      );
    });
  }

  private guarded<T extends ApiObject>(obj: T): T {
    addSchemaGuard(this, obj);
    return obj;
  }
}

const PROPS_SPEC: PropSpec<BarmanCloudPluginProps> = {
  ...PLUGIN_DEPLOYMENT_SPEC,
  image: Kind.image(BARMAN_CLOUD_PLUGIN_IMAGE),
  sidecarImage: Kind.image(BARMAN_CLOUD_SIDECAR_IMAGE),
  logLevel: Kind.enumOf(PluginLogLevel, 'PluginLogLevel'),
  objectStoreCrd: Kind.string('use a path or URL of a YAML file with the ObjectStore CRD, e.g. BarmanCloudPlugin.OBJECT_STORE_CRD_URL'),
  names: Kind.factory(BarmanCloudNames),
};

function includeCrds(scope: Construct, url: string): Include {
  const include = new Include(scope, 'ObjectStoreCrd', { url });
  const crds = include.apiObjects.filter((o) => o.kind === 'CustomResourceDefinition');
  if (crds.length === 0) {
    invalid(
      scope,
      'objectStoreCrd',
      url,
      'holds no CustomResourceDefinition',
      'use the CRD file of the plugin release, e.g. BARMAN_CLOUD_OBJECT_STORE_CRD_URL',
    );
  }
  for (const obj of include.apiObjects) {
    if (obj.kind === 'CustomResourceDefinition') {
      addSchemaGuard(scope, clusterScoped(obj));
    } else {
      // A whole release manifest may be given: keep its CRDs only; the rest is what this
      // construct renders itself (in the right namespace).
      include.node.tryRemoveChild(obj.node.id);
    }
  }
  return include;
}
