import { ApiObject, ApiObjectMetadata, Duration, Lazy, Size } from 'cdk8s';
import { CpuResources, MemoryResources } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  Cluster as CnpgCluster,
  ClusterProps as CnpgClusterProps,
  ClusterSpec as CnpgClusterSpec,
  ClusterSpecAffinity as CnpgClusterSpecAffinity,
  ClusterSpecExternalClusters as CnpgExternalCluster,
  ClusterSpecExternalClustersBarmanObjectStore as CnpgExternalClusterBarmanObjectStore,
  ClusterSpecImageCatalogRef as CnpgImageCatalogRef,
  ClusterSpecMonitoring as CnpgClusterSpecMonitoring,
  ClusterSpecPlugins as CnpgClusterPlugin,
  ClusterSpecPostgresql as CnpgClusterSpecPostgresql,
  ClusterSpecReplica as CnpgClusterSpecReplica,
  ClusterSpecResources as CnpgClusterSpecResources,
  ClusterSpecResourcesLimits as CnpgResourcesLimits,
  ClusterSpecResourcesRequests as CnpgResourcesRequests,
  ClusterSpecStorage as CnpgClusterSpecStorage,
  ClusterSpecStoragePvcTemplate as CnpgPvcTemplate,
  toJson_ClusterSpec,
} from '../../imports/postgresql.cnpg.io';
import { describeValue, invalid } from '../common/errors';
import { CLUSTER_NAME_RULE, checkBeforeRender, claimName, nameFromId } from '../common/stable-names';
import { validateJson, validateMetadata } from '../common/metadata';
import { isDns1035Label, requireString, typeName, validateInteger } from '../common/validate';
import { IPlugin } from '../plugins/plugin';
import { ClusterBootstrap } from './cluster-bootstrap';
import { refuseClusterMistakes } from './cluster-fidelity';
import {
  POSTGRES_CLUSTER_BRAND, checkExternalClusterName, checkedApiObject, optionalBoolean, optionalParameters, optionalString, pluginNameOf, requireJsonObject, requireObject, sizeToQuantity,
} from './internal';
import { PluginBackup, PluginBackupOptions } from './plugin-backup';
import { PluginScheduledBackup, PluginScheduledBackupOptions } from './plugin-scheduled-backup';

/**
 * The part of the generated `ClusterSpec` that `PostgresCluster` writes as is: every field of
 * the CloudNativePG CRD, all optional, minus the fields that have a typed prop or an `addXxx()`
 * method (the compiler refuses those; from JavaScript they are a `CnpgIValidationError`, as are
 * `postgresql.parameters` and `monitoring.enablePodMonitor`).
 */
export type ClusterSpecPassthrough = Omit<Partial<CnpgClusterSpec>,
'instances' | 'storage' | 'walStorage' | 'imageName' | 'imageCatalogRef' | 'bootstrap' | 'replica'
| 'resources' | 'affinity' | 'plugins' | 'externalClusters'>;

/**
 * Affinity and scheduling of the instance pods (`spec.affinity`), as the CRD defines it:
 * `enablePodAntiAffinity`, `topologyKey`, `nodeSelector`, `tolerations`, `nodeAffinity`, ...
 */
export type ClusterAffinity = CnpgClusterSpecAffinity;

/**
 * The PersistentVolumeClaim template of a storage section, as the CRD defines it.
 */
export type ClusterPvcTemplate = CnpgPvcTemplate;

/**
 * A volume of each instance: the data directory (`spec.storage`) or the WAL (`spec.walStorage`).
 */
export interface ClusterStorage {
  /**
   * The size of the volume, written as a Kubernetes quantity in the largest binary unit that
   * keeps it whole (`Size.gibibytes(10)` -> `10Gi`). It can grow later but never shrink.
   */
  readonly size: Size;

  /**
   * The StorageClass of the PersistentVolumeClaims.
   * @default - not written: the cluster's default StorageClass
   */
  readonly storageClass?: string;

  /**
   * Whether CloudNativePG resizes existing PVCs when `size` grows.
   * @default - not written; CloudNativePG's default is true
   */
  readonly resizeInUseVolumes?: boolean;

  /**
   * A PVC template for what the other fields do not cover (access modes, selectors, data
   * sources). `size` and `storageClass` win over the template's values.
   * @default - no template
   */
  readonly pvcTemplate?: ClusterPvcTemplate;
}

