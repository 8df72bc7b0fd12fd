import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  ClusterBootstrap,
  CnpgIValidationError,
  DataCompression,
  PostgresCluster,
  ObjectStore,
  ObjectStoreEncryption,
  ObjectStoreProps,
  PluginLogLevel,
  WalCompression,
} from '../../src';
import { expectValidationError } from '../util';

const S3 = {
  accessKeyId: { name: 'aws-creds', key: 'ACCESS_KEY_ID' },
  secretAccessKey: { name: 'aws-creds', key: 'ACCESS_SECRET_KEY' },
};

function synthStore(props: ObjectStoreProps): any {
  const chart = Testing.chart();
  new ObjectStore(chart, 'store', props);
  const objects = Testing.synth(chart);
  expect(objects).toHaveLength(1);
  return objects[0];
}

/** Builds a store from JavaScript-shaped props (anything goes) and returns the thrown message. */
function build(props: unknown): () => ObjectStore {
  return () => new ObjectStore(Testing.chart(), 'store', props as ObjectStoreProps);
}

describe('ObjectStore', () => {
  test('S3 with access keys, the common case (snapshot)', () => {
    const obj = synthStore({
      destinationPath: 's3://backups/pg',
      s3: { ...S3, region: { name: 'aws-creds', key: 'REGION' } },
      wal: { compression: WalCompression.GZIP, maxParallel: 4 },
      data: { compression: DataCompression.SNAPPY, jobs: 4 },
      retentionPolicy: '30d',
    });
    expect(obj).toMatchSnapshot();
  });

  test('renders apiVersion, kind and the exact credential keys of the CRD', () => {
    const obj = synthStore({ destinationPath: 's3://backups/pg', s3: { ...S3, sessionToken: { name: 'aws-creds', key: 'TOKEN' } } });
    expect(obj.apiVersion).toBe('barmancloud.cnpg.io/v1');
    expect(obj.kind).toBe('ObjectStore');
    expect(obj.spec.configuration.s3Credentials).toEqual({
      accessKeyId: { name: 'aws-creds', key: 'ACCESS_KEY_ID' },
      secretAccessKey: { name: 'aws-creds', key: 'ACCESS_SECRET_KEY' },
      sessionToken: { name: 'aws-creds', key: 'TOKEN' },
    });
  });

  test('exposes the generated name that Clusters use as barmanObjectName', () => {
    const chart = new Chart(Testing.app(), 'apps', { namespace: 'db' });
    const store = new ObjectStore(chart, 'store', { destinationPath: 's3://b', s3: S3 });
    const [obj] = Testing.synth(chart);
    expect(store.name).toBe(obj.metadata.name);
    expect(store.name).toBe('store');
    expect(obj.metadata.namespace).toBe('db');
    expect(store.destinationPath).toBe('s3://b');
  });

  test('metadata.name given by the user is kept', () => {
    const obj = synthStore({ destinationPath: 's3://b', s3: S3, metadata: { name: 'minio-store', labels: { team: 'db' } } });
    expect(obj.metadata).toEqual({ name: 'minio-store', labels: { team: 'db' } });
  });

  test('S3-compatible store with endpoint and CA, IAM role (snapshot)', () => {
    const obj = synthStore({
      destinationPath: 's3://backups/',
      endpointUrl: 'https://minio.minio.svc:9000',
      endpointCa: { name: 'minio-ca', key: 'ca.crt' },
      s3: { inheritFromIamRole: true },
      tags: { env: 'prod' },
      historyTags: { kind: 'history' },
    });
    expect(obj.spec.configuration.endpointURL).toBe('https://minio.minio.svc:9000');
    expect(obj.spec.configuration.endpointCA).toEqual({ name: 'minio-ca', key: 'ca.crt' });
    expect(obj.spec.configuration.s3Credentials).toEqual({ inheritFromIAMRole: true });
    expect(obj).toMatchSnapshot();
  });

  test('Azure: each way to authenticate renders the CRD keys', () => {
    const path = 'https://acct.blob.core.windows.net/backups/pg';
    expect(synthStore({ destinationPath: path, azure: { connectionString: { name: 'az', key: 'CS' } } }).spec.configuration.azureCredentials)
      .toEqual({ connectionString: { name: 'az', key: 'CS' } });
    expect(synthStore({
      destinationPath: path,
      azure: { storageAccount: { name: 'az', key: 'ACCOUNT' }, storageKey: { name: 'az', key: 'KEY' } },
    }).spec.configuration.azureCredentials).toEqual({ storageAccount: { name: 'az', key: 'ACCOUNT' }, storageKey: { name: 'az', key: 'KEY' } });
    expect(synthStore({
      destinationPath: path,
      azure: { storageAccount: { name: 'az', key: 'ACCOUNT' }, storageSasToken: { name: 'az', key: 'SAS' } },
    }).spec.configuration.azureCredentials).toEqual({ storageAccount: { name: 'az', key: 'ACCOUNT' }, storageSasToken: { name: 'az', key: 'SAS' } });
    expect(synthStore({ destinationPath: path, azure: { inheritFromAzureAd: true } }).spec.configuration.azureCredentials)
      .toEqual({ inheritFromAzureAD: true });
    expect(synthStore({ destinationPath: path, azure: { useDefaultAzureCredentials: true } }).spec.configuration.azureCredentials)
      .toEqual({ useDefaultAzureCredentials: true });
  });

  test('Google: key file or GKE workload identity', () => {
    expect(synthStore({ destinationPath: 'gs://b/p', google: { applicationCredentials: { name: 'gcs', key: 'key.json' } } })
      .spec.configuration.googleCredentials).toEqual({ applicationCredentials: { name: 'gcs', key: 'key.json' } });
    expect(synthStore({ destinationPath: 'gs://b/p', google: { gkeEnvironment: true } }).spec.configuration.googleCredentials)
      .toEqual({ gkeEnvironment: true });
  });

  test('false flags are not rendered (they are the CRD defaults)', () => {
    const obj = synthStore({ destinationPath: 's3://b', s3: { ...S3, inheritFromIamRole: false } });
    expect(obj.spec.configuration.s3Credentials.inheritFromIAMRole).toBeUndefined();
  });

  test('wal and data options use the wire values', () => {
    const obj = synthStore({
      destinationPath: 's3://b',
      s3: S3,
      wal: {
        compression: WalCompression.ZSTD,
        encryption: ObjectStoreEncryption.AWS_KMS,
        maxParallel: 8,
        archiveAdditionalCommandArgs: ['--min-chunk-size=5MB'],
        restoreAdditionalCommandArgs: ['--read-timeout=60'],
      },
      data: {
        compression: DataCompression.BZIP2,
        encryption: ObjectStoreEncryption.AES256,
        jobs: 3,
        immediateCheckpoint: true,
        additionalCommandArgs: ['--max-bandwidth=50MB'],
        restoreAdditionalCommandArgs: ['--read-timeout=60'],
      },
    });
    expect(obj.spec.configuration.wal).toEqual({
      compression: 'zstd',
      encryption: 'aws:kms',
      maxParallel: 8,
      archiveAdditionalCommandArgs: ['--min-chunk-size=5MB'],
      restoreAdditionalCommandArgs: ['--read-timeout=60'],
    });
    expect(obj.spec.configuration.data).toEqual({
      compression: 'bzip2',
      encryption: 'AES256',
      jobs: 3,
      immediateCheckpoint: true,
      additionalCommandArgs: ['--max-bandwidth=50MB'],
      restoreAdditionalCommandArgs: ['--read-timeout=60'],
    });
  });

  test('instanceSidecarConfiguration: env, resources, log level, interval, args (snapshot)', () => {
    const secret = kplus.Secret.fromSecretName(Testing.chart(), 'proxy', 'proxy-creds');
    const obj = synthStore({
      destinationPath: 's3://b',
      s3: S3,
      instanceSidecarConfiguration: {
        env: {
          AWS_CA_BUNDLE: kplus.EnvValue.fromValue('/certs/ca.crt'),
          HTTPS_PROXY: kplus.EnvValue.fromSecretValue({ secret, key: 'url' }),
          POD_NAME: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME),
        },
        resources: {
          cpu: { request: kplus.Cpu.millis(50), limit: kplus.Cpu.units(1) },
          memory: { request: Size.mebibytes(64), limit: Size.mebibytes(512) },
        },
        logLevel: PluginLogLevel.DEBUG,
        retentionPolicyInterval: Duration.minutes(10),
        additionalContainerArgs: ['--log-destination=/dev/stderr'],
      },
    });
    expect(obj.spec.instanceSidecarConfiguration).toEqual({
      env: [
        { name: 'AWS_CA_BUNDLE', value: '/certs/ca.crt' },
        { name: 'HTTPS_PROXY', valueFrom: { secretKeyRef: { name: 'proxy-creds', key: 'url' } } },
        { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      ],
      resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '1', memory: '512Mi' } },
      logLevel: 'debug',
      retentionPolicyIntervalSeconds: 600,
      additionalContainerArgs: ['--log-destination=/dev/stderr'],
    });
    expect(obj).toMatchSnapshot();
  });

  test('documented defaults: everything optional is left out, so the CRD and barman-cloud defaults apply', () => {
    const obj = synthStore({ destinationPath: 's3://b', s3: S3 });
    // metadata: name generated by cdk8s, chart namespace (none in Testing.chart()).
    expect(Object.keys(obj.metadata)).toEqual(['name']);
    expect(Object.keys(obj.spec)).toEqual(['configuration']); // retentionPolicy, instanceSidecarConfiguration unset
    expect(Object.keys(obj.spec.configuration).sort()).toEqual(['destinationPath', 's3Credentials']);
    // s3: region, sessionToken unset; inheritFromIamRole false => not rendered
    expect(Object.keys(obj.spec.configuration.s3Credentials).sort()).toEqual(['accessKeyId', 'secretAccessKey']);
    const withEmptyOptions = synthStore({ destinationPath: 's3://b', s3: S3, wal: {}, data: {}, instanceSidecarConfiguration: {} });
    // wal: compression, encryption, maxParallel, args unset; data: compression, encryption, jobs, immediateCheckpoint, args unset;
    // sidecar: env, resources, logLevel (CRD: info), retentionPolicyIntervalSeconds (CRD: 1800), args unset.
    expect(withEmptyOptions.spec.configuration.wal).toEqual({});
    expect(withEmptyOptions.spec.configuration.data).toEqual({});
    expect(withEmptyOptions.spec.instanceSidecarConfiguration).toEqual({});
    // azure / google flags default to false: not rendered
    expect(synthStore({ destinationPath: 'https://a.blob.core.windows.net/c', azure: { connectionString: { name: 'a', key: 'b' } } })
      .spec.configuration.azureCredentials).toEqual({ connectionString: { name: 'a', key: 'b' } });
    expect(synthStore({ destinationPath: 'gs://b', google: { applicationCredentials: { name: 'a', key: 'b' } } })
      .spec.configuration.googleCredentials).toEqual({ applicationCredentials: { name: 'a', key: 'b' } });
  });

  test('no secret material: only names and keys of Secrets appear', () => {
    const yaml = JSON.stringify(synthStore({ destinationPath: 's3://b', s3: S3 }));
    expect(yaml).not.toMatch(/stringData|"data":\{"[A-Z]/);
  });

  test('retentionPolicy accepts days, weeks and months', () => {
    for (const p of ['1d', '30d', '4w', '12m', '100d']) {
      expect(synthStore({ destinationPath: 's3://b', s3: S3, retentionPolicy: p }).spec.retentionPolicy).toBe(p);
    }
  });

  test('errors are CnpgIValidationError with the parts as fields', () => {
    try {
      build({ destinationPath: 's3://b', s3: S3, retentionPolicy: '0d' })();
      throw new Error('no error');
    } catch (e) {
      expect(e).toBeInstanceOf(CnpgIValidationError);
      expect((e as CnpgIValidationError).prop).toBe('retentionPolicy');
      expect((e as CnpgIValidationError).constructPath).toBe('test/store');
    }
  });

  describe('validation (exact messages)', () => {
    const cases: Array<[string, unknown, string]> = [
      ['props not an object', null,
        "test/store: props null must be an object, not null; pass at least { destinationPath: 's3://bucket/path', s3: {...} }"],
      ['destinationPath missing', { s3: S3 },
        "test/store: destinationPath undefined must be a string, not undefined; use the bucket URL, e.g. 's3://bucket/path', 'gs://bucket/path' or 'https://account.blob.core.windows.net/container/path'"],
      ['destinationPath empty', { destinationPath: ' ', s3: S3 },
        "test/store: destinationPath ' ' must not be empty; use the bucket URL, e.g. 's3://bucket/path', 'gs://bucket/path' or 'https://account.blob.core.windows.net/container/path'"],
      ['destinationPath not a URL', { destinationPath: 'backups/pg', s3: S3 },
        "test/store: destinationPath 'backups/pg' is not a URL; use the bucket URL, e.g. 's3://bucket/path', 'gs://bucket/path' or 'https://account.blob.core.windows.net/container/path'"],
      ['no provider', { destinationPath: 's3://b' },
        'test/store: s3/azure/google undefined is missing: Barman Cloud needs the credentials of one provider; set exactly one of s3, azure or google (for workload identities: s3: { inheritFromIamRole: true }, azure: { inheritFromAzureAd: true } or google: { gkeEnvironment: true })'],
      ['two providers', { destinationPath: 's3://b', s3: S3, google: { gkeEnvironment: true } },
        'test/store: google {"gkeEnvironment":true} is set together with s3; an ObjectStore holds the credentials of exactly one provider; keep one of s3, azure or google'],
      ['s3 with a gs:// path', { destinationPath: 'gs://b', s3: S3 },
        "test/store: destinationPath 'gs://b' does not start with s3:// but s3 credentials are set; use 's3://<bucket>/<path>' (S3-compatible stores too, with endpointUrl)"],
      ['google with an s3:// path', { destinationPath: 's3://b', google: { gkeEnvironment: true } },
        "test/store: destinationPath 's3://b' does not start with gs:// but google credentials are set; use 'gs://<bucket>/<path>'"],
      ['azure with an s3:// path', { destinationPath: 's3://b', azure: { inheritFromAzureAd: true } },
        "test/store: destinationPath 's3://b' is an S3 or GCS URL but azure credentials are set; use 'https://<account>.blob.core.windows.net/<container>/<path>'"],
      ['endpointUrl not http', { destinationPath: 's3://b', s3: S3, endpointUrl: 'minio:9000' },
        "test/store: endpointUrl 'minio:9000' is not an http(s) URL; use the endpoint's http(s) URL, e.g. 'https://minio.minio.svc:9000'"],
      ['endpointUrl not a string', { destinationPath: 's3://b', s3: S3, endpointUrl: 9000 },
        "test/store: endpointUrl 9000 must be a string, not a number; use the endpoint's http(s) URL, e.g. 'https://minio.minio.svc:9000'"],
      ['endpointCa not a reference', { destinationPath: 's3://b', s3: S3, endpointCa: 'minio-ca' },
        "test/store: endpointCa 'minio-ca' must be a Secret key reference, not a string; pass { name: '<secret>', key: '<key>' }"],
      ['secret name invalid', { destinationPath: 's3://b', s3: { ...S3, accessKeyId: { name: 'AWS_Creds', key: 'k' } } },
        "test/store: s3.accessKeyId.name 'AWS_Creds' is not a Secret name (a DNS subdomain); use the name of a Secret in the ObjectStore's namespace"],
      ['secret key invalid', { destinationPath: 's3://b', s3: { ...S3, secretAccessKey: { name: 'aws', key: 'a/b' } } },
        "test/store: s3.secretAccessKey.key 'a/b' is not a Secret key; use a key of the Secret: letters, digits, -, _ and . only"],
      ['secret key missing', { destinationPath: 's3://b', s3: { ...S3, region: { name: 'aws' } } },
        'test/store: s3.region.key undefined is not a Secret key; use a key of the Secret: letters, digits, -, _ and . only'],
      ['s3 not an object', { destinationPath: 's3://b', s3: true },
        'test/store: s3 true must be an object, not a boolean; pass { accessKeyId: {...}, secretAccessKey: {...} } or { inheritFromIamRole: true }'],
      ['s3 access key id missing', { destinationPath: 's3://b', s3: { secretAccessKey: S3.secretAccessKey } },
        'test/store: s3.accessKeyId undefined is missing; set both accessKeyId and secretAccessKey (Secret key references), or inheritFromIamRole: true'],
      ['s3 secret access key missing', { destinationPath: 's3://b', s3: { accessKeyId: S3.accessKeyId } },
        'test/store: s3.secretAccessKey undefined is missing; set both accessKeyId and secretAccessKey (Secret key references), or inheritFromIamRole: true'],
      ['s3 empty', { destinationPath: 's3://b', s3: {} },
        'test/store: s3.accessKeyId undefined is missing; set both accessKeyId and secretAccessKey (Secret key references), or inheritFromIamRole: true'],
      ['s3 keys and IAM role', { destinationPath: 's3://b', s3: { ...S3, inheritFromIamRole: true } },
        'test/store: s3.accessKeyId {"name":"aws-creds","key":"ACCESS_KEY_ID"} is set together with inheritFromIamRole; use either the IAM role or access keys, not both'],
      ['s3 session token and IAM role', { destinationPath: 's3://b', s3: { inheritFromIamRole: true, sessionToken: { name: 'a', key: 'b' } } },
        'test/store: s3.sessionToken {"name":"a","key":"b"} is set together with inheritFromIamRole; use either the IAM role or access keys, not both'],
      ['s3 IAM flag not boolean', { destinationPath: 's3://b', s3: { inheritFromIamRole: 'true' } },
        "test/store: s3.inheritFromIamRole 'true' must be a boolean, not a string; use true or false"],
      ['azure nothing', { destinationPath: 'https://a.blob.core.windows.net/c', azure: {} },
        'test/store: azure {} names no way to authenticate; use exactly one of connectionString, storageAccount (with storageKey or storageSasToken), inheritFromAzureAd or useDefaultAzureCredentials'],
      ['azure two modes', { destinationPath: 'https://a.blob.core.windows.net/c', azure: { connectionString: { name: 'a', key: 'b' }, inheritFromAzureAd: true } },
        'test/store: azure.inheritFromAzureAd true is set together with azure.connectionString; use exactly one of connectionString, storageAccount (with storageKey or storageSasToken), inheritFromAzureAd or useDefaultAzureCredentials'],
      ['azure storage key without account', { destinationPath: 'https://a.blob.core.windows.net/c', azure: { storageKey: { name: 'a', key: 'b' } } },
        'test/store: azure.storageKey {"name":"a","key":"b"} needs azure.storageAccount; set storageAccount to the Secret key holding the storage account name'],
      ['azure SAS token without account', { destinationPath: 'https://a.blob.core.windows.net/c', azure: { connectionString: { name: 'a', key: 'b' }, storageSasToken: { name: 'a', key: 'c' } } },
        'test/store: azure.storageSasToken {"name":"a","key":"c"} needs azure.storageAccount; set storageAccount to the Secret key holding the storage account name'],
      ['azure account without key or token', { destinationPath: 'https://a.blob.core.windows.net/c', azure: { storageAccount: { name: 'a', key: 'b' } } },
        'test/store: azure.storageKey undefined is missing; with storageAccount, set storageKey or storageSasToken'],
      ['azure account with key and token', { destinationPath: 'https://a.blob.core.windows.net/c', azure: { storageAccount: { name: 'a', key: 'b' }, storageKey: { name: 'a', key: 'c' }, storageSasToken: { name: 'a', key: 'd' } } },
        'test/store: azure.storageSasToken {"name":"a","key":"d"} is set together with azure.storageKey; use either the storage key or the SAS token'],
      ['azure flag not boolean', { destinationPath: 'https://a.blob.core.windows.net/c', azure: { useDefaultAzureCredentials: 1 } },
        'test/store: azure.useDefaultAzureCredentials 1 must be a boolean, not a number; use true or false'],
      ['azure not an object', { destinationPath: 'https://a.blob.core.windows.net/c', azure: [] },
        'test/store: azure [] must be an object, not an array; pass { connectionString: {...} }, { storageAccount: {...}, storageKey: {...} } or { inheritFromAzureAd: true }'],
      ['google nothing', { destinationPath: 'gs://b', google: { gkeEnvironment: false } },
        'test/store: google {"gkeEnvironment":false} names no way to authenticate; set applicationCredentials (the Secret key holding the JSON key file) or gkeEnvironment: true'],
      ['google both', { destinationPath: 'gs://b', google: { gkeEnvironment: true, applicationCredentials: { name: 'a', key: 'b' } } },
        'test/store: google.gkeEnvironment true is set together with google.applicationCredentials; use either the key file or the GKE workload identity'],
      ['google not an object', { destinationPath: 'gs://b', google: 'key.json' },
        "test/store: google 'key.json' must be an object, not a string; pass { applicationCredentials: {...} } or { gkeEnvironment: true }"],
      ['retentionPolicy zero', { destinationPath: 's3://b', s3: S3, retentionPolicy: '0d' },
        "test/store: retentionPolicy '0d' does not match ^[1-9][0-9]*[dwm]$; use a positive whole number followed by d (days), w (weeks) or m (months), e.g. '30d'"],
      ['retentionPolicy unit', { destinationPath: 's3://b', s3: S3, retentionPolicy: '30 days' },
        "test/store: retentionPolicy '30 days' does not match ^[1-9][0-9]*[dwm]$; use a positive whole number followed by d (days), w (weeks) or m (months), e.g. '30d'"],
      ['retentionPolicy not a string', { destinationPath: 's3://b', s3: S3, retentionPolicy: 30 },
        "test/store: retentionPolicy 30 must be a string, not a number; use a positive whole number followed by d (days), w (weeks) or m (months), e.g. '30d'"],
      ['wal not an object', { destinationPath: 's3://b', s3: S3, wal: 'gzip' },
        "test/store: wal 'gzip' must be an object, not a string; pass { compression: WalCompression.GZIP }"],
      ['wal compression unknown', { destinationPath: 's3://b', s3: S3, wal: { compression: 'zip' } },
        "test/store: wal.compression 'zip' is not one of bzip2, gzip, lz4, snappy, xz, zstd; use WalCompression"],
      ['wal encryption unknown', { destinationPath: 's3://b', s3: S3, wal: { encryption: 'aes256' } },
        "test/store: wal.encryption 'aes256' is not one of AES256, aws:kms; use ObjectStoreEncryption"],
      ['wal maxParallel zero', { destinationPath: 's3://b', s3: S3, wal: { maxParallel: 0 } },
        'test/store: wal.maxParallel 0 is out of range; use a whole number from 1 to 2147483647'],
      ['wal args not strings', { destinationPath: 's3://b', s3: S3, wal: { archiveAdditionalCommandArgs: [1] } },
        'test/store: wal.archiveAdditionalCommandArgs[0] 1 must be a string, not a number; write it as a string'],
      ['wal restore args not an array', { destinationPath: 's3://b', s3: S3, wal: { restoreAdditionalCommandArgs: '--x' } },
        "test/store: wal.restoreAdditionalCommandArgs '--x' must be an array of strings, not a string; pass ['a', 'b']"],
      ['data not an object', { destinationPath: 's3://b', s3: S3, data: 4 },
        'test/store: data 4 must be an object, not a number; pass { compression: DataCompression.GZIP }'],
      ['data compression xz (WAL only)', { destinationPath: 's3://b', s3: S3, data: { compression: 'xz' } },
        "test/store: data.compression 'xz' is not one of bzip2, gzip, lz4, snappy; use DataCompression"],
      ['data encryption unknown', { destinationPath: 's3://b', s3: S3, data: { encryption: 'kms' } },
        "test/store: data.encryption 'kms' is not one of AES256, aws:kms; use ObjectStoreEncryption"],
      ['data jobs fractional', { destinationPath: 's3://b', s3: S3, data: { jobs: 1.5 } },
        'test/store: data.jobs 1.5 is out of range; use a whole number from 1 to 2147483647'],
      ['data immediateCheckpoint not boolean', { destinationPath: 's3://b', s3: S3, data: { immediateCheckpoint: 'yes' } },
        "test/store: data.immediateCheckpoint 'yes' must be a boolean, not a string; use true or false"],
      ['data args not strings', { destinationPath: 's3://b', s3: S3, data: { additionalCommandArgs: [null] } },
        'test/store: data.additionalCommandArgs[0] null must be a string, not null; write it as a string'],
      ['data restore args not strings', { destinationPath: 's3://b', s3: S3, data: { restoreAdditionalCommandArgs: [true] } },
        'test/store: data.restoreAdditionalCommandArgs[0] true must be a string, not a boolean; write it as a string'],
      ['tags not strings', { destinationPath: 's3://b', s3: S3, tags: { n: 1 } },
        "test/store: tags.n 1 must be a string, not a number; write it as a string, e.g. '1'"],
      ['historyTags not an object', { destinationPath: 's3://b', s3: S3, historyTags: 'x' },
        "test/store: historyTags 'x' must be an object of strings, not a string; pass { key: 'value' }"],
      ['metadata not an object', { destinationPath: 's3://b', s3: S3, metadata: 'store' },
        "test/store: metadata 'store' must be an object, not a string; pass { name: 'my-store' } or leave it out"],
      ['metadata.name invalid', { destinationPath: 's3://b', s3: S3, metadata: { name: 'My_Store' } },
        "test/store: metadata.name 'My_Store' is not a DNS subdomain (RFC 1123); use lower-case letters, digits, - and ., or leave it out to use the construct id"],
      ['sidecar not an object', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: 'debug' },
        "test/store: instanceSidecarConfiguration 'debug' must be an object, not a string; pass { logLevel: PluginLogLevel.DEBUG }"],
      ['sidecar log level unknown', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { logLevel: 'warn' } },
        "test/store: instanceSidecarConfiguration.logLevel 'warn' is not one of error, warning, info, debug, trace; use PluginLogLevel"],
      ['sidecar --log-level arg', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { additionalContainerArgs: ['--x', '--log-level=debug'] } },
        "test/store: instanceSidecarConfiguration.additionalContainerArgs[1] '--log-level=debug' sets the log level, which the CRD forbids here; use instanceSidecarConfiguration.logLevel"],
      ['sidecar args not an array', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { additionalContainerArgs: '--x' } },
        "test/store: instanceSidecarConfiguration.additionalContainerArgs '--x' must be an array of strings, not a string; pass ['a', 'b']"],
      ['sidecar interval not a Duration', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { retentionPolicyInterval: 1800 } },
        'test/store: instanceSidecarConfiguration.retentionPolicyInterval 1800 must be a cdk8s Duration, not a number; use Duration.minutes(30)'],
      ['sidecar interval fractional seconds', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { retentionPolicyInterval: Duration.millis(1500) } },
        "test/store: instanceSidecarConfiguration.retentionPolicyInterval '1500ms' is not a whole number of seconds of at least 1; use e.g. Duration.minutes(30)"],
      ['sidecar interval zero', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { retentionPolicyInterval: Duration.seconds(0) } },
        "test/store: instanceSidecarConfiguration.retentionPolicyInterval '0ms' is not a whole number of seconds of at least 1; use e.g. Duration.minutes(30)"],
      ['sidecar env not an object', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { env: ['A=b'] } },
        "test/store: instanceSidecarConfiguration.env [\"A=b\"] must be an object, not an array; pass { AWS_CA_BUNDLE: EnvValue.fromValue('/certs/ca.crt') }"],
      ['sidecar env plain string', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { env: { A: 'b' } } },
        "test/store: instanceSidecarConfiguration.env.A 'b' is not an EnvValue; use EnvValue.fromValue('...') or EnvValue.fromSecretValue(...)"],
      ['sidecar env name with =', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { env: { 'A=B': kplus.EnvValue.fromValue('x') } } },
        "test/store: instanceSidecarConfiguration.env 'A=B' is not an environment variable name; use printable characters without '='"],
      ['sidecar resources empty', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { resources: {} } },
        'test/store: instanceSidecarConfiguration.resources {} sets no request or limit; set cpu, memory or ephemeralStorage, or leave resources out'],
      ['sidecar resources not an object', { destinationPath: 's3://b', s3: S3, instanceSidecarConfiguration: { resources: '1Gi' } },
        "test/store: instanceSidecarConfiguration.resources '1Gi' must be an object, not a string; pass { memory: { request: Size.mebibytes(64) } }"],
    ];
    test.each(cases)('%s', (_name, props, message) => {
      expect(build(props)).toThrow(CnpgIValidationError);
      expect(build(props)).toThrow(message);
      // toThrow(string) matches a substring: the whole message must be equal.
      expect(() => {
        try {
          build(props)();
        } catch (e) {
          throw new Error(`[${(e as Error).message}]`);
        }
      }).toThrow(`[${message}]`);
    });
  });
});

