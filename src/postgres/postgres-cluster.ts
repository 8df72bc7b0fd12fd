import { ApiObject, ApiObjectMetadata, Chart, Duration, Lazy, Size } from 'cdk8s';
import { CpuResources, MemoryResources } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  Cluster as CnpgCluster,
  ClusterSpec as CnpgClusterSpec,
  ClusterSpecAffinity,
  ClusterSpecExternalClusters as CnpgExternalCluster,
  ClusterSpecManaged as CnpgClusterSpecManaged,
  ClusterSpecMonitoring as CnpgClusterSpecMonitoring,
  ClusterSpecPostgresql as CnpgClusterSpecPostgresql,
  ClusterSpecReplica as CnpgClusterSpecReplica,
  ClusterSpecResources as CnpgClusterSpecResources,
  ClusterSpecStorage as CnpgClusterSpecStorage,
  ClusterSpecStoragePvcTemplate,
  toJson_ClusterSpec,
} from '../../imports/postgresql.cnpg.io';
import { writtenMetadata } from '../common/metadata';
import { jsonProblem } from '../common/plain-json';
import { Kind } from '../common/prop-kinds';
import { PropKind, PropSpec, Rule, checkProps, checkValue, refuseFirst, specKeys } from '../common/props';
import { renderDuration, renderQuantity } from '../common/render';
import { ResourceKey, resourcesOf } from '../common/resources';
import { CLUSTER_NAME_RULE, nameFromId } from '../common/stable-names';
import { Problem, invalid, refuseProblem } from '../manifests/errors';
import { Json } from '../manifests/json';
import { parseQuantity } from '../manifests/quantity';
import { IPlugin, IPluginCluster } from '../plugins/plugin';
import { ClusterBootstrap } from './cluster-bootstrap';
import { clusterMistake } from './cluster-fidelity';
import { ClusterImage } from './cluster-image';
import { ClusterReferenceOptions, IPostgresCluster } from './cluster-reference';
import { CLUSTER_SPEC_PASSTHROUGH_SPEC, ClusterSpecPassthrough } from './cluster-spec-passthrough';
import { Database, DatabaseOptions } from './database';
import { DatabaseRole, DatabaseRoleOptions } from './database-role';
import { ExternalClusterSource } from './external-cluster-source';
import { EXTERNAL_CLUSTER_NAME_KIND, PLUGIN_KIND, appArchives, bindCluster, guardAndCheck, markExternal } from './internal';
import { ManagedRoleOptions, managedRoleEntry } from './managed-role';
import { IObjectStore, linkObjectStore } from './object-store-link';
import { convertField, wrapValues } from './passthrough';
import { PluginBackup, PluginBackupOptions } from './plugin-backup';
import { PluginScheduledBackup, PluginScheduledBackupOptions } from './plugin-scheduled-backup';
import { Pooler, PoolerOptions } from './pooler';
import { Publication, PublicationOptions } from './publication';
import { Subscription, SubscriptionOptions } from './subscription';

/**
 * A volume of each instance: the data directory (`spec.storage`) or the WAL (`spec.walStorage`).
 */
export interface ClusterStorage {
  /**
   * The size of the volume, written as a Kubernetes quantity in the largest binary unit that
   * keeps it whole (`Size.gibibytes(10)` -> `10Gi`). It can grow later but never shrink.
   * Required unless `pvcTemplate` carries a storage request (`resources.requests.storage`), which
   * CloudNativePG then gives each PVC (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go
   * validateStorageConfigurationSize accepts either; pkg/reconciler/persistentvolumeclaim/build.go
   * Build starts from the template and writes `size` over its request only when `size` is set).
   * @default - the storage request of `pvcTemplate`
   */
  readonly size?: Size;

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
   * sources), written exactly as given (quantities as strings such as `'5Gi'` or as the
   * generated classes). `size` and `storageClass` win over the template's values.
   * @default - no template
   */
  readonly pvcTemplate?: ClusterSpecStoragePvcTemplate;
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
   * Replay transactions only this long after their commit (delayed replica), written as a Go
   * duration (`Duration.hours(1)` -> `1h`).
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
   * The plugin's parameters. Strings only.
   * @default - not written: no parameters
   */
  readonly parameters?: Record<string, string>;

  /**
   * The object store the plugin archives to and backs up into, such as a Barman Cloud `ObjectStore`.
   *
   * The parameters that point the plugin at it (`IObjectStore.clusterParameters()`) are added to
   * `parameters`. It must be in the Cluster's namespace.
   * @default - none: name it in `parameters` if the plugin needs one
   */
  readonly objectStore?: IObjectStore;
}

/**
 * A plugin as a Cluster uses it: what `PostgresCluster.plugins` returns.
 */