/** Which kind of image catalog `imageCatalog` names. */
export enum ImageCatalogKind {
  /** A namespaced `ImageCatalog` in the Cluster's namespace. */
  IMAGE_CATALOG = 'ImageCatalog',
  /** A cluster-wide `ClusterImageCatalog`. */
  CLUSTER_IMAGE_CATALOG = 'ClusterImageCatalog',
}

/**
 * The PostgreSQL image taken from an image catalog (`spec.imageCatalogRef`) for one major version.
 */
export interface ImageCatalogReference {
  /** The name of the `ImageCatalog` or `ClusterImageCatalog`. */
  readonly name: string;
  /** The PostgreSQL major version to pick from the catalog, e.g. 17. */
  readonly major: number;
  /**
   * Whether `name` is a namespaced or a cluster-wide catalog.
   * @default ImageCatalogKind.IMAGE_CATALOG
   */
  readonly kind?: ImageCatalogKind;
}

/**
 * PostgreSQL configuration (`spec.postgresql`). Other fields of that section (`pg_hba`,
 * `shared_preload_libraries`, `synchronous`, ...) go in `spec.postgresql` and are merged.
 */
export interface PostgresqlConfiguration {
  /**
   * `postgresql.conf` parameters. Values are strings, as PostgreSQL and the CRD take them:
   * write `'200'`, not `200`.
   * @default - not written: CloudNativePG's defaults
   */
  readonly parameters?: Record<string, string>;
}

/**
 * Monitoring switches (`spec.monitoring`). Other fields of that section (custom queries, TLS,
 * relabelings) go in `spec.monitoring` and are merged.
 */
export interface ClusterMonitoring {
  /**
   * Whether CloudNativePG creates a Prometheus Operator `PodMonitor` for the instances.
   * Upstream deprecates this switch in favour of a PodMonitor you write yourself.
   * @default - not written; CloudNativePG's default is false
   */
  readonly enablePodMonitor?: boolean;
}

/**
 * CPU and memory of each instance's `postgres` container (`spec.resources`).
 */
export interface ClusterResources {
  /**
   * CPU request and limit, e.g. `{ request: Cpu.millis(500) }`.
   * @default - none
   */
  readonly cpu?: CpuResources;
  /**
   * Memory request and limit, e.g. `{ request: Size.gibibytes(1), limit: Size.gibibytes(1) }`.
   * @default - none
   */
  readonly memory?: MemoryResources;
}

/**
 * Replica cluster configuration (`spec.replica`): this Cluster follows another one, named as an
 * external cluster (see `PostgresCluster.addExternalCluster`).
 */
export interface ClusterReplica {
  /** The external cluster to replicate from; it must be added with `addExternalCluster`. */
  readonly source: string;
  /**
   * Whether replica mode is on. Leave it unset when using `primary` / `self` (distributed topology).
   * @default - not written: CloudNativePG decides from `primary` and `self`
   */
  readonly enabled?: boolean;
  /**
   * In a distributed topology, the external cluster that is currently the primary.
   * @default - not written
   */
  readonly primary?: string;
  /**
   * In a distributed topology, the name of this Cluster among the external clusters.
   * @default - not written
   */
  readonly self?: string;
  /**
   * The demotion token of the former primary, used when promoting this Cluster.
   * @default - not written
   */
  readonly promotionToken?: string;
  /**
   * Replay transactions only this long after their commit (delayed replica).
   * @default - not written: no delay
   */
  readonly minApplyDelay?: Duration;
}

/**
 * Options of `PostgresCluster.addPlugin()`, rendered in `spec.plugins[]`.
 */
export interface ClusterPluginOptions {
  /**
   * Whether the operator uses the plugin for this Cluster. Written explicitly so a GitOps diff
   * shows the value the API server stores.
   * @default true
   */
  readonly enabled?: boolean;

  /**
   * Whether the plugin archives the WAL (`isWALArchiver`). At most one enabled plugin per
   * Cluster, and none when `spec.backup.barmanObjectStore` is set. Written explicitly.
   * @default false
   */
  readonly isWalArchiver?: boolean;

  /**
   * The plugin's parameters, e.g. Barman Cloud's `barmanObjectName`. Strings only.
   * @default - not written: no parameters
   */
  readonly parameters?: Record<string, string>;
}