describe('ObjectStore stable names', () => {
  const S3_KEYS = { accessKeyId: { name: 'c', key: 'a' }, secretAccessKey: { name: 'c', key: 's' } };

  test('the default name is the construct id, and moving the construct keeps it', () => {
    const before = new Chart(Testing.app(), 'apps', { namespace: 'db' });
    new ObjectStore(before, 'orders-backups', { destinationPath: 's3://b', s3: S3_KEYS });
    const after = new Chart(Testing.app(), 'storage', { namespace: 'db' });
    new ObjectStore(new Construct(after, 'Shared'), 'orders-backups', { destinationPath: 's3://b', s3: S3_KEYS });
    expect(Testing.synth(before)[0].metadata.name).toBe('orders-backups');
    expect(Testing.synth(after)[0].metadata).toEqual(Testing.synth(before)[0].metadata);
  });

  test('an id that cannot be an ObjectStore name is refused with the fix', () => {
    expectValidationError(() => new ObjectStore(Testing.chart(), 'My_Store', { destinationPath: 's3://b', s3: S3_KEYS }),
      "test/My_Store: id 'My_Store' cannot make the ObjectStore name \"My_Store\": by default the name is the construct id, "
      + "which must be an RFC 1123 subdomain (lower-case letters, digits, '-' and '.', at most 253 characters); "
      + "give the construct an id such as 'orders-db', or pin the name with metadata: { name: 'orders-db' }");
    const pinned = new ObjectStore(Testing.chart(), 'My_Store', { destinationPath: 's3://b', s3: S3_KEYS, metadata: { name: 'my-store' } });
    expect(pinned.name).toBe('my-store');
  });

  test('two ObjectStores with one name in one namespace: an error naming both paths', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'apps', { namespace: 'db' });
    new ObjectStore(chart, 'store', { destinationPath: 's3://a', s3: S3_KEYS });
    new ObjectStore(new Construct(chart, 'Team'), 'store', { destinationPath: 's3://b', s3: S3_KEYS });
    expectValidationError(() => app.synth(),
      "apps/store: metadata.name 'store' is also the name of the ObjectStore of apps/Team/store in namespace 'db'; one would silently replace the other; "
      + 'give one of the constructs another id, or pin a distinct metadata.name on one of them');
  });
});