export interface ClusterPlugin {
  /** The plugin's name. */
  readonly pluginName: string;
  /** Whether the operator uses the plugin for this Cluster. */
  readonly enabled: boolean;
  /** Whether the plugin archives the WAL. */
  readonly isWalArchiver: boolean;
  /** The plugin's parameters (a copy). */
  readonly parameters: Record<string, string>;
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
   * The PostgreSQL image: `ClusterImage.fromName('ghcr.io/cloudnative-pg/postgresql:17.5')` or
   * `ClusterImage.fromCatalog({ name, major })`.
   * @default - not written: the operator's default image
   */
  readonly image?: ClusterImage;

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
   * Affinity and scheduling (`spec.affinity`), as the CRD defines it, written exactly as given.
   * @default - not written: CloudNativePG's preferred pod anti-affinity
   */
  readonly affinity?: ClusterSpecAffinity;

  /**
   * Everything else in the Cluster spec, typed by the generated CRD bindings and written exactly
   * as given (or refused). A field that has a typed prop or an `addXxx()` method is not part of
   * the type; from JavaScript it is an error naming the prop to use, as are
   * `postgresql.parameters` and `monitoring.enablePodMonitor`. `postgresql` and `monitoring`
   * are merged with their typed props.
   * @default - nothing else
   */
  readonly spec?: ClusterSpecPassthrough;
}

/** The spec fields a typed prop or a method writes, and where the user sets each of them instead. */
const MANAGED: Record<string, string> = {
  instances: 'the instances prop',
  storage: 'the storage prop',
  walStorage: 'the walStorage prop',
  imageName: 'the image prop (ClusterImage.fromName)',
  imageCatalogRef: 'the image prop (ClusterImage.fromCatalog)',
  bootstrap: 'the bootstrap prop (ClusterBootstrap)',
  replica: 'the replica prop',
  resources: 'the resources prop',
  affinity: 'the affinity prop',
  plugins: 'addPlugin()',
  externalClusters: 'addExternalCluster()',
};

/** Where an error about a rendered spec field points: the typed prop that wrote it, or `spec`. */
const PROP_OF_FIELD: Record<string, string> = {
  storage: 'storage',
  walStorage: 'walStorage',
  affinity: 'affinity',
  bootstrap: 'bootstrap',
  imageName: 'image',
  imageCatalogRef: 'image',
  externalClusters: 'externalClusters',
  plugins: 'plugins',
  instances: 'instances',
  replica: 'replica',
  resources: 'resources',
};

/**
 * The passthrough keys, sorted, then the managed ones, which are refused by {@link managedRules}
 * with the prop to use; the messages list them in this order.
 */
const PASSTHROUGH_SPEC: Readonly<Record<string, PropKind>> = Object.fromEntries(
  [...specKeys(CLUSTER_SPEC_PASSTHROUGH_SPEC), ...Object.keys(MANAGED)].map((k) => [k, Kind.any]),
);

/** The passthrough fields a typed prop or a method writes, nested ones last. */
function managedRules(spec: Record<string, unknown>): Rule[] {
  const nested = (section: string, field: string): unknown => {
    const v = spec[section];
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[field] : undefined;
  };
  return [
    ...Object.entries(MANAGED).map(([k, use]): Rule => [spec[k] !== undefined, `spec.${k}`, spec[k], 'is written by PostgresCluster', `use ${use} instead`]),
    ...(['postgresql.parameters', 'monitoring.enablePodMonitor'] as const).map((k): Rule => {
      const [section, field] = k.split('.');
      return [nested(section, field) !== undefined, `spec.${k}`, nested(section, field), 'is written by PostgresCluster', `use the ${k} prop instead`];
    }),
  ];
}

const STORAGE_SPEC: PropSpec<ClusterStorage> = {
  size: Kind.size(),
  // Written as given; the schema guard judges them at synth.
  storageClass: Kind.any,
  resizeInUseVolumes: Kind.any,
  pvcTemplate: Kind.any,
};
const STORAGE_PROPS = Kind.props(STORAGE_SPEC, { example: '{ size: Size.gibibytes(10) }' });

/**
 * The storage request of a PVC template as written: a string or a number, or a generated
 * quantity class (its `value`).
 */
function templateStorageRequest(template: unknown): unknown {
  const request = (template as { resources?: { requests?: Record<string, unknown> } } | undefined)?.resources?.requests?.storage;
  return request !== null && typeof request === 'object' && 'value' in request ? (request as { value: unknown }).value : request;
}

/**
 * A volume needs a size or a storage request in its template, as the Cluster webhook says
 * (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateStorageConfigurationSize:
 * no size and a zero or missing request is refused). A request that is no quantity is the
 * schema guard's to word.
 */