/**
 * A plugin as a Cluster uses it: what `PostgresCluster.plugins` returns.
 */
export interface ClusterPlugin extends IPlugin {
  /** Whether the operator uses the plugin for this Cluster. */
  readonly enabled: boolean;
  /** Whether the plugin archives the WAL. */
  readonly isWalArchiver: boolean;
  /** The plugin's parameters (a copy). */
  readonly parameters: Record<string, string>;
}

/**
 * A key of a Secret in the Cluster's namespace.
 */
export interface SecretKeyReference {
  /** The Secret's name. */
  readonly name: string;
  /** The key within the Secret. */
  readonly key: string;
}

/**
 * Options of `PostgresCluster.addExternalCluster()`: how CloudNativePG reaches another cluster,
 * through a CNPG-I plugin, a libpq connection, an in-tree Barman object store, or a combination.
 * At least one of `plugin`, `connectionParameters` and `barmanObjectStore` is required.
 */
export interface ExternalClusterOptions {
  /**
   * A CNPG-I plugin that reads the other cluster's backups and WAL (`externalClusters[].plugin`),
   * e.g. Barman Cloud. Only `name` and `parameters` are written: `enabled` and `isWALArchiver`
   * mean nothing for an external cluster.
   * @default - no plugin
   */
  readonly plugin?: IPlugin | string;

  /**
   * The plugin's parameters, e.g. `{ barmanObjectName: 'store', serverName: 'pg' }`.
   * Requires `plugin`.
   * @default - not written: no parameters
   */
  readonly parameters?: Record<string, string>;

  /**
   * libpq connection parameters (`host`, `user`, `dbname`, `sslmode`, ...). A `password` key is
   * rejected: use `password` so the secret stays out of the manifest.
   * @default - no streaming connection
   */
  readonly connectionParameters?: Record<string, string>;

  /**
   * The Secret key holding the connection password.
   * @default - not written
   */
  readonly password?: SecretKeyReference;

  /**
   * The Secret key holding the client certificate for the connection.
   * @default - not written
   */
  readonly sslCert?: SecretKeyReference;

  /**
   * The Secret key holding the client private key for the connection.
   * @default - not written
   */
  readonly sslKey?: SecretKeyReference;

  /**
   * The Secret key holding the CA certificate that verifies the server.
   * @default - not written
   */
  readonly sslRootCert?: SecretKeyReference;

  /**
   * The in-tree Barman object store section, as the CRD defines it (deprecated upstream in
   * favour of the Barman Cloud plugin).
   * @default - not written
   */
  readonly barmanObjectStore?: CnpgExternalClusterBarmanObjectStore;
}

/**
 * Props of `PostgresCluster`.
 */
export interface PostgresClusterProps {
  /**
   * Metadata of the Cluster object: name, labels, annotations. The name must be a DNS-1035
   * label of at most 50 characters (CloudNativePG's rule); the namespace defaults to the chart's.
   * @default - the construct id, which must then be a valid Cluster name (it does not change when
   *   the construct moves under another parent)
   */
  readonly metadata?: ApiObjectMetadata;

  /**
   * The number of PostgreSQL instances: one primary and `instances - 1` standbys.
   * @default 1 (the CRD's default, written explicitly)
   */
  readonly instances?: number;

  /** The data volume of each instance (`spec.storage`). */
  readonly storage: ClusterStorage;

  /**
   * A separate WAL volume for each instance (`spec.walStorage`).
   * @default - not written: the WAL lives on the data volume
   */
  readonly walStorage?: ClusterStorage;

  /**
   * The PostgreSQL container image, e.g. `ghcr.io/cloudnative-pg/postgresql:17.5`.
   * Cannot be combined with `imageCatalog`.
   * @default - not written: the operator's default image
   */
  readonly imageName?: string;

  /**
   * The PostgreSQL image taken from an image catalog. Cannot be combined with `imageName`.
   * @default - not written: the operator's default image
   */
  readonly imageCatalog?: ImageCatalogReference;

  /**
   * PostgreSQL parameters (`spec.postgresql.parameters`).
   * @default - not written: CloudNativePG's defaults
   */
  readonly postgresql?: PostgresqlConfiguration;

  /**
   * How the Cluster gets its data.
   * @default - not written: CloudNativePG runs `initdb` with database `app` owned by `app`
   */
  readonly bootstrap?: ClusterBootstrap;

