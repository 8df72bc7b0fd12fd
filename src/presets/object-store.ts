import { ApiObjectMetadata, Duration } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  ObjectStore as CnpgObjectStore,
  ObjectStoreSpec as CnpgObjectStoreSpec,
  ObjectStoreSpecConfiguration,
  ObjectStoreSpecConfigurationAzureCredentials,
  ObjectStoreSpecConfigurationData,
  ObjectStoreSpecConfigurationDataCompression,
  ObjectStoreSpecConfigurationDataEncryption,
  ObjectStoreSpecConfigurationGoogleCredentials,
  ObjectStoreSpecConfigurationS3Credentials,
  ObjectStoreSpecConfigurationWal,
  ObjectStoreSpecConfigurationWalCompression,
  ObjectStoreSpecConfigurationWalEncryption,
  ObjectStoreSpecInstanceSidecarConfiguration,
  ObjectStoreSpecInstanceSidecarConfigurationEnv,
  ObjectStoreSpecInstanceSidecarConfigurationLogLevel,
  ObjectStoreSpecInstanceSidecarConfigurationResources,
  ObjectStoreSpecInstanceSidecarConfigurationResourcesLimits,
  ObjectStoreSpecInstanceSidecarConfigurationResourcesRequests,
} from '../../imports/barmancloud.cnpg.io';
import { invalid } from '../common/errors';
import { isEnvName, validateContainerResources } from '../plugins/container-props';
import { validateMetadata } from '../common/metadata';
import { SUBDOMAIN_NAME_RULE, checkBeforeRender, claimName, nameFromId } from '../common/stable-names';
import { isDnsSubdomain, requireString, typeName, validateInteger, validateStringArray, validateStringMap } from '../common/validate';
import { PluginLogLevel } from './log-level';

/**
 * A reference to one key of a Secret in the ObjectStore's namespace. Only the reference goes
 * into the manifest; the Secret itself is created elsewhere (by hand, External Secrets, Sealed
 * Secrets...), so no credential ever appears in the synthesized YAML.
 */
export interface SecretKeyRef {
  /** The Secret's name (a DNS subdomain), in the same namespace as the ObjectStore. */
  readonly name: string;
  /** The key inside the Secret's `data`. */
  readonly key: string;
}

/**
 * Credentials for Amazon S3 and S3-compatible stores (MinIO, Ceph RGW...): either a pair of
 * access keys read from Secrets, or the IAM role of the pod's ServiceAccount.
 */
export interface S3Credentials {
  /**
   * The Secret key holding the access key id. Required unless `inheritFromIamRole`.
   * @default - none
   */
  readonly accessKeyId?: SecretKeyRef;
  /**
   * The Secret key holding the secret access key. Required unless `inheritFromIamRole`.
   * @default - none
   */
  readonly secretAccessKey?: SecretKeyRef;
  /**
   * The Secret key holding a session token, for temporary credentials. Only with access keys.
   * @default - no session token
   */
  readonly sessionToken?: SecretKeyRef;
  /**
   * The Secret key holding the region name.
   * @default - barman-cloud's region discovery (the bucket's region, or `endpointUrl`)
   */
  readonly region?: SecretKeyRef;
  /**
   * Use the IAM role bound to the instance pods (IRSA, EKS Pod Identity) instead of keys.
   * @default false
   */
  readonly inheritFromIamRole?: boolean;
}

/**
 * Credentials for Azure Blob Storage. Exactly one way to authenticate: a connection string,
 * a storage account with a storage key or a SAS token, Azure AD workload identity, or the
 * default Azure credential chain.
 */