const STORAGE_KIND: PropKind = (s, p, v) => {
  const problem = STORAGE_PROPS(s, p, v);
  if (problem !== undefined || v === null || typeof v !== 'object') return problem;
  const storage = v as ClusterStorage;
  if (storage.size !== undefined) return undefined;
  const request = templateStorageRequest(storage.pvcTemplate);
  const parsed = parseQuantity(request);
  if (request !== undefined && (parsed === undefined || parsed.num !== 0n)) return undefined;
  return {
    prop: `${p}.size`,
    value: undefined,
    problem:
      request === undefined
        ? 'is missing, and pvcTemplate holds no storage request, so the Cluster webhook refuses the Cluster ("Size not configured")'
        : `is missing, and the storage request of pvcTemplate is ${JSON.stringify(request)}, which the Cluster webhook counts as none ("Size not configured")`,
    fix: "use Size.gibibytes(10), or a storage request in pvcTemplate (resources: { requests: { storage: '10Gi' } })",
  };
};

const REPLICA_SPEC: PropSpec<ClusterReplica> = {
  // A missing source, and the strings, are the schema guard's to judge at synth.
  source: Kind.evenMissing(Kind.any),
  enabled: Kind.any,
  primary: Kind.any,
  self: Kind.any,
  promotionToken: Kind.any,
  minApplyDelay: Kind.duration(),
};

const RESOURCES_SPEC: PropSpec<ClusterResources> = { cpu: Kind.any, memory: Kind.any };
const RESOURCE_KEYS = specKeys(RESOURCES_SPEC) as readonly ResourceKey[];

/** What each prop holds, in the order they are judged. */
const PROPS_SPEC: PropSpec<PostgresClusterProps> = {
  metadata: Kind.metadata,
  spec: (scope, prop, value) => {
    refuseFirst(
      scope,
      managedRules(checkProps<Record<string, unknown> | undefined>(scope, prop, value, PASSTHROUGH_SPEC, { optional: true, listKeys: 'declared' }) ?? {}),
    );
    return undefined;
  },
  image: Kind.factory(ClusterImage),
  bootstrap: Kind.factory(ClusterBootstrap),
  postgresql: Kind.props<PostgresqlConfiguration>({ parameters: Kind.stringMap }, { optional: true }),
  monitoring: Kind.props<ClusterMonitoring>({ enablePodMonitor: Kind.json }, { optional: true }),
  storage: Kind.evenMissing(STORAGE_KIND),
  walStorage: STORAGE_KIND,
  replica: Kind.props(REPLICA_SPEC, { required: ['source'] }),
  resources: Kind.resources(RESOURCE_KEYS),
  // Written as given; the schema guard judges them at synth.
  instances: Kind.any,
  affinity: Kind.any,
};

const REFERENCE_SPEC: PropSpec<ClusterReferenceOptions> = {
  // Written as given, like the string form; an object in another namespace is refused by resolveBackupCluster.
  namespace: Kind.string("pass the Cluster's namespace, e.g. 'db'"),
  external: Kind.boolean,
};

const PLUGIN_SPEC: PropSpec<ClusterPluginOptions> = {
  enabled: Kind.json,
  isWalArchiver: Kind.json,
  parameters: Kind.stringMap,
  // Linked by linkObjectStore, which needs the Cluster's namespace and the parameters.
  objectStore: Kind.any,
};

interface Rendered {
  readonly version: number;
  readonly spec: CnpgClusterSpec;
  readonly json: Record<string, unknown>;
  readonly problem?: Problem;
}

interface PluginEntry {
  readonly pluginName: string;
  readonly enabled: boolean;
  readonly isWalArchiver: boolean;
  readonly parameters?: Record<string, string>;
  readonly objectStore?: IObjectStore;
}

// The webhook rules: the admission checks of src/checks/admission (cloudnative-pg v1.30.0
// internal/webhook/v1/cluster_webhook.go, after api/v1/cluster_defaults.go), run at synth.
/**
 * A CloudNativePG `Cluster` (`postgresql.cnpg.io/v1`) that uses CNPG-I plugins.
 *
 * Typed props cover what most Clusters set; `spec` passes the rest of the CRD through.
 * Plugins, external clusters, backups and scheduled backups are added with methods, and
 * everything is rendered at synth so later additions appear. The rendered Cluster is checked
 * against the CRD schema and its CEL rules at synth, then as CloudNativePG's admission judges
 * it after its defaulting webhook (the checks the doctor runs: one WAL archiver, no archiver
 * plugin beside `spec.backup.barmanObjectStore`, a source for every external cluster, distinct
 * external cluster names, sources that name an external cluster, a replica cluster created from
 * pg_basebackup or recovery...); rules the operator does not make (a plugin added twice, a
 * backup through a plugin the Cluster does not enable) are library errors too.
 */