  /**
   * Run this Cluster as a replica of an external cluster.
   * @default - not written: a primary Cluster
   */
  readonly replica?: ClusterReplica;

  /**
   * Monitoring switches (`spec.monitoring`).
   * @default - not written
   */
  readonly monitoring?: ClusterMonitoring;

  /**
   * CPU and memory of the `postgres` container (`spec.resources`).
   * @default - not written: no requests or limits (BestEffort QoS)
   */
  readonly resources?: ClusterResources;

  /**
   * Affinity and scheduling (`spec.affinity`).
   * @default - not written: CloudNativePG's preferred pod anti-affinity
   */
  readonly affinity?: ClusterAffinity;

  /**
   * Everything else in the Cluster spec, typed by the generated CRD bindings and written as is.
   * A field that has a typed prop or an `addXxx()` method (instances, storage, walStorage,
   * imageName, imageCatalogRef, postgresql.parameters, bootstrap, replica,
   * monitoring.enablePodMonitor, resources, affinity, plugins, externalClusters) is an error
   * here, so nothing is silently overwritten. `postgresql` and `monitoring` are merged with
   * their typed props.
   * @default - nothing else
   */
  readonly spec?: ClusterSpecPassthrough;
}

/** The spec fields the construct writes, and where the user sets each of them instead. */
const MANAGED: Array<[string[], string]> = [
  [['instances'], 'the instances prop'],
  [['storage'], 'the storage prop'],
  [['walStorage'], 'the walStorage prop'],
  [['imageName'], 'the imageName prop'],
  [['imageCatalogRef'], 'the imageCatalog prop'],
  [['postgresql', 'parameters'], 'the postgresql.parameters prop'],
  [['bootstrap'], 'the bootstrap prop (ClusterBootstrap)'],
  [['replica'], 'the replica prop'],
  [['monitoring', 'enablePodMonitor'], 'the monitoring.enablePodMonitor prop'],
  [['resources'], 'the resources prop'],
  [['affinity'], 'the affinity prop'],
  [['plugins'], 'addPlugin()'],
  [['externalClusters'], 'addExternalCluster()'],
];

const CLUSTER_NAME_MAX = 50;

interface PluginEntry {
  readonly pluginName: string;
  readonly enabled: boolean;
  readonly isWalArchiver: boolean;
  readonly parameters?: Record<string, string>;
}

/**
 * A CloudNativePG `Cluster` (`postgresql.cnpg.io/v1`) that uses CNPG-I plugins.
 *
 * Typed props cover what most Clusters set; `spec` passes the rest of the CRD through.
 * Plugins, external clusters, backups and scheduled backups are added with methods, and
 * everything is rendered at synth so later additions appear. Checks the operator's webhook
 * would make at apply time (one WAL archiver, no archiver plugin beside
 * `spec.backup.barmanObjectStore`, a source for every external cluster) and those it does not
 * make (duplicate plugins or external clusters, sources that name no external cluster, backups
 * through a plugin the Cluster does not enable) throw a `CnpgIValidationError` instead.
 */
export class PostgresCluster extends Construct {
  /** The Cluster's `metadata.name`. Backups and the other objects of the Cluster refer to it. */
  public readonly name: string;
  /** The Cluster object; use `addJsonPatch` on it as the last-resort escape hatch. */
  public readonly apiObject: ApiObject;

  private readonly instances: number;
  private readonly passthrough: Partial<CnpgClusterSpec>;
  private readonly fixedSpec: CnpgClusterSpec;
  private readonly pluginEntries: PluginEntry[] = [];
  private readonly externalClusters: CnpgExternalCluster[] = [];