export interface AzureCredentials {
  /**
   * The Secret key holding a storage connection string.
   * @default - none
   */
  readonly connectionString?: SecretKeyRef;
  /**
   * The Secret key holding the storage account name; needs `storageKey` or `storageSasToken`.
   * @default - none
   */
  readonly storageAccount?: SecretKeyRef;
  /**
   * The Secret key holding the storage account key.
   * @default - none
   */
  readonly storageKey?: SecretKeyRef;
  /**
   * The Secret key holding a shared access signature token.
   * @default - none
   */
  readonly storageSasToken?: SecretKeyRef;
  /**
   * Authenticate through Azure AD workload identity, without keys.
   * @default false
   */
  readonly inheritFromAzureAd?: boolean;
  /**
   * Authenticate through the default Azure credential chain (`DefaultAzureCredential`:
   * environment variables, managed identity...).
   * @default false
   */
  readonly useDefaultAzureCredentials?: boolean;
}

/**
 * Credentials for Google Cloud Storage: a service account key file read from a Secret, or
 * the GKE workload identity of the instance pods.
 */
export interface GoogleCredentials {
  /**
   * The Secret key holding the service account JSON key file.
   * @default - none
   */
  readonly applicationCredentials?: SecretKeyRef;
  /**
   * Use the GKE workload identity of the instance pods.
   * @default false
   */
  readonly gkeEnvironment?: boolean;
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
   * CPU and memory of the sidecar.
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
   * `gs://bucket/path`, or `https://<account>.blob.core.windows.net/<container>/path`.
   * Each Cluster writes below `<destinationPath>/<serverName>/`.
   */
  readonly destinationPath: string;
  /**
   * The endpoint to use instead of the provider's default, e.g. `https://minio.minio:9000`.
   * @default - not set: the provider's endpoint
   */
  readonly endpointUrl?: string;
  /**
   * The Secret key holding the CA bundle that signed `endpointUrl`'s certificate.
   * @default - not set: the system trust store
   */
  readonly endpointCa?: SecretKeyRef;
  /**
   * Amazon S3 (or S3-compatible) credentials. Exactly one of `s3`, `azure`, `google`.
   * @default - none
   */
  readonly s3?: S3Credentials;
  /**
   * Azure Blob Storage credentials. Exactly one of `s3`, `azure`, `google`.
   * @default - none
   */
  readonly azure?: AzureCredentials;
  /**
   * Google Cloud Storage credentials. Exactly one of `s3`, `azure`, `google`.
   * @default - none
   */
  readonly google?: GoogleCredentials;
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
   * (`^[1-9][0-9]*[dwm]$`), e.g. `30d`.
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

const RETENTION_POLICY = /^[1-9][0-9]*[dwm]$/;
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;
const URL_WITH_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/\S+$/;
const HTTP_URL = /^https?:\/\/\S+$/;
const INT32_MAX = 2147483647;

/**
 * A Barman Cloud `ObjectStore` (`barmancloud.cnpg.io/v1`): where a Cluster archives WAL and
 * stores base backups through the Barman Cloud plugin, and how it authenticates.
 *
 * Credentials are references to Secret keys only. Exactly one provider (`s3`, `azure`,
 * `google`) must be set, with exactly one way to authenticate. Clusters name the store with
 * the plugin parameter `barmanObjectName: store.name`; the store must be in the Cluster's
 * namespace (the plugin looks it up there).
 *
 * ```ts
 * const store = new ObjectStore(chart, 'store', {
 *   destinationPath: 's3://backups/pg',
 *   s3: {
 *     accessKeyId: { name: 'aws-creds', key: 'ACCESS_KEY_ID' },
 *     secretAccessKey: { name: 'aws-creds', key: 'ACCESS_SECRET_KEY' },
 *   },
 *   wal: { compression: WalCompression.GZIP },
 *   retentionPolicy: '30d',
 * });
 * ```
 */
export class ObjectStore extends Construct {
  /** The ObjectStore's `metadata.name`: the value of the Cluster plugin parameter `barmanObjectName`. */
  public readonly name: string;
  /** The ObjectStore's `spec.configuration.destinationPath`. */
  public readonly destinationPath: string;
  /** The generated L1 object (escape hatch: `apiObject.addJsonPatch(...)`). */
  public readonly apiObject: CnpgObjectStore;