export class PostgresCluster extends Construct implements IPostgresCluster, IPluginCluster {
  /**
   * A Cluster referred to by name: for Backups, ScheduledBackups, Databases and Poolers of a
   * Cluster managed elsewhere. Nothing about it can be checked but the name (a DNS-1035 label of
   * at most 50 characters) and, at synth, that it is not a misspelling of a `PostgresCluster` of
   * the app in the same namespace (`ordres` next to `orders` is refused with the nearest name);
   * declare a Cluster that is really managed elsewhere with `{ external: true }`.
   * @param name the Cluster's `metadata.name`
   * @param options the Cluster's namespace (a string is the namespace), and whether it is external;
   *   no namespace follows the chart of whatever refers to it
   */
  public static fromClusterName(name: string, options?: string | ClusterReferenceOptions): IPostgresCluster {
    const where = 'PostgresCluster.fromClusterName';
    if (typeof name !== 'string' || !CLUSTER_NAME_RULE.test(name)) {
      invalid(where, 'name', name, `is not a Cluster name: it must be ${CLUSTER_NAME_RULE.describe}`, 'pass the metadata.name of the Cluster');
    }
    const o: ClusterReferenceOptions =
      typeof options === 'string' ? { namespace: options } : (checkProps(where, 'options', options, REFERENCE_SPEC, { optional: true }) ?? {});
    const ref: IPostgresCluster = o.namespace === undefined ? { name } : { name, namespace: o.namespace };
    if (o.external === true) markExternal(ref);
    return ref;
  }

  /** The Cluster's `metadata.name`. Backups and the other objects of the Cluster refer to it. */
  public readonly name: string;
  /**
   * The Cluster object, holding exactly the JSON this construct writes; use `addJsonPatch` on
   * it as the last-resort escape hatch.
   */
  public readonly apiObject: ApiObject;

  private readonly passthrough: Record<string, unknown>;
  private readonly fixedSpec: CnpgClusterSpec;
  private readonly pluginEntries: PluginEntry[] = [];
  private readonly externalClusters: CnpgExternalCluster[] = [];
  private readonly managedRoles: Array<Record<string, unknown>> = [];
  private rendered?: Rendered;
  private version = 0;

