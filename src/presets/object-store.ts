import { ApiObject, ApiObjectMetadata, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ObjectStore as CnpgObjectStore } from '../../imports/barmancloud.cnpg.io';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropKind, PropSpec, checkProps, refuseFirst } from '../common/props';
import { resourcesOf } from '../common/resources';
import { SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { invalid } from '../manifests/errors';
import { SECRET_KEY_REFERENCE_KIND, guardAndCheck, secretKeyReferenceOf } from '../postgres/internal';
import { IObjectStore } from '../postgres/object-store-link';
import { SecretKeyReference } from '../postgres/secret-key-reference';
import { PluginLogLevel } from './log-level';

/**
 * The Cluster plugin parameters that point Barman Cloud at the ObjectStore `name`, which it looks
 * up in the Cluster's namespace (plugin-barman-cloud v0.14.0
 * internal/cnpgi/operator/config/config.go NewFromCluster, GetBarmanObjectKey).
 */
function barmanCloudParameters(name: string): Record<string, string> {
  return { barmanObjectName: name };
}

/**
 * The parameters that point a recovery or a replica at what a Cluster named `clusterName`
 * archives with `archiverParameters`: the server name it archives under, which is its
 * `serverName` parameter, else its own name. A recovery or replica source without `serverName`
 * would read the recovering Cluster's name instead (plugin-barman-cloud v0.14.0
 * internal/cnpgi/operator/config/config.go NewFromCluster), so it is always written.
 */
function barmanCloudArchiveParameters(clusterName: string, archiverParameters: Record<string, string>): Record<string, string> {
  return { serverName: archiverParameters.serverName ?? clusterName };
}

/** An ObjectStore managed elsewhere, known by name (and namespace, when given). */
class ObjectStoreReference implements IObjectStore {
  public constructor(
    public readonly name: string,
    public readonly namespace?: string,
  ) {}

  public clusterParameters(): Record<string, string> {
    return barmanCloudParameters(this.name);
  }

  public archiveParameters(clusterName: string, archiverParameters: Record<string, string>): Record<string, string> {
    return barmanCloudArchiveParameters(clusterName, archiverParameters);
  }
}

/**
 * A reference a credentials factory requires: the CRD types every reference as optional, so one
 * left out is refused here, as null.
 */
const REQUIRED_REFERENCE: PropKind = Kind.evenMissing((s, p, v) => SECRET_KEY_REFERENCE_KIND(s, p, v ?? null));

/** A reference a credentials factory may take; null is left out, as undefined is. */
const OPTIONAL_REFERENCE: PropKind = (s, p, v) => (v === null ? undefined : SECRET_KEY_REFERENCE_KIND(s, p, v));

/** The object storage provider of a set of credentials. */
export enum ObjectStoreProvider {
  /** Amazon S3 and S3-compatible stores (MinIO, Ceph RGW...): `s3://` destinations. */
  S3 = 's3',
  /** Azure Blob Storage: `https://<account>.blob.core.windows.net/...` destinations. */
  AZURE = 'azure',
  /** Google Cloud Storage: `gs://` destinations. */
  GOOGLE = 'google',
}

/** Options of `ObjectStoreCredentials.s3AccessKeys()`. */
export interface S3AccessKeysOptions {
  /** The Secret key holding the access key id. */
  readonly accessKeyId: SecretKeyReference;
  /** The Secret key holding the secret access key. */
  readonly secretAccessKey: SecretKeyReference;
  /**
   * The Secret key holding a session token, for temporary credentials.
   * @default - no session token
   */
  readonly sessionToken?: SecretKeyReference;
  /**
   * The Secret key holding the region name.
   * @default - barman-cloud's region discovery (the bucket's region, or `endpointUrl`)
   */
  readonly region?: SecretKeyReference;
}

/** Options of `ObjectStoreCredentials.s3IamRole()`. */
export interface S3IamRoleOptions {
  /**
   * The Secret key holding the region name.
   * @default - barman-cloud's region discovery
   */
  readonly region?: SecretKeyReference;
}

/** Options of `ObjectStoreCredentials.azureStorageKey()`. */
export interface AzureStorageKeyOptions {
  /** The Secret key holding the storage account name. */
  readonly storageAccount: SecretKeyReference;
  /** The Secret key holding the storage account key. */
  readonly storageKey: SecretKeyReference;
}

/** Options of `ObjectStoreCredentials.azureSasToken()`. */
export interface AzureSasTokenOptions {
  /** The Secret key holding the storage account name. */
  readonly storageAccount: SecretKeyReference;
  /** The Secret key holding a shared access signature token. */
  readonly storageSasToken: SecretKeyReference;
}

/**
 * How Barman Cloud authenticates to the object store: exactly one provider and one way, made by
 * a factory. Secrets are referenced by key only, so no credential ends up in the YAML.
 */
export class ObjectStoreCredentials {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories =
    'a factory such as ObjectStoreCredentials.s3AccessKeys({ accessKeyId, secretAccessKey }) or ObjectStoreCredentials.s3IamRole()';

  /** Amazon S3 (or S3-compatible) access keys read from Secrets. */
  public static s3AccessKeys(options: S3AccessKeysOptions): ObjectStoreCredentials {
    return ObjectStoreCredentials.of<S3AccessKeysOptions>(
      's3AccessKeys',
      ObjectStoreProvider.S3,
      's3Credentials',
      options,
      { accessKeyId: REQUIRED_REFERENCE, region: OPTIONAL_REFERENCE, secretAccessKey: REQUIRED_REFERENCE, sessionToken: OPTIONAL_REFERENCE },
      ['accessKeyId', 'secretAccessKey'],
    );
  }

  /** The IAM role bound to the instance pods (IRSA, EKS Pod Identity) instead of keys (`inheritFromIAMRole`). */
  public static s3IamRole(options: S3IamRoleOptions = {}): ObjectStoreCredentials {
    return ObjectStoreCredentials.of<S3IamRoleOptions>('s3IamRole', ObjectStoreProvider.S3, 's3Credentials', options, { region: OPTIONAL_REFERENCE }, [], {
      inheritFromIAMRole: true,
    });
  }

  /** An Azure storage connection string read from a Secret. */
  public static azureConnectionString(connectionString: SecretKeyReference): ObjectStoreCredentials {
    return ObjectStoreCredentials.of(
      'azureConnectionString',
      ObjectStoreProvider.AZURE,
      'azureCredentials',
      { connectionString },
      { connectionString: REQUIRED_REFERENCE },
      ['connectionString'],
    );
  }

  /** An Azure storage account and its key, read from Secrets. */
  public static azureStorageKey(options: AzureStorageKeyOptions): ObjectStoreCredentials {
    return ObjectStoreCredentials.of<AzureStorageKeyOptions>(
      'azureStorageKey',
      ObjectStoreProvider.AZURE,
      'azureCredentials',
      options,
      { storageAccount: REQUIRED_REFERENCE, storageKey: REQUIRED_REFERENCE },
      ['storageAccount', 'storageKey'],
    );
  }

  /** An Azure storage account and a shared access signature token, read from Secrets. */
  public static azureSasToken(options: AzureSasTokenOptions): ObjectStoreCredentials {
    return ObjectStoreCredentials.of<AzureSasTokenOptions>(
      'azureSasToken',
      ObjectStoreProvider.AZURE,
      'azureCredentials',
      options,
      { storageAccount: REQUIRED_REFERENCE, storageSasToken: REQUIRED_REFERENCE },
      ['storageAccount', 'storageSasToken'],
    );
  }

  /** Azure AD workload identity of the instance pods, without keys (`inheritFromAzureAD`). */
  public static azureWorkloadIdentity(): ObjectStoreCredentials {
    return ObjectStoreCredentials.of('azureWorkloadIdentity', ObjectStoreProvider.AZURE, 'azureCredentials', {}, {}, [], { inheritFromAzureAD: true });
  }

  /** The default Azure credential chain (`useDefaultAzureCredentials`: environment, managed identity...). */
  public static azureDefaultCredentials(): ObjectStoreCredentials {
    return ObjectStoreCredentials.of('azureDefaultCredentials', ObjectStoreProvider.AZURE, 'azureCredentials', {}, {}, [], {
      useDefaultAzureCredentials: true,
    });
  }

  /** A Google service account JSON key file read from a Secret. */
  public static googleApplicationCredentials(applicationCredentials: SecretKeyReference): ObjectStoreCredentials {
    return ObjectStoreCredentials.of(
      'googleApplicationCredentials',
      ObjectStoreProvider.GOOGLE,
      'googleCredentials',
      { applicationCredentials },
      { applicationCredentials: REQUIRED_REFERENCE },
      ['applicationCredentials'],
    );
  }

  /** The GKE workload identity of the instance pods (`gkeEnvironment`). */
  public static gkeWorkloadIdentity(): ObjectStoreCredentials {
    return ObjectStoreCredentials.of('gkeWorkloadIdentity', ObjectStoreProvider.GOOGLE, 'googleCredentials', {}, {}, [], { gkeEnvironment: true });
  }

  /** The credentials of one factory, whose `spec` lists the references in the order they are written. */
  private static of<T extends object>(
    factory: string,
    provider: ObjectStoreProvider,
    field: string,
    options: T,
    spec: PropSpec<T>,
    required: ReadonlyArray<keyof T & string>,
    flags: Record<string, boolean> = {},
  ): ObjectStoreCredentials {
    const o = checkProps(`ObjectStoreCredentials.${factory}`, 'options', options, spec, { required }) as Record<string, SecretKeyReference | null | undefined>;
    const refs = Object.keys(spec)
      .map((k) => [k, secretKeyReferenceOf(o[k] ?? undefined)] as const)
      .filter(([, v]) => v !== undefined);
    return new ObjectStoreCredentials(provider, { [field]: { ...Object.fromEntries(refs), ...flags } });
  }

  /** The provider these credentials are for. */
  public readonly provider: ObjectStoreProvider;
  /** @internal */
  public readonly _json: Record<string, unknown>;

  private constructor(provider: ObjectStoreProvider, json: Record<string, unknown>) {
    this.provider = provider;
    this._json = json;
  }
}

/** How barman-cloud compresses WAL files before upload (wire values of `wal.compression`). */
export enum WalCompression {
  /** bzip2 */
  BZIP2 = 'bzip2',
  /** gzip */
  GZIP = 'gzip',
  /** lz4 */
  LZ4 = 'lz4',
  /** snappy */
  SNAPPY = 'snappy',
  /** xz */
  XZ = 'xz',
  /** zstd */
  ZSTD = 'zstd',
}

/** How barman-cloud compresses base backups while streaming them (wire values of `data.compression`). */
export enum DataCompression {
  /** bzip2 */
  BZIP2 = 'bzip2',
  /** gzip */
  GZIP = 'gzip',
  /** lz4 */
  LZ4 = 'lz4',
  /** snappy */
  SNAPPY = 'snappy',
}

/** Server-side encryption barman-cloud asks the object store for (S3 wire values). */
export enum ObjectStoreEncryption {
  /** S3-managed keys. */
  AES256 = 'AES256',
  /** AWS KMS keys. */
  AWS_KMS = 'aws:kms',
}

/** Options for the WAL stream (`spec.configuration.wal`). */
export interface ObjectStoreWalOptions {
  /**
   * Compress each WAL file before upload.
   * @default - not set: WAL files are stored uncompressed
   */
  readonly compression?: WalCompression;
  /**
   * Force server-side encryption.
   * @default - not set: the bucket's policy applies
   */
  readonly encryption?: ObjectStoreEncryption;
  /**
   * How many WAL files are archived (or, on a standby, restored) in parallel.
   * @default - not set: one at a time
   */
  readonly maxParallel?: number;
  /**
   * Extra arguments appended to `barman-cloud-wal-archive`.
   * @default - none
   */
  readonly archiveAdditionalCommandArgs?: string[];
  /**
   * Extra arguments appended to `barman-cloud-wal-restore`.
   * @default - none
   */
  readonly restoreAdditionalCommandArgs?: string[];
}

/** Options for base backups (`spec.configuration.data`). */
export interface ObjectStoreDataOptions {
  /**
   * Compress each tablespace tar while streaming it.
   * @default - not set: base backups are stored uncompressed
   */
  readonly compression?: DataCompression;
  /**
   * Force server-side encryption.
   * @default - not set: the bucket's policy applies
   */
  readonly encryption?: ObjectStoreEncryption;
  /**
   * Parallel upload jobs.
   * @default - not set: barman-cloud uses 2
   */
  readonly jobs?: number;
  /**
   * Start the backup with an immediate checkpoint instead of a spread one.
   * @default - not set: a spread checkpoint (`checkpoint_completion_target`)
   */
  readonly immediateCheckpoint?: boolean;
  /**
   * Extra arguments appended to `barman-cloud-backup`.
   * @default - none
   */
  readonly additionalCommandArgs?: string[];
  /**
   * Extra arguments appended to `barman-cloud-restore`.
   * @default - none
   */
  readonly restoreAdditionalCommandArgs?: string[];
}

/**
 * The Barman Cloud sidecar that the plugin injects into the instance pods of the Clusters
 * using this ObjectStore (`spec.instanceSidecarConfiguration`).
 */
export interface InstanceSidecarConfiguration {
  /**
   * Environment variables of the sidecar (e.g. `AWS_CA_BUNDLE`, proxy settings), in the order
   * given. Use `EnvValue.fromSecretValue` for anything secret.
   * @default - none
   */
  readonly env?: Record<string, kplus.EnvValue>;
  /**
   * CPU, memory and ephemeral storage of the sidecar; sizes are written as Kubernetes
   * quantities in the largest binary unit that keeps them whole (`Size.gibibytes(1)` -> `1Gi`).
   * @default - not set: the plugin's own defaults
   */
  readonly resources?: kplus.ContainerResources;
  /**
   * The sidecar's log level.
   * @default - not set: the CRD defaults it to `info`
   */
  readonly logLevel?: PluginLogLevel;
  /**
   * How often the sidecar applies `retentionPolicy`. Whole seconds.
   * @default - not set: the CRD defaults it to 1800 seconds
   */
  readonly retentionPolicyInterval?: Duration;
  /**
   * Extra arguments appended to the sidecar's command line. `--log-level` is not allowed here
   * (the CRD rejects it): use `logLevel`.
   * @default - none
   */
  readonly additionalContainerArgs?: string[];
}

/** Props of {@link ObjectStore}. */
export interface ObjectStoreProps {
  /**
   * Where backups and WAL go: `s3://bucket/path` (also S3-compatible stores),
   * `gs://bucket/path`, or `https://<account>.blob.core.windows.net/<container>/path`, matching
   * the provider of `credentials`. Each Cluster writes below `<destinationPath>/<serverName>/`.
   */
  readonly destinationPath: string;
  /**
   * How Barman Cloud authenticates: one provider and one way, e.g.
   * `ObjectStoreCredentials.s3AccessKeys({ accessKeyId, secretAccessKey })` or
   * `ObjectStoreCredentials.s3IamRole()`.
   */
  readonly credentials: ObjectStoreCredentials;
  /**
   * The endpoint to use instead of the provider's default, e.g. `https://minio.minio:9000`.
   * @default - not set: the provider's endpoint
   */
  readonly endpointUrl?: string;
  /**
   * The Secret key holding the CA bundle that signed `endpointUrl`'s certificate.
   * @default - not set: the system trust store
   */
  readonly endpointCa?: SecretKeyReference;
  /**
   * WAL archiving options.
   * @default - not set: uncompressed, one file at a time, bucket encryption policy
   */
  readonly wal?: ObjectStoreWalOptions;
  /**
   * Base backup options.
   * @default - not set: uncompressed, 2 jobs, bucket encryption policy
   */
  readonly data?: ObjectStoreDataOptions;
  /**
   * How long backups and WAL are kept: a positive number and `d`, `w` or `m`
   * (`^[1-9][0-9]*[dwm]$`, checked by the CRD schema at synth), e.g. `30d`.
   * @default - not set: nothing is ever deleted
   */
  readonly retentionPolicy?: string;
  /**
   * Tags set on backup files (`--tags`).
   * @default - none
   */
  readonly tags?: Record<string, string>;
  /**
   * Tags set on history files (`--history-tags`).
   * @default - none
   */
  readonly historyTags?: Record<string, string>;
  /**
   * The sidecar the plugin injects into instance pods.
   * @default - not set: the plugin's defaults
   */
  readonly instanceSidecarConfiguration?: InstanceSidecarConfiguration;
  /**
   * Metadata of the ObjectStore. It must live in the namespace of the Clusters that use it.
   * @default - the construct id as the name (stable when the construct moves), the chart's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

// The WAL and data options are written as given, so the whole object must be plain JSON (not a
// Date or another class, whose fields would be lost); the schema guard judges them at synth.
const WAL_SPEC: PropSpec<ObjectStoreWalOptions> = {
  compression: Kind.any,
  encryption: Kind.any,
  maxParallel: Kind.any,
  archiveAdditionalCommandArgs: Kind.any,
  restoreAdditionalCommandArgs: Kind.any,
};
const DATA_SPEC: PropSpec<ObjectStoreDataOptions> = {
  compression: Kind.any,
  encryption: Kind.any,
  jobs: Kind.any,
  immediateCheckpoint: Kind.any,
  additionalCommandArgs: Kind.any,
  restoreAdditionalCommandArgs: Kind.any,
};
const SIDECAR_SPEC: PropSpec<InstanceSidecarConfiguration> = {
  logLevel: Kind.json,
  additionalContainerArgs: Kind.json,
  // A fraction of a second is written as such, and refused at synth by the schema guard: the
  // CRD field is an integer of seconds (plugin-barman-cloud v0.14.0 api/v1/objectstore_types.go
  // InstanceSidecarConfiguration, RetentionPolicyIntervalSeconds int).
  retentionPolicyInterval: Kind.duration('Duration.minutes(30)'),
  env: Kind.envVariables,
  resources: Kind.resources(),
};

/** What each prop holds, in the order they are judged. */
const PROPS_SPEC: PropSpec<ObjectStoreProps> = {
  credentials: Kind.evenMissing(Kind.factory(ObjectStoreCredentials)),
  metadata: Kind.metadata,
  // A missing destination is the schema guard's to report.
  destinationPath: Kind.evenMissing(Kind.json),
  endpointUrl: Kind.json,
  wal: Kind.jsonProps(WAL_SPEC),
  data: Kind.jsonProps(DATA_SPEC),
  retentionPolicy: Kind.json,
  tags: Kind.json,
  historyTags: Kind.json,
  endpointCa: SECRET_KEY_REFERENCE_KIND,
  instanceSidecarConfiguration: Kind.props(SIDECAR_SPEC, { optional: true }),
};

/** The destination URL each provider takes (Barman Cloud picks the provider from the credentials). */
const DESTINATIONS: Record<ObjectStoreProvider, [RegExp, string]> = {
  [ObjectStoreProvider.S3]: [/^s3:\/\/\S+$/i, "'s3://<bucket>/<path>' (S3-compatible stores too, with endpointUrl)"],
  [ObjectStoreProvider.GOOGLE]: [/^gs:\/\/\S+$/i, "'gs://<bucket>/<path>'"],
  [ObjectStoreProvider.AZURE]: [/^https?:\/\/\S+$/i, "'https://<account>.blob.core.windows.net/<container>/<path>'"],
};

/**
 * A Barman Cloud `ObjectStore` (`barmancloud.cnpg.io/v1`): where a Cluster archives WAL and
 * stores base backups through the Barman Cloud plugin, and how it authenticates.
 *
 * Credentials are references to Secret keys only, for one provider and one way to authenticate
 * (`ObjectStoreCredentials`). Clusters link the store with `addPlugin(barman, { objectStore })`
 * (the plugin parameter `barmanObjectName`); it must be in the Cluster's namespace (the plugin
 * looks it up there). The rendered object is checked against the ObjectStore CRD schema and its
 * CEL rules at synth.
 *
 * ```ts
 * const store = new ObjectStore(chart, 'store', {
 *   destinationPath: 's3://backups/pg',
 *   credentials: ObjectStoreCredentials.s3AccessKeys({
 *     accessKeyId: { name: 'aws-creds', key: 'ACCESS_KEY_ID' },
 *     secretAccessKey: { name: 'aws-creds', key: 'ACCESS_SECRET_KEY' },
 *   }),
 *   wal: { compression: WalCompression.GZIP },
 *   retentionPolicy: '30d',
 * });
 * ```
 */
export class ObjectStore extends Construct implements IObjectStore {
  /**
   * An ObjectStore managed elsewhere, by name, for Clusters and recoveries to link to.
   * @param name the ObjectStore's `metadata.name`
   * @param namespace its namespace, checked against the Cluster's when given
   */
  public static fromObjectStoreName(name: string, namespace?: string): IObjectStore {
    if (typeof name !== 'string' || !SUBDOMAIN_NAME_RULE('ObjectStore').test(name)) {
      invalid(
        'ObjectStore.fromObjectStoreName',
        'name',
        name,
        'is not an ObjectStore name (an RFC 1123 subdomain)',
        'pass the metadata.name of the ObjectStore',
      );
    }
    return new ObjectStoreReference(name, namespace);
  }

  /** The ObjectStore's `metadata.name`: the value of the Cluster plugin parameter `barmanObjectName`. */
  public readonly name: string;
  /** The ObjectStore's `spec.configuration.destinationPath`. */
  public readonly destinationPath: string;
  /**
   * The ObjectStore object (escape hatch: `apiObject.addJsonPatch(...)`). It is a plain
   * `ApiObject` holding exactly the JSON this construct writes.
   */
  public readonly apiObject: ApiObject;

  constructor(scope: Construct, id: string, props: ObjectStoreProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['destinationPath', 'credentials'] });
    this.destinationPath = p.destinationPath;
    const metadata = writtenMetadata(p.metadata);
    const { wal, data } = p;
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: CnpgObjectStore.GVK.apiVersion,
      kind: CnpgObjectStore.GVK.kind,
      metadata: { ...metadata, name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('ObjectStore')) },
      spec: {
        configuration: {
          destinationPath: p.destinationPath,
          endpointURL: p.endpointUrl,
          endpointCA: secretKeyReferenceOf(p.endpointCa),
          ...p.credentials._json,
          wal: wal && { ...wal },
          data: data && { ...data },
          tags: p.tags,
          historyTags: p.historyTags,
        },
        retentionPolicy: p.retentionPolicy,
        instanceSidecarConfiguration: this.renderSidecar(p.instanceSidecarConfiguration),
      },
    });
    this.name = this.apiObject.name;
    const credentials = p.credentials;
    guardAndCheck(this, 'ObjectStore', this.apiObject, () => {
      const [pattern, form] = DESTINATIONS[credentials.provider];
      refuseFirst(this, [
        [
          typeof p.destinationPath === 'string' && !pattern.test(p.destinationPath),
          'destinationPath',
          p.destinationPath,
          `is not a destination for ${credentials.provider} credentials`,
          `use ${form}`,
        ],
        [
          typeof p.endpointUrl === 'string' && !/^https?:\/\/\S+$/.test(p.endpointUrl),
          'endpointUrl',
          p.endpointUrl,
          'is not an http(s) URL',
          "use the endpoint's URL, e.g. 'https://minio.minio.svc:9000'",
        ],
      ]);
    });
  }

  /** The namespace of the ObjectStore: the chart's unless `metadata.namespace` is set. */
  public get namespace(): string | undefined {
    return this.apiObject.metadata.namespace;
  }

  /**
   * The Cluster plugin parameters that point Barman Cloud at this ObjectStore.
   *
   * `{ barmanObjectName: <name> }`: what the `objectStore` options of `addPlugin`,
   * `ExternalClusterSource.fromPlugin` and `ClusterBootstrap.recoveryFromPlugin` add.
   */
  public clusterParameters(): Record<string, string> {
    return barmanCloudParameters(this.name);
  }

  /**
   * The parameters, beside `clusterParameters()`, that point a recovery or a replica at what a
   * Cluster archives into this ObjectStore: `{ serverName }`, the Cluster's `serverName`
   * parameter, else its name. A recovery without `serverName` reads under the recovering Cluster's
   * own name (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go
   * NewFromCluster), so it is always written.
   */
  public archiveParameters(clusterName: string, archiverParameters: Record<string, string>): Record<string, string> {
    return barmanCloudArchiveParameters(clusterName, archiverParameters);
  }

  /** `spec.instanceSidecarConfiguration` from its checked prop. */
  private renderSidecar(sidecar: InstanceSidecarConfiguration | undefined): Record<string, unknown> | undefined {
    if (sidecar === undefined) return undefined;
    const ms = sidecar.retentionPolicyInterval?.toMilliseconds();
    return {
      env: renderEnv(sidecar.env),
      resources: resourcesOf(this, 'instanceSidecarConfiguration.resources', sidecar.resources),
      logLevel: sidecar.logLevel,
      retentionPolicyIntervalSeconds: ms === undefined ? undefined : ms / 1000,
      additionalContainerArgs: sidecar.additionalContainerArgs,
    };
  }
}

/** The sidecar's environment, from its checked prop. */
function renderEnv(env: Record<string, kplus.EnvValue> | undefined): unknown[] | undefined {
  if (env === undefined) return undefined;
  return Object.entries(env).map(([name, v]) =>
    v.valueFrom === undefined ? { name, value: v.value } : { name, valueFrom: kplus.k8s.toJson_EnvVarSource(v.valueFrom) },
  );
}