  constructor(scope: Construct, id: string, props: ObjectStoreProps) {
    super(scope, id);
    if (props === null || typeof props !== 'object') {
      invalid(this, 'props', props, `must be an object, not ${typeName(props)}`, "pass at least { destinationPath: 's3://bucket/path', s3: {...} }");
    }
    const spec = this.renderSpec(props);
    this.destinationPath = spec.configuration.destinationPath;
    this.checkMetadata(props.metadata);
    const metadata = props.metadata === undefined ? {} : validateMetadata(this, 'metadata', props.metadata, "pass { name: 'my-store' } or leave it out");
    this.apiObject = new CnpgObjectStore(this, 'Resource', {
      metadata: { ...metadata, name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('ObjectStore')) },
      spec,
    });
    this.name = this.apiObject.name;
    checkBeforeRender(this.apiObject, claimName(this, 'ObjectStore', this.apiObject.metadata.namespace, this.name));
  }

  private checkMetadata(metadata: unknown): void {
    if (metadata === undefined) return;
    if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
      invalid(this, 'metadata', metadata, `must be an object, not ${typeName(metadata)}`, "pass { name: 'my-store' } or leave it out");
    }
    const name = (metadata as ApiObjectMetadata).name;
    if (name !== undefined && (typeof name !== 'string' || !isDnsSubdomain(name))) {
      invalid(this, 'metadata.name', name, 'is not a DNS subdomain (RFC 1123)', 'use lower-case letters, digits, - and ., or leave it out to use the construct id');
    }
  }

  private renderSpec(props: ObjectStoreProps): CnpgObjectStoreSpec {
    const destinationPath = this.checkDestinationPath(props);
    const configuration: ObjectStoreSpecConfiguration = {
      destinationPath,
      endpointUrl: this.checkEndpointUrl(props.endpointUrl),
      endpointCa: this.optionalRef('endpointCa', props.endpointCa),
      s3Credentials: props.s3 === undefined ? undefined : this.renderS3(props.s3),
      azureCredentials: props.azure === undefined ? undefined : this.renderAzure(props.azure),
      googleCredentials: props.google === undefined ? undefined : this.renderGoogle(props.google),
      wal: this.renderWal(props.wal),
      data: this.renderData(props.data),
      tags: props.tags === undefined ? undefined : validateStringMap(this, 'tags', props.tags),
      historyTags: props.historyTags === undefined ? undefined : validateStringMap(this, 'historyTags', props.historyTags),
    };
    return {
      configuration,
      retentionPolicy: this.checkRetentionPolicy(props.retentionPolicy),
      instanceSidecarConfiguration: this.renderSidecar(props.instanceSidecarConfiguration),
    };
  }

  private checkDestinationPath(props: ObjectStoreProps): string {
    const examples = "use the bucket URL, e.g. 's3://bucket/path', 'gs://bucket/path' or 'https://account.blob.core.windows.net/container/path'";
    const path = requireString(this, 'destinationPath', props.destinationPath, examples);
    if (!URL_WITH_SCHEME.test(path)) {
      invalid(this, 'destinationPath', path, 'is not a URL', examples);
    }
    const providers = (['s3', 'azure', 'google'] as const).filter((p) => props[p] !== undefined);
    if (providers.length === 0) {
      invalid(this, 's3/azure/google', undefined, 'is missing: Barman Cloud needs the credentials of one provider',
        'set exactly one of s3, azure or google (for workload identities: s3: { inheritFromIamRole: true }, azure: { inheritFromAzureAd: true } or google: { gkeEnvironment: true })');
    }
    if (providers.length > 1) {
      invalid(this, providers[1], props[providers[1]], `is set together with ${providers[0]}`,
        'an ObjectStore holds the credentials of exactly one provider; keep one of s3, azure or google');
    }
    const lower = path.toLowerCase();
    if (providers[0] === 's3' && !lower.startsWith('s3://')) {
      invalid(this, 'destinationPath', path, 'does not start with s3:// but s3 credentials are set',
        "use 's3://<bucket>/<path>' (S3-compatible stores too, with endpointUrl)");
    }
    if (providers[0] === 'google' && !lower.startsWith('gs://')) {
      invalid(this, 'destinationPath', path, 'does not start with gs:// but google credentials are set', "use 'gs://<bucket>/<path>'");
    }
    if (providers[0] === 'azure' && (lower.startsWith('s3://') || lower.startsWith('gs://'))) {
      invalid(this, 'destinationPath', path, 'is an S3 or GCS URL but azure credentials are set',
        "use 'https://<account>.blob.core.windows.net/<container>/<path>'");
    }
    return path;
  }

  private checkEndpointUrl(value: unknown): string | undefined {
    if (value === undefined) return undefined;
    const fix = "use the endpoint's http(s) URL, e.g. 'https://minio.minio.svc:9000'";
    const url = requireString(this, 'endpointUrl', value, fix);
    if (!HTTP_URL.test(url)) {
      invalid(this, 'endpointUrl', url, 'is not an http(s) URL', fix);
    }
    return url;
  }

  private checkRetentionPolicy(value: unknown): string | undefined {
    if (value === undefined) return undefined;
    const fix = "use a positive whole number followed by d (days), w (weeks) or m (months), e.g. '30d'";
    const policy = requireString(this, 'retentionPolicy', value, fix);
    if (!RETENTION_POLICY.test(policy)) {
      invalid(this, 'retentionPolicy', policy, 'does not match ^[1-9][0-9]*[dwm]$', fix);
    }
    return policy;
  }

  private ref(prop: string, value: unknown): SecretKeyRef {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      invalid(this, prop, value, `must be a Secret key reference, not ${typeName(value)}`, "pass { name: '<secret>', key: '<key>' }");
    }
    const { name, key } = value as Record<string, unknown>;
    if (typeof name !== 'string' || !isDnsSubdomain(name)) {
      invalid(this, `${prop}.name`, name, 'is not a Secret name (a DNS subdomain)', "use the name of a Secret in the ObjectStore's namespace");
    }
    if (typeof key !== 'string' || key.length > 253 || !SECRET_KEY.test(key)) {
      invalid(this, `${prop}.key`, key, 'is not a Secret key', 'use a key of the Secret: letters, digits, -, _ and . only');
    }
    return { name, key };
  }

  private optionalRef(prop: string, value: unknown): SecretKeyRef | undefined {
    return value === undefined ? undefined : this.ref(prop, value);
  }

  private object(prop: string, value: unknown, example: string): Record<string, unknown> {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      invalid(this, prop, value, `must be an object, not ${typeName(value)}`, `pass ${example}`);
    }
    return value as Record<string, unknown>;
  }

  private flag(prop: string, value: unknown): boolean | undefined {
    if (value !== undefined && typeof value !== 'boolean') {
      invalid(this, prop, value, `must be a boolean, not ${typeName(value)}`, 'use true or false');
    }
    return value;
  }

  private renderS3(value: unknown): ObjectStoreSpecConfigurationS3Credentials {
    const s3 = this.object('s3', value, '{ accessKeyId: {...}, secretAccessKey: {...} } or { inheritFromIamRole: true }') as S3Credentials;
    const iam = this.flag('s3.inheritFromIamRole', s3.inheritFromIamRole) === true;
    const keys = { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, sessionToken: s3.sessionToken };
    if (iam) {
      for (const [k, v] of Object.entries(keys)) {
        if (v !== undefined) {
          invalid(this, `s3.${k}`, v, 'is set together with inheritFromIamRole', 'use either the IAM role or access keys, not both');
        }
      }
    } else {
      for (const k of ['accessKeyId', 'secretAccessKey'] as const) {
        if (keys[k] === undefined) {
          invalid(this, `s3.${k}`, undefined, 'is missing', 'set both accessKeyId and secretAccessKey (Secret key references), or inheritFromIamRole: true');
        }
      }
    }
    return {
      accessKeyId: this.optionalRef('s3.accessKeyId', s3.accessKeyId),
      secretAccessKey: this.optionalRef('s3.secretAccessKey', s3.secretAccessKey),
      sessionToken: this.optionalRef('s3.sessionToken', s3.sessionToken),
      region: this.optionalRef('s3.region', s3.region),
      inheritFromIamRole: iam ? true : undefined,
    };
  }

  private renderAzure(value: unknown): ObjectStoreSpecConfigurationAzureCredentials {
    const azure = this.object('azure', value, '{ connectionString: {...} }, { storageAccount: {...}, storageKey: {...} } or { inheritFromAzureAd: true }') as AzureCredentials;
    const ad = this.flag('azure.inheritFromAzureAd', azure.inheritFromAzureAd) === true;
    const dflt = this.flag('azure.useDefaultAzureCredentials', azure.useDefaultAzureCredentials) === true;
    for (const k of ['storageKey', 'storageSasToken'] as const) {
      if (azure[k] !== undefined && azure.storageAccount === undefined) {
        invalid(this, `azure.${k}`, azure[k], 'needs azure.storageAccount', 'set storageAccount to the Secret key holding the storage account name');
      }
    }
    const modes = [
      ['connectionString', azure.connectionString !== undefined],
      ['storageAccount', azure.storageAccount !== undefined],
      ['inheritFromAzureAd', ad],
      ['useDefaultAzureCredentials', dflt],
    ].filter(([, set]) => set).map(([m]) => m as keyof AzureCredentials);
    const one = 'use exactly one of connectionString, storageAccount (with storageKey or storageSasToken), inheritFromAzureAd or useDefaultAzureCredentials';
    if (modes.length === 0) {
      invalid(this, 'azure', value, 'names no way to authenticate', one);
    }
    if (modes.length > 1) {
      invalid(this, `azure.${modes[1]}`, azure[modes[1]], `is set together with azure.${modes[0]}`, one);
    }
    if (modes[0] === 'storageAccount') {
      if (azure.storageKey === undefined && azure.storageSasToken === undefined) {
        invalid(this, 'azure.storageKey', undefined, 'is missing', 'with storageAccount, set storageKey or storageSasToken');
      }
      if (azure.storageKey !== undefined && azure.storageSasToken !== undefined) {
        invalid(this, 'azure.storageSasToken', azure.storageSasToken, 'is set together with azure.storageKey', 'use either the storage key or the SAS token');
      }
    }
    return {
      connectionString: this.optionalRef('azure.connectionString', azure.connectionString),
      storageAccount: this.optionalRef('azure.storageAccount', azure.storageAccount),
      storageKey: this.optionalRef('azure.storageKey', azure.storageKey),
      storageSasToken: this.optionalRef('azure.storageSasToken', azure.storageSasToken),
      inheritFromAzureAd: ad ? true : undefined,
      useDefaultAzureCredentials: dflt ? true : undefined,
    };
  }

  private renderGoogle(value: unknown): ObjectStoreSpecConfigurationGoogleCredentials {
    const google = this.object('google', value, '{ applicationCredentials: {...} } or { gkeEnvironment: true }') as GoogleCredentials;
    const gke = this.flag('google.gkeEnvironment', google.gkeEnvironment) === true;
    if (!gke && google.applicationCredentials === undefined) {
      invalid(this, 'google', value, 'names no way to authenticate',
        'set applicationCredentials (the Secret key holding the JSON key file) or gkeEnvironment: true');
    }
    if (gke && google.applicationCredentials !== undefined) {
      invalid(this, 'google.gkeEnvironment', true, 'is set together with google.applicationCredentials', 'use either the key file or the GKE workload identity');
    }
    return {
      applicationCredentials: this.optionalRef('google.applicationCredentials', google.applicationCredentials),
      gkeEnvironment: gke ? true : undefined,
    };
  }

  private enumValue<T extends string>(prop: string, value: unknown, values: Record<string, T>, enumName: string): T | undefined {
    if (value === undefined) return undefined;
    const allowed = Object.values(values) as string[];
    if (typeof value !== 'string' || !allowed.includes(value)) {
      invalid(this, prop, value, `is not one of ${allowed.join(', ')}`, `use ${enumName}`);
    }
    return value as T;
  }

  private stringArray(prop: string, value: unknown): string[] | undefined {
    return value === undefined ? undefined : validateStringArray(this, prop, value);
  }

  private renderWal(value: unknown): ObjectStoreSpecConfigurationWal | undefined {
    if (value === undefined) return undefined;
    const wal = this.object('wal', value, '{ compression: WalCompression.GZIP }') as ObjectStoreWalOptions;
    return {
      compression: this.enumValue('wal.compression', wal.compression, WalCompression, 'WalCompression') as unknown as ObjectStoreSpecConfigurationWalCompression | undefined,
      encryption: this.enumValue('wal.encryption', wal.encryption, ObjectStoreEncryption, 'ObjectStoreEncryption') as unknown as ObjectStoreSpecConfigurationWalEncryption | undefined,
      maxParallel: wal.maxParallel === undefined ? undefined : validateInteger(this, 'wal.maxParallel', wal.maxParallel, 1, INT32_MAX),
      archiveAdditionalCommandArgs: this.stringArray('wal.archiveAdditionalCommandArgs', wal.archiveAdditionalCommandArgs),
      restoreAdditionalCommandArgs: this.stringArray('wal.restoreAdditionalCommandArgs', wal.restoreAdditionalCommandArgs),
    };
  }

  private renderData(value: unknown): ObjectStoreSpecConfigurationData | undefined {
    if (value === undefined) return undefined;
    const data = this.object('data', value, '{ compression: DataCompression.GZIP }') as ObjectStoreDataOptions;
    return {
      compression: this.enumValue('data.compression', data.compression, DataCompression, 'DataCompression') as unknown as ObjectStoreSpecConfigurationDataCompression | undefined,
      encryption: this.enumValue('data.encryption', data.encryption, ObjectStoreEncryption, 'ObjectStoreEncryption') as unknown as ObjectStoreSpecConfigurationDataEncryption | undefined,
      jobs: data.jobs === undefined ? undefined : validateInteger(this, 'data.jobs', data.jobs, 1, INT32_MAX),
      immediateCheckpoint: this.flag('data.immediateCheckpoint', data.immediateCheckpoint),
      additionalCommandArgs: this.stringArray('data.additionalCommandArgs', data.additionalCommandArgs),
      restoreAdditionalCommandArgs: this.stringArray('data.restoreAdditionalCommandArgs', data.restoreAdditionalCommandArgs),
    };
  }

  private renderSidecar(value: unknown): ObjectStoreSpecInstanceSidecarConfiguration | undefined {
    if (value === undefined) return undefined;
    const sidecar = this.object('instanceSidecarConfiguration', value, '{ logLevel: PluginLogLevel.DEBUG }') as InstanceSidecarConfiguration;
    const args = this.stringArray('instanceSidecarConfiguration.additionalContainerArgs', sidecar.additionalContainerArgs);
    args?.forEach((arg, i) => {
      if (arg.startsWith('--log-level')) {
        invalid(this, `instanceSidecarConfiguration.additionalContainerArgs[${i}]`, arg, 'sets the log level, which the CRD forbids here',
          'use instanceSidecarConfiguration.logLevel');
      }
    });
    return {
      env: this.renderEnv(sidecar.env),
      resources: this.renderResources(sidecar.resources),
      logLevel: this.enumValue('instanceSidecarConfiguration.logLevel', sidecar.logLevel,
        PluginLogLevel, 'PluginLogLevel') as unknown as ObjectStoreSpecInstanceSidecarConfigurationLogLevel | undefined,
      retentionPolicyIntervalSeconds: this.renderInterval(sidecar.retentionPolicyInterval),
      additionalContainerArgs: args,
    };
  }

  private renderInterval(value: unknown): number | undefined {
    if (value === undefined) return undefined;
    const prop = 'instanceSidecarConfiguration.retentionPolicyInterval';
    if (!(value instanceof Duration)) {
      invalid(this, prop, value, `must be a cdk8s Duration, not ${typeName(value)}`, 'use Duration.minutes(30)');
    }
    const ms = value.toMilliseconds();
    if (!Number.isInteger(ms / 1000) || ms < 1000 || ms / 1000 > INT32_MAX) {
      invalid(this, prop, `${ms}ms`, 'is not a whole number of seconds of at least 1', 'use e.g. Duration.minutes(30)');
    }
    return ms / 1000;
  }

  private renderEnv(value: unknown): ObjectStoreSpecInstanceSidecarConfigurationEnv[] | undefined {
    if (value === undefined) return undefined;
    const prop = 'instanceSidecarConfiguration.env';
    const env = this.object(prop, value, "{ AWS_CA_BUNDLE: EnvValue.fromValue('/certs/ca.crt') }");
    return Object.entries(env).map(([name, v]) => {
      if (!isEnvName(name)) {
        invalid(this, `${prop}`, name, 'is not an environment variable name', "use printable characters without '='");
      }
      if (!(v instanceof kplus.EnvValue) || (v.value === undefined && v.valueFrom === undefined)) {
        invalid(this, `${prop}.${name}`, v, 'is not an EnvValue', "use EnvValue.fromValue('...') or EnvValue.fromSecretValue(...)");
      }
      if (v.valueFrom === undefined) {
        if (typeof v.value !== 'string') {
          invalid(this, `${prop}.${name}`, v.value, `must be a string, not ${typeName(v.value)}`, 'write it as a string');
        }
        return { name, value: v.value };
      }
      // cdk8s-plus builds valueFrom in the same TypeScript shape as the generated type (its
      // divisor wrapper also carries `.value`), so the generated toJson renders it.
      return { name, valueFrom: v.valueFrom };
    });
  }

  private renderResources(value: unknown): ObjectStoreSpecInstanceSidecarConfigurationResources | undefined {
    if (value === undefined) return undefined;
    const prop = 'instanceSidecarConfiguration.resources';
    this.object(prop, value, '{ memory: { request: Size.mebibytes(64) } }');
    // Cpu and Size instances in whole Mi / Gi, as for plugin containers: anything else used to
    // fail with a TypeError (or vanish, for a number given as a Cpu).
    const resources = validateContainerResources(this, prop, value, 'pass { memory: { request: Size.mebibytes(64) } }');
    const limits: Record<string, ObjectStoreSpecInstanceSidecarConfigurationResourcesLimits> = {};
    const requests: Record<string, ObjectStoreSpecInstanceSidecarConfigurationResourcesRequests> = {};
    // The same units cdk8s-plus writes for containers, so the sidecar reads like the rest.
    const put = (target: 'limits' | 'requests', name: string, quantity: string | undefined) => {
      if (quantity === undefined) return;
      if (target === 'limits') limits[name] = ObjectStoreSpecInstanceSidecarConfigurationResourcesLimits.fromString(quantity);
      else requests[name] = ObjectStoreSpecInstanceSidecarConfigurationResourcesRequests.fromString(quantity);
    };
    put('requests', 'cpu', resources.cpu?.request?.amount);
    put('limits', 'cpu', resources.cpu?.limit?.amount);
    put('requests', 'memory', resources.memory?.request && `${resources.memory.request.toMebibytes()}Mi`);
    put('limits', 'memory', resources.memory?.limit && `${resources.memory.limit.toMebibytes()}Mi`);
    put('requests', 'ephemeral-storage', resources.ephemeralStorage?.request && `${resources.ephemeralStorage.request.toGibibytes()}Gi`);
    put('limits', 'ephemeral-storage', resources.ephemeralStorage?.limit && `${resources.ephemeralStorage.limit.toGibibytes()}Gi`);
    if (Object.keys(limits).length === 0 && Object.keys(requests).length === 0) {
      invalid(this, 'instanceSidecarConfiguration.resources', value, 'sets no request or limit', 'set cpu, memory or ephemeralStorage, or leave resources out');
    }
    return {
      requests: Object.keys(requests).length ? requests : undefined,
      limits: Object.keys(limits).length ? limits : undefined,
    };
  }
}