  public constructor(scope: Construct, id: string, props: PostgresClusterProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['storage'] });
    if (p.replica !== undefined && p.bootstrap?._source?.replica !== undefined) {
      invalid(
        this,
        'replica',
        p.replica,
        'is given together with ClusterBootstrap.replicaOfCluster(), which writes spec.replica',
        'leave the replica prop out (replicaOfCluster takes minApplyDelay), or bootstrap with recoveryFromCluster() and keep the replica prop',
      );
    }
    const metadata = writtenMetadata(p.metadata);
    // A pinned name that is not a Cluster name is the schema guard's (cloudnative-pg v1.30.0
    // internal/webhook/v1/cluster_webhook.go validateName); a default one is refused about the id.
    this.name = metadata.name ?? nameFromId(this, CLUSTER_NAME_RULE);
    this.passthrough = { ...p.spec };
    const parameters = p.postgresql?.parameters;
    const pt = this.passthrough as Partial<CnpgClusterSpec>;
    this.fixedSpec = {
      instances: p.instances ?? 1,
      storage: renderStorage(p.storage),
      walStorage: p.walStorage === undefined ? undefined : renderStorage(p.walStorage),
      ...p.image?._spec,
      postgresql: mergeSection<CnpgClusterSpecPostgresql>(pt.postgresql, { parameters: parameters === undefined ? undefined : { ...parameters } }),
      bootstrap: p.bootstrap?._spec,
      replica: p.replica === undefined ? p.bootstrap?._source?.replica : renderReplica(p.replica),
      monitoring: mergeSection<CnpgClusterSpecMonitoring>(pt.monitoring, { enablePodMonitor: p.monitoring?.enablePodMonitor }),
      resources: resourcesOf(this, 'resources', p.resources, RESOURCE_KEYS) as CnpgClusterSpecResources | undefined,
      affinity: p.affinity,
    };

    // A plain ApiObject holding the JSON rendered (and checked) once per set of additions: the
    // generated class would convert the spec again at every rendering, and crash on a value of
    // the wrong type before any check could name it.
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: CnpgCluster.GVK.apiVersion,
      kind: CnpgCluster.GVK.kind,
      metadata: { ...metadata, name: this.name },
      spec: Lazy.any({ produce: () => this.render().json }),
    });
    bindCluster(this, {
      construct: this,
      apiObject: this.apiObject,
      plugins: () => this.pluginEntries,
      json: () => this.written(),
      deriveExternalCluster: (name, spec) => this.deriveExternalCluster(name, spec),
    });
    guardAndCheck(this, 'Cluster', this.apiObject, () => this.checkAtSynth());
    const catalog = p.image?._catalog;
    const namespace = this.namespace ?? Chart.of(this).namespace;
    if (catalog && catalog.namespace !== namespace) {
      // CloudNativePG v1.30.0 pkg/utils/imagecatalog/catalog.go Get: the ImageCatalog is read from the Cluster's namespace
      invalid(
        this,
        'image',
        p.image!._spec.imageCatalogRef!.name,
        `names an ImageCatalog of namespace ${catalog.namespace === undefined ? '(none: its chart sets no namespace)' : `'${catalog.namespace}'`} (${catalog.path}); the operator reads an ImageCatalog from the Cluster's namespace, ${namespace === undefined ? '(none: its chart sets no namespace)' : `'${namespace}'`}, and stops the Cluster with "catalog not found"`,
        `add an ImageCatalog in the Cluster's namespace, or use a ClusterImageCatalog, which every namespace can name`,
      );
    }

    const source = p.bootstrap?._source;
    if (source) this.addExternalCluster(source.name, source.source);
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
   *
   * The plugin writes what else enabling it takes ({@link IPlugin.bindToCluster}): with a
   * `ScaleToZeroPlugin` this is `scaleToZero.enable(cluster)` with the default inactivity. A
   * Scale-to-Zero plugin deployed otherwise (a `PluginManifest`, `Plugin.fromPluginName`) is
   * refused at synth unless the Cluster carries the `xata.io/scale-to-zero-enabled` annotation
   * its sidecar reads; a Barman Cloud `BarmanCloudPlugin` is refused at synth when the Cluster
   * names no ObjectStore for it.
   */
  public addPlugin(plugin: IPlugin, options: ClusterPluginOptions = {}): void {
    checkValue(this, 'plugin', plugin, PLUGIN_KIND);
    const pluginName = plugin.pluginName;
    const at = `plugins[${pluginName}]`;
    const o = checkProps(this, at, options, PLUGIN_SPEC, { optional: true }) ?? {};
    const given = o.parameters === undefined ? undefined : { ...o.parameters };
    const entry: PluginEntry = {
      pluginName,
      enabled: o.enabled ?? true,
      isWalArchiver: o.isWalArchiver ?? false,
      parameters: linkObjectStore(this, `${at}.objectStore`, given, o.objectStore, this.namespace),
      objectStore: o.objectStore,
    };
    // One enabled WAL archiver, none beside spec.backup.barmanObjectStore (cloudnative-pg v1.30.0
    // internal/webhook/v1/cluster_webhook.go validatePluginConfiguration); the webhook does not
    // refuse the same plugin twice.
    const archiving = entry.enabled === true && entry.isWalArchiver === true;
    const archiver = archiving ? this.pluginEntries.find((e) => e.enabled && e.isWalArchiver) : undefined;
    refuseFirst(this, [
      [this.pluginEntries.some((e) => e.pluginName === pluginName), at, pluginName, 'is added twice', 'add each plugin once, with all its parameters'],
      [
        archiver !== undefined,
        `${at}.isWalArchiver`,
        true,
        `is already set by plugin '${archiver?.pluginName}'`,
        'CloudNativePG allows one WAL archiver per Cluster',
      ],
      [
        archiving && (this.passthrough.backup as { barmanObjectStore?: unknown } | undefined)?.barmanObjectStore !== undefined,
        `${at}.isWalArchiver`,
        true,
        'is set while spec.backup.barmanObjectStore is set',
        'CloudNativePG allows one way of archiving WAL per Cluster: remove spec.backup.barmanObjectStore or set isWalArchiver: false',
      ],
    ]);
    // The plugin writes what else it needs on this Cluster (annotations, RBAC), or refuses.
    if (typeof plugin.bindToCluster === 'function') {
      plugin.bindToCluster(this, {
        enabled: entry.enabled,
        isWalArchiver: entry.isWalArchiver,
        ...(entry.parameters === undefined ? {} : { parameters: { ...entry.parameters } }),
      });
    }
    this.pluginEntries.push(entry);
    this.version++;
  }

  /**
   * Describes another cluster (`spec.externalClusters[]`) that this Cluster can recover from or
   * replicate from, by name: `ExternalClusterSource.fromPlugin(...)`, `.fromConnection(...)` or
   * `.fromBarmanObjectStore(...)`. Names must be unique.
   */
  public addExternalCluster(name: string, source: ExternalClusterSource): void {
    checkValue(this, 'externalClusters', name, EXTERNAL_CLUSTER_NAME_KIND);
    checkValue(this, `externalClusters[${name}]`, source, Kind.factory(ExternalClusterSource));
    // The Cluster webhook refuses duplicate names (cloudnative-pg v1.30.0
    // internal/webhook/v1/cluster_webhook.go validateExternalClusters).
    if (this.externalClusters.some((c) => c.name === name)) {
      invalid(this, 'externalClusters', name, 'is added twice', 'give each external cluster a unique name');
    }
    const spec = source._spec;
    this.externalClusters.push({
      name,
      ...spec,
      plugin: spec.plugin && {
        ...spec.plugin,
        parameters: linkObjectStore(this, `externalClusters[${name}].objectStore`, spec.plugin.parameters, source._objectStore, this.namespace),
      },
    });
    this.version++;
  }

  /** The external cluster of a Subscription's publisher: added once, shared by the subscriptions that derive the same one. */
  private deriveExternalCluster(name: string, spec: Readonly<Record<string, unknown>>): 'added' | 'same' | 'different' {
    const existing = this.externalClusters.find((c) => c.name === name);
    if (existing !== undefined) return JSON.stringify(existing) === JSON.stringify({ name, ...spec }) ? 'same' : 'different';
    this.externalClusters.push({ name, ...spec });
    this.version++;
    return 'added';
  }

  /**
   * Adds an on-demand `Backup` of this Cluster through a plugin, in the Cluster's namespace.
   * The plugin must be enabled on this Cluster by synth time.
   */
  public addBackup(id: string, options: PluginBackupOptions): PluginBackup {
    this.refuseTakenId(id, 'Backup');
    return new PluginBackup(this, id, { ...options, cluster: this });
  }

  /**
   * Adds a `ScheduledBackup` of this Cluster through a plugin, in the Cluster's namespace.
   * The plugin must be enabled on this Cluster by synth time.
   */
  public addScheduledBackup(id: string, options: PluginScheduledBackupOptions): PluginScheduledBackup {
    this.refuseTakenId(id, 'ScheduledBackup');
    return new PluginScheduledBackup(this, id, { ...options, cluster: this });
  }

  /**
   * The objects added to this Cluster (backups, databases, roles, poolers) share its construct
   * scope, so an id names one of them only: `addDatabaseRole('app')` then `addDatabase('app', ...)`
   * is refused here with the way out, rather than by the constructs library's generic message.
   */
  private refuseTakenId(id: string, kind: string, nameProp?: string): void {
    const taken = typeof id === 'string' ? this.node.tryFindChild(id) : undefined;
    if (taken === undefined) return;
    // the kind of the object it writes (the class name does not survive every bundler)
    const written = (taken as { apiObject?: { kind?: unknown } }).apiObject?.kind;
    const what = typeof written === 'string' ? `the ${written}` : 'the construct';
    invalid(
      this,
      'id',
      id,
      `is already the id of ${what} ${taken.node.path}: the objects added to a Cluster share its scope, and an id names one of them`,
      `give the ${kind} another id, e.g. '${id}-${kind.toLowerCase()}'${nameProp === undefined ? '' : `, and keep its name in PostgreSQL with ${nameProp}: '${id}'`}`,
    );
  }

  // --- Objects of this Cluster's other CloudNativePG kinds (issue 33) ---

  /**
   * Adds a `Database` of this Cluster, in the Cluster's namespace: by default the database is
   * named after `id`, and the object `<cluster name>-<id>`.
   */
  public addDatabase(id: string, options: DatabaseOptions): Database {
    this.refuseTakenId(id, 'Database', 'databaseName');
    return new Database(this, id, { ...options, cluster: this });
  }

  /**
   * Adds a `DatabaseRole` of this Cluster, in the Cluster's namespace: by default the role is
   * named after `id`, and the object `<cluster name>-<id>`.
   */
  public addDatabaseRole(id: string, options: DatabaseRoleOptions = {}): DatabaseRole {
    this.refuseTakenId(id, 'DatabaseRole', 'roleName');
    return new DatabaseRole(this, id, { ...options, cluster: this });
  }

  /**
   * Adds a PgBouncer `Pooler` in front of this Cluster, in the Cluster's namespace, named
   * `<cluster name>-pooler-<id>` by default; applications connect to its `serviceName`.
   */
  public addPooler(id: string, options: PoolerOptions = {}): Pooler {
    this.refuseTakenId(id, 'Pooler');
    return new Pooler(this, id, { ...options, cluster: this });
  }

  /**
   * Manages a role in the Cluster's `spec.managed.roles`, after any the `spec` passthrough
   * declares: the instance manager of the primary creates it and keeps its attributes, its
   * memberships and its password (from a `kubernetes.io/basic-auth` Secret) in step. What the
   * Cluster webhook refuses about a role is refused here: a reserved name (`postgres`,
   * `streaming_replica`, `pg_*`, `cnpg_*`), a name declared twice, a password both set and
   * disabled, a connection limit below -1. A role managed here and by a `DatabaseRole` is refused
   * at synth. Removing a role from the list leaves it in PostgreSQL; `ensure: ABSENT` drops it.
   * @param name the role's name inside PostgreSQL
   */
  public addManagedRole(name: string, options: ManagedRoleOptions = {}): void {
    this.managedRoles.push(managedRoleEntry(this, name, options, this.managedRoleNames));
    this.version++;
  }

  /** The names of the roles of `spec.managed.roles`, those of the `spec` passthrough first. */
  public get managedRoleNames(): string[] {
    const declared = (this.passthrough.managed as CnpgClusterSpecManaged | undefined)?.roles;
    return [...(Array.isArray(declared) ? declared : []), ...this.managedRoles]
      .map((r: { readonly name?: unknown } | undefined) => r?.name)
      .filter((n): n is string => typeof n === 'string');
  }

  /**
   * Adds a logical replication `Publication` in a database of this Cluster, in the Cluster's
   * namespace: by default the publication is named after `id`, and the object
   * `<cluster name>-<id>`. Another Cluster subscribes to it with `addSubscription`.
   */
  public addPublication(id: string, options: PublicationOptions): Publication {
    this.refuseTakenId(id, 'Publication', 'publicationName');
    return new Publication(this, id, { ...options, cluster: this });
  }

  /**
   * Adds a `Subscription` of this Cluster to a `Publication` of another Cluster of the app, in
   * this Cluster's namespace: by default the subscription is named after `id`, the object
   * `<cluster name>-<id>`, and the publisher becomes the external cluster named after it.
   */
  public addSubscription(id: string, options: SubscriptionOptions): Subscription {
    this.refuseTakenId(id, 'Subscription', 'subscriptionName');
    return new Subscription(this, id, { ...options, cluster: this });
  }

  /**
   * Checks that depend on additions made after construction; run at synth: what the rendering
   * could not write, else the mistakes the doctor would report in the synthesized Cluster (what
   * CloudNativePG's admission refuses, src/checks/admission, after its defaulting; Barman Cloud's
   * parameters), judged the doctor's way.
   */
  private checkAtSynth(): void {
    const { json, problem } = this.render();
    if (problem !== undefined) refuseProblem(this, problem);
    // The app's reading of this Cluster, shared with the checks that compare the app's Clusters.
    const mistake = clusterMistake(this, appArchives(this).json.get(this) ?? this.written());
    refuseProblem(this, mistake && { ...mistake, prop: writtenBy(mistake.prop, json) });
  }

  /** The Cluster as written: its metadata and the rendered spec (without the fields the rendering could not write). */
  private written(): Json {
    const metadata = this.apiObject.metadata.toJson() as Record<string, unknown>;
    return { apiVersion: this.apiObject.apiVersion, kind: this.apiObject.kind, metadata, spec: this.render().json };
  }

  /**
   * The spec and its JSON, rendered once per set of additions (the checks, the schema guard and
   * the output share them). A field the generated bindings would drop, change or fail on is
   * left out of the JSON and kept as the problem that the synth-time check reports.
   */
  private render(): Rendered {
    if (this.rendered?.version === this.version) return this.rendered;
    const spec = this.renderSpec();
    // One conversion of the whole spec; only when it throws is each field converted alone, to
    // name the one that fails.
    const whole = convertWhole(spec);
    const json: Record<string, unknown> = {};
    let problem: Problem | undefined;
    for (const [field, value] of Object.entries(spec)) {
      if (value === undefined) continue;
      const prop = PROP_OF_FIELD[field] ?? `spec.${field}`;
      let key = CLUSTER_SPEC_KEYS.get(field);
      let written: unknown;
      if (whole !== undefined && key !== undefined) {
        written = whole[key];
      } else {
        const out = convertField('ClusterSpec', field, value, prop);
        if ('failed' in out) {
          problem ??= {
            prop: out.failed,
            value: out.value,
            problem: 'cannot be written: the generated bindings expect another type here',
            fix: 'check the type against the CRD (a list, an object, a string...)',
          };
          continue;
        }
        key = Object.keys(out.json)[0];
        if (key === undefined) continue;
        CLUSTER_SPEC_KEYS.set(field, key);
        written = out.json[key];
      }
      const lost = jsonProblem(value, prop, { written });
      if (lost === undefined) json[key] = written;
      problem ??= lost;
    }
    if (this.managedRoles.length > 0) addManagedRoles(json, this.managedRoles);
    this.rendered = { version: this.version, spec, json, problem };
    return this.rendered;
  }

  /** The spec in the generated TypeScript shape, before conversion. */
  private renderSpec(): CnpgClusterSpec {
    const plugins = this.pluginEntries.map((e) => ({
      name: e.pluginName,
      enabled: e.enabled,
      isWalArchiver: e.isWalArchiver,
      parameters: e.parameters === undefined ? undefined : { ...e.parameters },
    }));
    return wrapValues(
      {
        ...this.passthrough,
        ...this.fixedSpec,
        plugins: plugins.length ? plugins : undefined,
        externalClusters: this.externalClusters.length ? this.externalClusters.map((c) => ({ ...c })) : undefined,
      },
      'ClusterSpec',
    ) as CnpgClusterSpec;
  }
}