  public constructor(scope: Construct, id: string, props: PostgresClusterProps) {
    super(scope, id);
    Object.defineProperty(this, POSTGRES_CLUSTER_BRAND, { value: true });
    const p = requireObject<PostgresClusterProps>(this, 'props', props, 'pass { storage: { size: Size.gibibytes(10) } }');

    const metadata = p.metadata === undefined ? {} : requireObject<ApiObjectMetadata>(this, 'metadata', p.metadata, "pass { name: 'pg' }");
    this.name = metadata.name ?? nameFromId(this, CLUSTER_NAME_RULE);
    if (typeof this.name !== 'string' || !isDns1035Label(this.name) || this.name.length > CLUSTER_NAME_MAX) {
      invalid(this, 'metadata.name', this.name,
        `is not a DNS-1035 label of at most ${CLUSTER_NAME_MAX} characters, which CloudNativePG requires of Cluster names`,
        "set metadata.name to lower-case letters, digits and '-', starting with a letter, e.g. 'pg-main'");
    }

    this.instances = p.instances === undefined ? 1 : validateInteger(this, 'instances', p.instances, 1);
    this.passthrough = this.checkPassthrough(p.spec);

    if (p.imageName !== undefined && p.imageCatalog !== undefined) {
      invalid(this, 'imageName', p.imageName, 'and imageCatalog are both set; CloudNativePG takes one image source',
        'remove one of them');
    }
    const imageName = optionalString(this, 'imageName', p.imageName, "use an image reference such as 'ghcr.io/cloudnative-pg/postgresql:17.5'");

    const postgresql = p.postgresql === undefined ? undefined
      : requireObject<PostgresqlConfiguration>(this, 'postgresql', p.postgresql, "pass { parameters: { max_connections: '200' } }");
    const pgParameters = optionalParameters(this, 'postgresql.parameters', postgresql?.parameters);

    const monitoring = p.monitoring === undefined ? undefined
      : requireObject<ClusterMonitoring>(this, 'monitoring', p.monitoring, 'pass { enablePodMonitor: true }');
    const enablePodMonitor = optionalBoolean(this, 'monitoring.enablePodMonitor', monitoring?.enablePodMonitor);

    let bootstrap: ClusterBootstrap | undefined;
    if (p.bootstrap !== undefined) {
      if (!(p.bootstrap instanceof ClusterBootstrap)) {
        invalid(this, 'bootstrap', p.bootstrap, `must be a ClusterBootstrap, not ${typeName(p.bootstrap)}`,
          'use ClusterBootstrap.initdb(), ClusterBootstrap.recoveryFromPlugin() or ClusterBootstrap.fromSpec()');
      }
      bootstrap = p.bootstrap;
    }

    const pt = this.passthrough;
    this.fixedSpec = {
      instances: this.instances,
      storage: this.renderStorage('storage', p.storage),
      walStorage: p.walStorage === undefined ? undefined : this.renderStorage('walStorage', p.walStorage),
      imageName,
      imageCatalogRef: p.imageCatalog === undefined ? undefined : this.renderImageCatalog(p.imageCatalog),
      postgresql: mergeSection<CnpgClusterSpecPostgresql>(pt.postgresql, { parameters: pgParameters }),
      bootstrap: bootstrap?._spec,
      replica: p.replica === undefined ? undefined : this.renderReplica(p.replica),
      monitoring: mergeSection<CnpgClusterSpecMonitoring>(pt.monitoring, { enablePodMonitor }),
      resources: p.resources === undefined ? undefined : this.renderResources(p.resources),
      affinity: p.affinity === undefined ? undefined
        : { ...requireJsonObject<ClusterAffinity>(this, 'affinity', p.affinity, 'pass { enablePodAntiAffinity: true }') },
    };

    const clusterProps: CnpgClusterProps = {
      metadata: validateMetadata(this, 'metadata', { ...metadata, name: this.name }, "pass { name: 'pg' }"),
      spec: Lazy.any({ produce: () => this.renderSpec() }) as CnpgClusterSpec,
    };
    this.apiObject = checkedApiObject(CnpgCluster, this, 'Resource', clusterProps, () => this.checkAtSynth());
    const checkUnique = claimName(this, 'Cluster', this.apiObject.metadata.namespace, this.name);
    checkBeforeRender(this.apiObject, checkUnique);

    if (bootstrap?._source) {
      const source = bootstrap._source;
      this.addExternalCluster(source.name, { plugin: source.pluginName, parameters: source.parameters });
    }
  }

  /** The Cluster's namespace: the chart's unless `metadata.namespace` is set. */
  public get namespace(): string | undefined {
    return this.apiObject.metadata.namespace;
  }

  /** The plugins added so far, in order (copies). */
  public get plugins(): ClusterPlugin[] {
    return this.pluginEntries.map((e) => ({
      pluginName: e.pluginName,
      enabled: e.enabled,
      isWalArchiver: e.isWalArchiver,
      parameters: { ...e.parameters },
    }));
  }

  /** The names of the external clusters added so far, in order. */
  public get externalClusterNames(): string[] {
    return this.externalClusters.map((c) => c.name);
  }