// The same checks the doctor runs (src/doctor/fidelity/barman-cloud.ts), refused at synth.
describe('Clusters using an ObjectStore through Barman Cloud', () => {
  const BARMAN = 'barman-cloud.cloudnative-pg.io';
  const storage = { size: Size.gibibytes(1) };

  test('an ObjectStore in the Cluster namespace is accepted', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    const store = new ObjectStore(chart, 'store', { destinationPath: 's3://b', s3: S3 });
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: store.name, serverName: 'pg' } });
    expect(() => app.synth()).not.toThrow();
  });

  test('an ObjectStore used by a Cluster in another namespace is refused', () => {
    const app = Testing.app();
    const store = new ObjectStore(new Chart(app, 'backups', { namespace: 'backups' }), 'store', { destinationPath: 's3://b', s3: S3 });
    const pg = new PostgresCluster(new Chart(app, 'db', { namespace: 'db' }), 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: store.name } });
    expectValidationError(() => app.synth(),
      "db/pg: spec.plugins[0].parameters.barmanObjectName 'store' ObjectStore 'store' is in namespace backups, but Barman Cloud looks it up only in the Cluster's namespace 'db'; create ObjectStore 'store' in namespace 'db'");
  });

  test('a Barman Cloud parameter other than barmanObjectName and serverName is refused', () => {
    const chart = new Chart(Testing.app(), 'db', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store', objectStore: 'store' } });
    expectValidationError(() => Testing.synth(chart),
      "db/pg: spec.plugins[0].parameters.objectStore 'store' Barman Cloud reads only barmanObjectName and serverName; 'objectStore' is ignored; rename it to barmanObjectName");
  });

  test('a recovered Cluster that archives into its source ObjectStore and serverName is refused', () => {
    const chart = new Chart(Testing.app(), 'db', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'pg', {
      storage,
      metadata: { name: 'orders' },
      bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin', parameters: { barmanObjectName: 'store', serverName: 'orders' } }),
    });
    // No serverName: it defaults to the Cluster's name, the same as the source's.
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    expectValidationError(() => Testing.synth(chart),
      "db/pg: spec.plugins[0].parameters {\"barmanObjectName\":\"store\"} Cluster 'orders' recovers from ObjectStore 'store' server 'orders' and archives into the same ObjectStore and server name; Barman Cloud's empty-archive check fails and recovery stops; give the new Cluster its own serverName (e.g. parameters.serverName: orders-v2) or its own ObjectStore");
  });

  test('a recovered Cluster with its own serverName is accepted', () => {
    const chart = new Chart(Testing.app(), 'db', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'pg', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin', parameters: { barmanObjectName: 'store', serverName: 'orders' } }),
    });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store', serverName: 'orders-v2' } });
    expect(() => Testing.synth(chart)).not.toThrow();
  });
});