/**
 * Appends the roles of addManagedRole, written as JSON (a `validUntil` as Kubernetes stores a
 * time, which the generated bindings cannot write), to the `spec.managed.roles` of the rendered
 * passthrough. A section that is not an object, or roles that are no list, are left as given for
 * the checks to refuse.
 */
function addManagedRoles(json: Record<string, unknown>, roles: ReadonlyArray<Record<string, unknown>>): void {
  const given = json.managed as { roles?: unknown } | undefined;
  if (
    given !== undefined &&
    (given === null || typeof given !== 'object' || Array.isArray(given) || (given.roles !== undefined && !Array.isArray(given.roles)))
  )
    return;
  json.managed = { ...given, roles: [...((given?.roles as unknown[] | undefined) ?? []), ...roles.map((r) => ({ ...r }))] };
}

/** `spec.storage` or `spec.walStorage` from its checked prop. */
function renderStorage(s: ClusterStorage): CnpgClusterSpecStorage {
  return {
    size: s.size === undefined ? undefined : renderQuantity(s.size),
    storageClass: s.storageClass,
    resizeInUseVolumes: s.resizeInUseVolumes,
    pvcTemplate: s.pvcTemplate,
  };
}

/** `spec.replica` from its checked prop. */
function renderReplica(r: ClusterReplica): CnpgClusterSpecReplica {
  return {
    source: r.source,
    enabled: r.enabled,
    primary: r.primary,
    self: r.self,
    promotionToken: r.promotionToken,
    minApplyDelay: r.minApplyDelay === undefined ? undefined : renderDuration(r.minApplyDelay),
  };
}