  /**
   * Makes the Cluster use a CNPG-I plugin (`spec.plugins[]`).
   *
   * `enabled` and `isWALArchiver` are always written, so the manifest shows what the operator
   * will do. Adding the same plugin twice, a second enabled WAL archiver, or a WAL archiver
   * beside `spec.backup.barmanObjectStore` throws.
   */
  public addPlugin(plugin: IPlugin | string, options: ClusterPluginOptions = {}): void {
    const pluginName = pluginNameOf(this, 'plugin', plugin);
    const opts = requireObject<ClusterPluginOptions>(this, 'options', options, 'pass { isWalArchiver: true, parameters: { ... } }');
    const entry: PluginEntry = {
      pluginName,
      enabled: optionalBoolean(this, 'enabled', opts.enabled) ?? true,
      isWalArchiver: optionalBoolean(this, 'isWalArchiver', opts.isWalArchiver) ?? false,
      parameters: optionalParameters(this, 'parameters', opts.parameters),
    };
    if (this.pluginEntries.some((e) => e.pluginName === pluginName)) {
      invalid(this, 'plugins', pluginName, 'is already added', 'add each plugin once, with all its parameters');
    }
    if (entry.enabled && entry.isWalArchiver) {
      const other = this.pluginEntries.find((e) => e.enabled && e.isWalArchiver);
      if (other) {
        invalid(this, 'plugins', other.pluginName, `and '${pluginName}' both set isWalArchiver`,
          'CloudNativePG allows one WAL archiver per Cluster');
      }
      if (this.passthrough.backup?.barmanObjectStore !== undefined) {
        invalid(this, 'plugins', pluginName, 'sets isWalArchiver while spec.backup.barmanObjectStore is set',
          'CloudNativePG allows one way of archiving WAL per Cluster: remove spec.backup.barmanObjectStore or set isWalArchiver: false');
      }
    }
    this.pluginEntries.push(entry);
  }

  /**
   * Describes another cluster (`spec.externalClusters[]`) that this Cluster can recover from or
   * replicate from, by name. Names must be unique.
   */
  public addExternalCluster(name: string, options: ExternalClusterOptions): void {
    requireString(this, 'externalClusters', name, "name the external cluster, e.g. 'origin'");
    checkExternalClusterName(this, 'externalClusters', name);
    if (this.externalClusters.some((c) => c.name === name)) {
      invalid(this, 'externalClusters', name, 'is already added', 'give each external cluster a unique name');
    }
    const prop = `externalClusters[${name}]`;
    const opts = requireObject<ExternalClusterOptions>(this, prop, options, "pass { plugin, parameters } or { connectionParameters }");
    const pluginName = opts.plugin === undefined ? undefined : pluginNameOf(this, `${prop}.plugin`, opts.plugin);
    const parameters = optionalParameters(this, `${prop}.parameters`, opts.parameters);
    if (parameters !== undefined && pluginName === undefined) {
      invalid(this, `${prop}.parameters`, parameters, 'are plugin parameters but no plugin is set',
        'set plugin, or put libpq settings in connectionParameters');
    }
    const connectionParameters = optionalParameters(this, `${prop}.connectionParameters`, opts.connectionParameters);
    const secretKey = Object.keys(connectionParameters ?? {}).find((k) => k.toLowerCase() === 'password');
    if (secretKey !== undefined) {
      invalid(this, `${prop}.connectionParameters.${secretKey}`, '<redacted>', 'would put a secret in the manifest',
        'store it in a Secret and reference it with password: { name, key }');
    }
    const barmanObjectStore = opts.barmanObjectStore === undefined ? undefined
      : { ...requireJsonObject<CnpgExternalClusterBarmanObjectStore>(this, `${prop}.barmanObjectStore`, opts.barmanObjectStore, 'pass the barmanObjectStore section') };
    if (pluginName === undefined && connectionParameters === undefined && barmanObjectStore === undefined) {
      invalid(this, 'externalClusters', name, 'has no connectionParameters, plugin or barmanObjectStore',
        'set one of them so CloudNativePG can reach that cluster');
    }
    this.externalClusters.push({
      name,
      plugin: pluginName === undefined ? undefined : { name: pluginName, parameters },
      connectionParameters,
      password: this.secretKey(`${prop}.password`, opts.password),
      sslCert: this.secretKey(`${prop}.sslCert`, opts.sslCert),
      sslKey: this.secretKey(`${prop}.sslKey`, opts.sslKey),
      sslRootCert: this.secretKey(`${prop}.sslRootCert`, opts.sslRootCert),
      barmanObjectStore,
    });
  }