/** The JSON key the generated bindings write each ClusterSpec field under (`enablePdb` is `enablePDB`), learnt from the first conversion of the field. */
const CLUSTER_SPEC_KEYS = new Map<string, string>();

/** The whole spec converted by the generated bindings, or undefined when they throw on a field. */
function convertWhole(spec: CnpgClusterSpec): Record<string, unknown> | undefined {
  try {
    return toJson_ClusterSpec(spec) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Merges a typed prop into its passthrough section; undefined when both are empty. */
function mergeSection<T extends object>(passthrough: T | undefined, typed: Partial<T>): T | undefined {
  const set = Object.entries(typed).filter(([, v]) => v !== undefined);
  // A section that is not an object is left as given, for the checks to refuse.
  if (set.length === 0 || (passthrough !== undefined && (passthrough === null || typeof passthrough !== 'object' || Array.isArray(passthrough))))
    return passthrough;
  return { ...passthrough, ...Object.fromEntries(set) } as T;
}

/** The typed props of a PostgresCluster, by the `spec` field each writes. */
const TYPED_SPEC_FIELDS: Readonly<Record<string, string>> = {
  instances: 'instances',
  storage: 'storage',
  walStorage: 'walStorage',
  imageName: 'image',
  imageCatalogRef: 'image',
  postgresql: 'postgresql',
  bootstrap: 'bootstrap',
  replica: 'replica',
  monitoring: 'monitoring',
  resources: 'resources',
  affinity: 'affinity',
};

/**
 * The prop a user wrote for a field of the rendered Cluster, for an error found in the rendered
 * object (CloudNativePG's admission, Barman Cloud's checks): a typed prop names its own path
 * (`spec.storage.size` is `storage.size`, `spec.imageName` is `image`), a plugin or an external
 * cluster its `addPlugin` / `addExternalCluster` entry by name (`plugins[<name>]...`), and a
 * field of the `spec` passthrough or of `metadata` keeps its path.
 */
function writtenBy(path: string, spec: Record<string, unknown>): string {
  const m = /^spec\.([A-Za-z]+)(.*)$/.exec(path);
  if (m === null) return path;
  const [, field, rest] = m;
  const prop = TYPED_SPEC_FIELDS[field];
  if (prop === 'image') return prop;
  if (prop !== undefined) return `${prop}${rest}`;
  const entry = /^\[(\d+)\](.*)$/.exec(rest);
  if ((field === 'plugins' || field === 'externalClusters') && entry !== null) {
    const item = (spec[field] as Array<{ readonly name?: unknown }> | undefined)?.[Number(entry[1])];
    if (typeof item?.name === 'string') return `${field}[${item.name}]${entry[2]}`;
  }
  return path;
}