  /**
   * Adds an on-demand `Backup` of this Cluster through a plugin, in the Cluster's namespace.
   * The plugin must be enabled on this Cluster by synth time.
   */
  public addBackup(id: string, options: PluginBackupOptions): PluginBackup {
    return new PluginBackup(this, id, { ...options, cluster: this });
  }

  /**
   * Adds a `ScheduledBackup` of this Cluster through a plugin, in the Cluster's namespace.
   * The plugin must be enabled on this Cluster by synth time.
   */
  public addScheduledBackup(id: string, options: PluginScheduledBackupOptions): PluginScheduledBackup {
    return new PluginScheduledBackup(this, id, { ...options, cluster: this });
  }

  private checkPassthrough(spec: unknown): Partial<CnpgClusterSpec> {
    if (spec === undefined) return {};
    const s = requireObject(this, 'spec', spec, 'pass fields of the Cluster spec, e.g. { enableSuperuserAccess: false }');
    validateJson(this, 'spec', s);
    for (const [path, instead] of MANAGED) {
      let value: unknown = s;
      for (const key of path) {
        value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
      }
      if (value !== undefined) {
        invalid(this, `spec.${path.join('.')}`, value, 'is managed by PostgresCluster', `use ${instead} instead`);
      }
    }
    return { ...s } as Partial<CnpgClusterSpec>;
  }

  private renderStorage(prop: string, storage: unknown): CnpgClusterSpecStorage {
    if (storage === undefined) invalid(this, prop, storage, 'is required', 'pass { size: Size.gibibytes(10) }');
    const s = requireObject<ClusterStorage>(this, prop, storage, 'pass { size: Size.gibibytes(10) }');
    return {
      size: sizeToQuantity(this, `${prop}.size`, s.size),
      storageClass: optionalString(this, `${prop}.storageClass`, s.storageClass, 'name a StorageClass'),
      resizeInUseVolumes: optionalBoolean(this, `${prop}.resizeInUseVolumes`, s.resizeInUseVolumes),
      pvcTemplate: s.pvcTemplate === undefined ? undefined
        : { ...requireJsonObject(this, `${prop}.pvcTemplate`, s.pvcTemplate, 'pass a PersistentVolumeClaim spec') },
    };
  }

  private renderImageCatalog(ref: unknown): CnpgImageCatalogRef {
    const r = requireObject<ImageCatalogReference>(this, 'imageCatalog', ref, "pass { name: 'postgresql', major: 17 }");
    const kind = r.kind ?? ImageCatalogKind.IMAGE_CATALOG;
    if (!Object.values(ImageCatalogKind).includes(kind)) {
      invalid(this, 'imageCatalog.kind', kind, 'is not an ImageCatalogKind', 'use ImageCatalogKind.IMAGE_CATALOG or ImageCatalogKind.CLUSTER_IMAGE_CATALOG');
    }
    return {
      // The CRD's CEL rule requires the group, although Kubernetes references usually omit it.
      apiGroup: 'postgresql.cnpg.io',
      kind,
      name: requireString(this, 'imageCatalog.name', r.name, 'name the image catalog'),
      major: validateInteger(this, 'imageCatalog.major', r.major, 1),
    };
  }

  private renderReplica(replica: unknown): CnpgClusterSpecReplica {
    const r = requireObject<ClusterReplica>(this, 'replica', replica, "pass { source: 'origin' }");
    let minApplyDelay: string | undefined;
    if (r.minApplyDelay !== undefined) {
      if (!(r.minApplyDelay instanceof Duration)) {
        invalid(this, 'replica.minApplyDelay', r.minApplyDelay, `must be a cdk8s Duration, not ${typeName(r.minApplyDelay)}`, 'use Duration.hours(1)');
      }
      const ms = r.minApplyDelay.toMilliseconds();
      minApplyDelay = ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
    }
    return {
      source: requireString(this, 'replica.source', r.source, 'name an external cluster added with addExternalCluster()'),
      enabled: optionalBoolean(this, 'replica.enabled', r.enabled),
      primary: optionalString(this, 'replica.primary', r.primary, 'name an external cluster'),
      self: optionalString(this, 'replica.self', r.self, 'name this cluster as the external clusters list it'),
      promotionToken: optionalString(this, 'replica.promotionToken', r.promotionToken, 'paste the demotion token of the former primary'),
      minApplyDelay,
    };
  }

  private renderResources(resources: unknown): CnpgClusterSpecResources {
    const r = requireObject<ClusterResources>(this, 'resources', resources, 'pass { memory: { request: Size.gibibytes(1) } }');
    const requests: Record<string, CnpgResourcesRequests> = {};
    const limits: Record<string, CnpgResourcesLimits> = {};
    const cpu = (prop: string, value: unknown): string => {
      if (value === null || typeof value !== 'object' || typeof (value as { amount?: unknown }).amount !== 'string') {
        invalid(this, prop, value, `must be a cdk8s-plus Cpu, not ${typeName(value)}`, 'use Cpu.millis(500) or Cpu.units(1)');
      }
      return (value as { amount: string }).amount;
    };
    if (r.cpu?.request !== undefined) requests.cpu = CnpgResourcesRequests.fromString(cpu('resources.cpu.request', r.cpu.request));
    if (r.cpu?.limit !== undefined) limits.cpu = CnpgResourcesLimits.fromString(cpu('resources.cpu.limit', r.cpu.limit));
    if (r.memory?.request !== undefined) requests.memory = CnpgResourcesRequests.fromString(sizeToQuantity(this, 'resources.memory.request', r.memory.request));
    if (r.memory?.limit !== undefined) limits.memory = CnpgResourcesLimits.fromString(sizeToQuantity(this, 'resources.memory.limit', r.memory.limit));
    return {
      requests: Object.keys(requests).length ? requests : undefined,
      limits: Object.keys(limits).length ? limits : undefined,
    };
  }

  private secretKey(prop: string, ref: unknown): { name: string; key: string } | undefined {
    if (ref === undefined) return undefined;
    const r = requireObject(this, prop, ref, "pass { name: 'origin-credentials', key: 'password' }");
    return {
      name: requireString(this, `${prop}.name`, r.name, 'name a Secret in the Cluster\'s namespace'),
      key: requireString(this, `${prop}.key`, r.key, 'name a key of that Secret'),
    };
  }

  /** Checks that depend on additions made after construction; run before every rendering. */
  private checkAtSynth(): void {
    const known = this.externalClusterNames;
    const sources: Array<[string, string | undefined]> = [
      ['bootstrap.recovery.source', this.fixedSpec.bootstrap?.recovery?.source],
      ['bootstrap.pgBasebackup.source', this.fixedSpec.bootstrap?.pgBasebackup?.source],
      ['replica.source', this.fixedSpec.replica?.source],
    ];
    for (const [prop, source] of sources) {
      if (source !== undefined && !known.includes(source)) {
        const list = known.length ? `; the external clusters are ${known.map((n) => describeValue(n)).join(', ')}` : '';
        invalid(this, prop, source, 'names no external cluster',
          `add it with addExternalCluster(${describeValue(source)}, ...)${list}`);
      }
    }
    // The rest is judged exactly as the doctor judges the synthesized Cluster.
    refuseClusterMistakes(this, {
      metadata: { name: this.name, namespace: this.namespace },
      spec: toJson_ClusterSpec(this.renderSpec()),
    });
  }

  private renderSpec(): CnpgClusterSpec {
    const plugins: CnpgClusterPlugin[] = this.pluginEntries.map((e) => ({
      name: e.pluginName,
      enabled: e.enabled,
      isWalArchiver: e.isWalArchiver,
      parameters: e.parameters === undefined ? undefined : { ...e.parameters },
    }));
    return {
      ...this.passthrough,
      ...this.fixedSpec,
      plugins: plugins.length ? plugins : undefined,
      externalClusters: this.externalClusters.length ? this.externalClusters.map((c) => ({ ...c })) : undefined,
    };
  }
}

/** Merges a typed prop into its passthrough section; undefined when both are empty. */
function mergeSection<T extends object>(passthrough: T | undefined, typed: Partial<T>): T | undefined {
  const set = Object.entries(typed).filter(([, v]) => v !== undefined);
  if (passthrough === undefined && set.length === 0) return undefined;
  return { ...passthrough, ...Object.fromEntries(set) } as T;
}
