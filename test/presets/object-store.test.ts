import { Chart, Duration, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import {
  ClusterBootstrap,
  DataCompression,
  Doctor,
  ObjectStore,
  ObjectStoreCredentials,
  ObjectStoreEncryption,
  ObjectStoreProps,
  ObjectStoreProvider,
  Plugin,
  PluginLogLevel,
  PostgresCluster,
  WalCompression,
} from '../../src';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';

const KEYS = {
  accessKeyId: { name: 'aws-creds', key: 'ACCESS_KEY_ID' },
  secretAccessKey: { name: 'aws-creds', key: 'ACCESS_SECRET_KEY' },
};
const S3 = ObjectStoreCredentials.s3AccessKeys(KEYS);
const js = (v: unknown): any => v;

function synthStore(props: ObjectStoreProps): any {
  const chart = Testing.chart();
  new ObjectStore(chart, 'store', props);
  const objects = Testing.synth(chart);
  expect(objects).toHaveLength(1);
  return objects[0];
}

/** The synth errors of a store built from JavaScript-shaped props (anything goes). */
function errorsOf(props: unknown): string[] {
  const chart = Testing.chart();
  new ObjectStore(chart, 'store', props as ObjectStoreProps);
  return synthErrors(chart);
}

/** Builds a store from JavaScript-shaped props. */
function build(props: unknown): () => ObjectStore {
  return () => new ObjectStore(Testing.chart(), 'store', props as ObjectStoreProps);
}

describe('ObjectStore', () => {
  test('S3 with access keys, the common case (snapshot)', () => {
    const obj = synthStore({
      destinationPath: 's3://backups/pg',
      credentials: ObjectStoreCredentials.s3AccessKeys({ ...KEYS, region: { name: 'aws-creds', key: 'REGION' } }),
      wal: { compression: WalCompression.GZIP, maxParallel: 4 },
      data: { compression: DataCompression.SNAPPY, jobs: 4 },
      retentionPolicy: '30d',
    });
    expect(obj).toMatchSnapshot();
  });

  test('a 70-character name, one label longer than DNS allows: accepted, as the API server accepts it', () => {
    const name = 's'.repeat(70);
    expect(synthStore({ destinationPath: 's3://backups/pg', credentials: S3, metadata: { name } }).metadata.name).toBe(name);
  });

  test('renders apiVersion, kind and the exact credential keys of the CRD', () => {
    const obj = synthStore({
      destinationPath: 's3://backups/pg',
      credentials: ObjectStoreCredentials.s3AccessKeys({ ...KEYS, sessionToken: { name: 'aws-creds', key: 'TOKEN' } }),
    });
    expect(obj.apiVersion).toBe('barmancloud.cnpg.io/v1');
    expect(obj.kind).toBe('ObjectStore');
    expect(obj.spec.configuration.s3Credentials).toEqual({
      accessKeyId: { name: 'aws-creds', key: 'ACCESS_KEY_ID' },
      secretAccessKey: { name: 'aws-creds', key: 'ACCESS_SECRET_KEY' },
      sessionToken: { name: 'aws-creds', key: 'TOKEN' },
    });
  });

  test('exposes the name and namespace that Clusters link to', () => {
    const chart = new Chart(Testing.app(), 'apps', { namespace: 'db' });
    const store = new ObjectStore(chart, 'store', { destinationPath: 's3://b', credentials: S3 });
    const [obj] = Testing.synth(chart);
    expect(store.name).toBe(obj.metadata.name);
    expect(store.name).toBe('store');
    expect(store.namespace).toBe('db');
    expect(obj.metadata.namespace).toBe('db');
    expect(store.destinationPath).toBe('s3://b');
    expect(ObjectStore.fromObjectStoreName('shared', 'db')).toEqual({ name: 'shared', namespace: 'db' });
    // Each names the parameter that points Barman Cloud at it, for the Clusters that link it.
    expect(store.clusterParameters()).toEqual({ barmanObjectName: 'store' });
    expect(ObjectStore.fromObjectStoreName('shared').clusterParameters()).toEqual({ barmanObjectName: 'shared' });
    expectValidationError(
      () => ObjectStore.fromObjectStoreName('Shared_Store'),
      "ObjectStore.fromObjectStoreName: name 'Shared_Store' is not an ObjectStore name (an RFC 1123 subdomain); pass the metadata.name of the ObjectStore",
    );
  });

  test('metadata.name given by the user is kept', () => {
    const obj = synthStore({ destinationPath: 's3://b', credentials: S3, metadata: { name: 'minio-store', labels: { team: 'db' } } });
    expect(obj.metadata).toEqual({ name: 'minio-store', labels: { team: 'db' } });
  });

  test('S3-compatible store with endpoint and CA, IAM role (snapshot)', () => {
    const obj = synthStore({
      destinationPath: 's3://backups/',
      endpointUrl: 'https://minio.minio.svc:9000',
      endpointCa: { name: 'minio-ca', key: 'ca.crt' },
      credentials: ObjectStoreCredentials.s3IamRole(),
      tags: { env: 'prod' },
      historyTags: { kind: 'history' },
    });
    expect(obj.spec.configuration.endpointURL).toBe('https://minio.minio.svc:9000');
    expect(obj.spec.configuration.endpointCA).toEqual({ name: 'minio-ca', key: 'ca.crt' });
    expect(obj.spec.configuration.s3Credentials).toEqual({ inheritFromIAMRole: true });
    expect(obj).toMatchSnapshot();
  });

  test('each way to authenticate renders the CRD keys, for its provider', () => {
    const path = 'https://acct.blob.core.windows.net/backups/pg';
    const ref = (key: string) => ({ name: 'az', key });
    const cases: Array<[ObjectStoreCredentials, string, string, unknown]> = [
      [ObjectStoreCredentials.s3IamRole({ region: ref('R') }), 's3://b', 's3Credentials', { region: ref('R'), inheritFromIAMRole: true }],
      [ObjectStoreCredentials.azureConnectionString(ref('CS')), path, 'azureCredentials', { connectionString: ref('CS') }],
      [
        ObjectStoreCredentials.azureStorageKey({ storageAccount: ref('ACCOUNT'), storageKey: ref('KEY') }),
        path,
        'azureCredentials',
        { storageAccount: ref('ACCOUNT'), storageKey: ref('KEY') },
      ],
      [
        ObjectStoreCredentials.azureSasToken({ storageAccount: ref('ACCOUNT'), storageSasToken: ref('SAS') }),
        path,
        'azureCredentials',
        { storageAccount: ref('ACCOUNT'), storageSasToken: ref('SAS') },
      ],
      [ObjectStoreCredentials.azureWorkloadIdentity(), path, 'azureCredentials', { inheritFromAzureAD: true }],
      [ObjectStoreCredentials.azureDefaultCredentials(), path, 'azureCredentials', { useDefaultAzureCredentials: true }],
      [
        ObjectStoreCredentials.googleApplicationCredentials({ name: 'gcs', key: 'key.json' }),
        'gs://b/p',
        'googleCredentials',
        { applicationCredentials: { name: 'gcs', key: 'key.json' } },
      ],
      [ObjectStoreCredentials.gkeWorkloadIdentity(), 'gs://b/p', 'googleCredentials', { gkeEnvironment: true }],
    ];
    for (const [credentials, destinationPath, field, json] of cases) {
      const configuration = synthStore({ destinationPath, credentials }).spec.configuration;
      expect(configuration[field]).toEqual(json);
      expect(Object.keys(configuration).sort()).toEqual(['destinationPath', field].sort());
    }
    expect(ObjectStoreCredentials.gkeWorkloadIdentity().provider).toBe(ObjectStoreProvider.GOOGLE);
  });

  test('wal and data options use the wire values', () => {
    const obj = synthStore({
      destinationPath: 's3://b',
      credentials: S3,
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
      credentials: S3,
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

  test('empty sidecar resources are written as given', () => {
    expect(
      synthStore({ destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { resources: {} } }).spec.instanceSidecarConfiguration,
    ).toEqual({ resources: {} });
  });

  test('sidecar sizes are written like every other Size: the largest whole binary unit', () => {
    const obj = synthStore({
      destinationPath: 's3://b',
      credentials: S3,
      instanceSidecarConfiguration: { resources: { memory: { request: Size.gibibytes(1) }, ephemeralStorage: { limit: Size.mebibytes(1536) } } },
    });
    expect(obj.spec.instanceSidecarConfiguration.resources).toEqual({ requests: { memory: '1Gi' }, limits: { 'ephemeral-storage': '1536Mi' } });
  });

  test('documented defaults: everything optional is left out, so the CRD and barman-cloud defaults apply', () => {
    const obj = synthStore({ destinationPath: 's3://b', credentials: S3 });
    // metadata: the construct id, chart namespace (none in Testing.chart()).
    expect(Object.keys(obj.metadata)).toEqual(['name']);
    expect(Object.keys(obj.spec)).toEqual(['configuration']); // retentionPolicy, instanceSidecarConfiguration unset
    expect(Object.keys(obj.spec.configuration).sort()).toEqual(['destinationPath', 's3Credentials']);
    // s3: region, sessionToken unset; no inheritFromIAMRole with keys
    expect(Object.keys(obj.spec.configuration.s3Credentials).sort()).toEqual(['accessKeyId', 'secretAccessKey']);
    const withEmptyOptions = synthStore({ destinationPath: 's3://b', credentials: S3, wal: {}, data: {}, instanceSidecarConfiguration: {} });
    // wal: compression, encryption, maxParallel, args unset; data: compression, encryption, jobs, immediateCheckpoint, args unset;
    // sidecar: env, resources, logLevel (CRD: info), retentionPolicyIntervalSeconds (CRD: 1800), args unset.
    expect(withEmptyOptions.spec.configuration.wal).toEqual({});
    expect(withEmptyOptions.spec.configuration.data).toEqual({});
    expect(withEmptyOptions.spec.instanceSidecarConfiguration).toEqual({});
  });

  test('no secret material: only names and keys of Secrets appear', () => {
    const yaml = JSON.stringify(synthStore({ destinationPath: 's3://b', credentials: S3 }));
    expect(yaml).not.toMatch(/stringData|"data":\{"[A-Z]/);
  });

  test('retentionPolicy accepts days, weeks and months', () => {
    for (const p of ['1d', '30d', '4w', '12m', '100d']) {
      expect(synthStore({ destinationPath: 's3://b', credentials: S3, retentionPolicy: p }).spec.retentionPolicy).toBe(p);
    }
  });

  test('the CRD schema and its CEL rules judge the values at synth, every problem at once', () => {
    expect(
      errorsOf({
        destinationPath: 's3://b',
        credentials: S3,
        retentionPolicy: '30 days',
        wal: { compression: 'zip', maxParallel: 0 },
        data: { jobs: 1.5, immediateCheckpoint: 'yes' },
        tags: { n: 1 },
        instanceSidecarConfiguration: { logLevel: 'warn', additionalContainerArgs: ['--x', '--log-level=debug'] },
      }),
    ).toEqual([
      "[test/store] ObjectStore 'store' spec.configuration.data.immediateCheckpoint: must be a boolean; value 'yes'; allowed a boolean",
      "[test/store] ObjectStore 'store' spec.configuration.data.jobs: must be a whole number; value 1.5; allowed a whole number",
      "[test/store] ObjectStore 'store' spec.configuration.tags.n: must be a string; value 1; allowed a string",
      "[test/store] ObjectStore 'store' spec.configuration.wal.compression: is not one of the values the CRD allows; value 'zip'; allowed one of 'bzip2', 'gzip', 'lz4', 'snappy', 'xz', 'zstd'",
      "[test/store] ObjectStore 'store' spec.configuration.wal.maxParallel: must be >= 1; value 0; allowed >= 1",
      "[test/store] ObjectStore 'store' spec.instanceSidecarConfiguration.logLevel: is not one of the values the CRD allows; value 'warn'; allowed one of 'error', 'warning', 'info', 'debug', 'trace'",
      "[test/store] ObjectStore 'store' spec.retentionPolicy: is not a retention period (a whole number of days, weeks or months, then d, w or m); value '30 days'; allowed a period: write 30d",
      "[test/store] ObjectStore 'store' spec.instanceSidecarConfiguration.additionalContainerArgs: fails the CRD rule `!self.exists(a, a.startsWith('--log-level'))`, so the API server refuses the object; allowed what the rule allows",
    ]);
  });

  test('a destination for another provider, or an endpoint that is not http(s), is refused at synth', () => {
    expect(errorsOf({ destinationPath: 'gs://b', credentials: S3, endpointUrl: 'minio:9000' })).toEqual([
      "[test/store] destinationPath 'gs://b' is not a destination for s3 credentials; use 's3://<bucket>/<path>' (S3-compatible stores too, with endpointUrl)",
    ]);
    expect(errorsOf({ destinationPath: 's3://b', credentials: ObjectStoreCredentials.gkeWorkloadIdentity() })).toEqual([
      "[test/store] destinationPath 's3://b' is not a destination for google credentials; use 'gs://<bucket>/<path>'",
    ]);
    expect(errorsOf({ destinationPath: 's3://b', credentials: ObjectStoreCredentials.azureWorkloadIdentity() })).toEqual([
      "[test/store] destinationPath 's3://b' is not a destination for azure credentials; use 'https://<account>.blob.core.windows.net/<container>/<path>'",
    ]);
    expect(errorsOf({ destinationPath: 's3://b', credentials: S3, endpointUrl: 'minio:9000' })).toEqual([
      "[test/store] endpointUrl 'minio:9000' is not an http(s) URL; use the endpoint's URL, e.g. 'https://minio.minio.svc:9000'",
    ]);
    expect(errorsOf({ destinationPath: '', credentials: S3 })).toEqual([
      "[test/store] ObjectStore 'store' spec.configuration.destinationPath: must be at least 1 characters; value ''; allowed at least 1 characters",
      "[test/store] destinationPath '' is not a destination for s3 credentials; use 's3://<bucket>/<path>' (S3-compatible stores too, with endpointUrl)",
    ]);
  });

  test('a retention policy in words says what to write, not the pattern', () => {
    expect(errorsOf({ destinationPath: 's3://b', credentials: S3, retentionPolicy: '30 days' })).toEqual([
      "[test/store] ObjectStore 'store' spec.retentionPolicy: is not a retention period (a whole number of days, weeks or months, then d, w or m); value '30 days'; allowed a period: write 30d",
    ]);
    expect(errorsOf({ destinationPath: 's3://b', credentials: S3, retentionPolicy: '4 Weeks' })[0]).toContain('allowed a period: write 4w');
    expect(errorsOf({ destinationPath: 's3://b', credentials: S3, retentionPolicy: 'forever' })[0]).toContain('allowed a period: write 30d');
    // near misses the CRD takes
    for (const retentionPolicy of ['30d', '4w', '6m']) expect(errorsOf({ destinationPath: 's3://b', credentials: S3, retentionPolicy })).toEqual([]);
  });

  test('a sidecar interval with a fraction of a second is refused at synth by the CRD schema (an integer of seconds)', () => {
    expect(errorsOf({ destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { retentionPolicyInterval: Duration.millis(1500) } })).toEqual([
      "[test/store] ObjectStore 'store' spec.instanceSidecarConfiguration.retentionPolicyIntervalSeconds: must be a whole number; value 1.5; allowed a whole number",
    ]);
  });

  describe('refused when built (exact messages)', () => {
    const cases: Array<[string, unknown, string]> = [
      [
        'props not an object',
        null,
        'test/store: props null must be an object, not null; pass { destinationPath: ..., credentials: ... } (these keys are required)',
      ],
      [
        'old provider keys',
        { destinationPath: 's3://b', s3: KEYS },
        'test/store: props.s3 {"accessKeyId":{"name":"aws-creds","key":"ACCESS_KEY_ID"},"secretAccessKey":{"name":"aws-creds","key":"ACCESS_SECRET_... is not a declared key of props; remove it; props takes credentials, data, destinationPath, endpointCa, endpointUrl, historyTags, instanceSidecarConfiguration, metadata, retentionPolicy, tags, wal',
      ],
      [
        'no credentials',
        { destinationPath: 's3://b' },
        'test/store: credentials is missing: it must be an ObjectStoreCredentials; use a factory such as ObjectStoreCredentials.s3AccessKeys({ accessKeyId, secretAccessKey }) or ObjectStoreCredentials.s3IamRole()',
      ],
      [
        'credentials as a plain object',
        { destinationPath: 's3://b', credentials: { inheritFromIamRole: true } },
        'test/store: credentials {"inheritFromIamRole":true} must be an ObjectStoreCredentials, not an object; use a factory such as ObjectStoreCredentials.s3AccessKeys({ accessKeyId, secretAccessKey }) or ObjectStoreCredentials.s3IamRole()',
      ],
      [
        'misspelt key',
        { destinationPath: 's3://b', credentials: S3, retention: '30d' },
        "test/store: props.retention '30d' is not a declared key of props; remove it; props takes credentials, data, destinationPath, endpointCa, endpointUrl, historyTags, instanceSidecarConfiguration, metadata, retentionPolicy, tags, wal",
      ],
      [
        'misspelt key, close',
        { destinationPath: 's3://b', credentials: S3, retentionPolicies: '30d' },
        "test/store: props.retentionPolicies '30d' is not a declared key of props; did you mean 'retentionPolicy'?",
      ],
      [
        'wal key',
        { destinationPath: 's3://b', credentials: S3, wal: { maxparallel: 4 } },
        "test/store: wal.maxparallel 4 is not a declared key of wal; did you mean 'maxParallel'?",
      ],
      [
        'data key',
        { destinationPath: 's3://b', credentials: S3, data: { job: 4 } },
        "test/store: data.job 4 is not a declared key of data; did you mean 'jobs'?",
      ],
      [
        'wal not an object',
        { destinationPath: 's3://b', credentials: S3, wal: 'gzip' },
        "test/store: wal 'gzip' must be an object, not a string; pass an object with any of archiveAdditionalCommandArgs, compression, encryption, maxParallel, restoreAdditionalCommandArgs, or leave it out",
      ],
      [
        'data an object of another class, whose fields would be lost',
        { destinationPath: 's3://b', credentials: S3, data: new Date(0) },
        'test/store: data "1970-01-01T00:00:00.000Z" is not plain JSON (Date); write strings, numbers, booleans, arrays and plain objects, as the CRD takes them',
      ],
      [
        'a value of wal that is not plain JSON',
        { destinationPath: 's3://b', credentials: S3, wal: { maxParallel: Duration.seconds(4) } },
        'test/store: wal.maxParallel {"amount":4,"unit":{"label":"seconds","inMillis":1000}} is not plain JSON (Duration); write strings, numbers, booleans, arrays and plain objects, as the CRD takes them',
      ],
      [
        'endpointCa not a reference',
        { destinationPath: 's3://b', credentials: S3, endpointCa: 'minio-ca' },
        "test/store: endpointCa 'minio-ca' must be an object, not a string; pass { name: ..., key: ... } (these keys are required)",
      ],
      [
        'endpointCa secret name invalid',
        { destinationPath: 's3://b', credentials: S3, endpointCa: { name: 'Minio_CA', key: 'ca.crt' } },
        "test/store: endpointCa.name 'Minio_CA' is not a Secret name (an RFC 1123 subdomain); pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }",
      ],
      [
        'sidecar key',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { loglevel: 'debug' } },
        "test/store: instanceSidecarConfiguration.loglevel 'debug' is not a declared key of instanceSidecarConfiguration; did you mean 'logLevel'?",
      ],
      [
        'sidecar interval not a Duration',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { retentionPolicyInterval: 1800 } },
        'test/store: instanceSidecarConfiguration.retentionPolicyInterval 1800 must be a cdk8s Duration, not a number; use Duration.minutes(30)',
      ],
      [
        'sidecar interval zero',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { retentionPolicyInterval: Duration.seconds(0) } },
        "test/store: instanceSidecarConfiguration.retentionPolicyInterval '0 seconds' is zero; it must be more than zero; use Duration.minutes(30)",
      ],
      [
        'sidecar env not an object',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { env: ['A=b'] } },
        'test/store: instanceSidecarConfiguration.env ["A=b"] must be an object of kplus.EnvValues, not an array; use { LOG_LEVEL: EnvValue.fromValue(\'info\') }',
      ],
      [
        'sidecar env plain string',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { env: { A: 'b' } } },
        "test/store: instanceSidecarConfiguration.env.A 'b' must be a kplus.EnvValue, not a string; use { LOG_LEVEL: EnvValue.fromValue('info') }",
      ],
      [
        'sidecar env value without a value',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { env: { A: kplus.EnvValue.fromValue(undefined as any) } } },
        "test/store: instanceSidecarConfiguration.env.A {} has no value and no source; use { LOG_LEVEL: EnvValue.fromValue('info') }",
      ],
      [
        'sidecar resources key',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { resources: { mem: {} } } },
        'test/store: instanceSidecarConfiguration.resources.mem {} is not a declared key of instanceSidecarConfiguration.resources; remove it; instanceSidecarConfiguration.resources takes cpu, ephemeralStorage, memory',
      ],
      [
        'sidecar memory not a Size',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { resources: { memory: { request: '64Mi' } } } },
        "test/store: instanceSidecarConfiguration.resources.memory.request '64Mi' must be a cdk8s Size, not a string; use Size.mebibytes(128)",
      ],
      [
        'sidecar cpu not a Cpu',
        { destinationPath: 's3://b', credentials: S3, instanceSidecarConfiguration: { resources: { cpu: { limit: 1 } } } },
        'test/store: instanceSidecarConfiguration.resources.cpu.limit 1 must be a cdk8s-plus Cpu, not a number; use Cpu.millis(500) or Cpu.units(1)',
      ],
    ];
    test.each(cases)('%s', (_name, props, message) => {
      expectValidationError(build(props), message);
    });
  });

  describe('ObjectStoreCredentials factories refuse bad references', () => {
    test.each<[string, () => unknown, string]>([
      [
        'a missing key',
        () => ObjectStoreCredentials.s3AccessKeys(js({ accessKeyId: KEYS.accessKeyId })),
        'ObjectStoreCredentials.s3AccessKeys: secretAccessKey null must be an object, not null; pass { name: ..., key: ... } (these keys are required)',
      ],
      [
        'an unknown key',
        () => ObjectStoreCredentials.s3AccessKeys(js({ ...KEYS, sessiontoken: KEYS.accessKeyId })),
        'ObjectStoreCredentials.s3AccessKeys: options.sessiontoken {"name":"aws-creds","key":"ACCESS_KEY_ID"} is not a declared key of options; did you mean \'sessionToken\'?',
      ],
      [
        'a Secret name with an underscore',
        () => ObjectStoreCredentials.azureConnectionString({ name: 'AZ_creds', key: 'CS' }),
        "ObjectStoreCredentials.azureConnectionString: connectionString.name 'AZ_creds' is not a Secret name (an RFC 1123 subdomain); pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }",
      ],
      [
        'a data key with a slash',
        () => ObjectStoreCredentials.googleApplicationCredentials({ name: 'gcs', key: 'a/b' }),
        "ObjectStoreCredentials.googleApplicationCredentials: applicationCredentials.key 'a/b' is not a Secret data key (letters, digits, -, _ and ., not '.' nor starting with '..'); pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }",
      ],
      [
        'a reference with an extra key',
        () => ObjectStoreCredentials.azureStorageKey(js({ storageAccount: { name: 'a', key: 'b', optional: true }, storageKey: { name: 'a', key: 'c' } })),
        'ObjectStoreCredentials.azureStorageKey: storageAccount.optional true is not a declared key of storageAccount; remove it; storageAccount takes key, name',
      ],
      [
        'IAM role options that are not an object',
        () => ObjectStoreCredentials.s3IamRole(js('eu-west-1')),
        "ObjectStoreCredentials.s3IamRole: options 'eu-west-1' must be an object, not a string; pass an object with any of region",
      ],
    ])('%s', (_name, fn, message) => {
      expectValidationError(fn, message);
    });
  });
});

describe('ObjectStore stable names', () => {
  const S3_KEYS = ObjectStoreCredentials.s3AccessKeys({ accessKeyId: { name: 'c', key: 'a' }, secretAccessKey: { name: 'c', key: 's' } });

  test('the default name is the construct id, and moving the construct keeps it', () => {
    const before = new Chart(Testing.app(), 'apps', { namespace: 'db' });
    new ObjectStore(before, 'orders-backups', { destinationPath: 's3://b', credentials: S3_KEYS });
    const after = new Chart(Testing.app(), 'storage', { namespace: 'db' });
    new ObjectStore(new Construct(after, 'Shared'), 'orders-backups', { destinationPath: 's3://b', credentials: S3_KEYS });
    expect(Testing.synth(before)[0].metadata.name).toBe('orders-backups');
    expect(Testing.synth(after)[0].metadata).toEqual(Testing.synth(before)[0].metadata);
  });

  test('an id that cannot be an ObjectStore name is refused with the fix', () => {
    expectValidationError(
      () => new ObjectStore(Testing.chart(), 'My_Store', { destinationPath: 's3://b', credentials: S3_KEYS }),
      'test/My_Store: id \'My_Store\' cannot make the ObjectStore name "My_Store": by default the name is the construct id, ' +
        "which must be an RFC 1123 subdomain (lower-case letters, digits, '-' and '.', at most 253 characters); " +
        "give the construct an id such as 'orders-db', or pin the name with metadata: { name: 'orders-db' }",
    );
    const pinned = new ObjectStore(Testing.chart(), 'My_Store', { destinationPath: 's3://b', credentials: S3_KEYS, metadata: { name: 'my-store' } });
    expect(pinned.name).toBe('my-store');
  });

  test('two ObjectStores with one name in one namespace: an error naming both paths', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'apps', { namespace: 'db' });
    new ObjectStore(chart, 'store', { destinationPath: 's3://a', credentials: S3_KEYS });
    new ObjectStore(new Construct(chart, 'Team'), 'store', { destinationPath: 's3://b', credentials: S3_KEYS });
    expect(() => app.synth()).toThrow(
      "[apps/store] metadata.name 'store' is also the name of the ObjectStore of apps/Team/store in namespace 'db'; one would silently replace the other; " +
        'give one of the constructs another id, or pin a distinct metadata.name on one of them',
    );
  });
});

// The same checks the doctor runs (src/checks/barman-cloud.ts), refused at synth.
describe('Clusters using an ObjectStore through Barman Cloud', () => {
  const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
  const storage = { size: Size.gibibytes(1) };

  test('an ObjectStore in the Cluster namespace is accepted', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    const store = new ObjectStore(chart, 'store', { destinationPath: 's3://b', credentials: S3 });
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, objectStore: store, parameters: { serverName: 'pg' } });
    expect(() => app.synth()).not.toThrow();
  });

  test('an ObjectStore of the app named by parameters from a Cluster in another namespace is refused at synth', () => {
    const app = Testing.app();
    const store = new ObjectStore(new Chart(app, 'backups', { namespace: 'backups' }), 'store', { destinationPath: 's3://b', credentials: S3 });
    const pg = new PostgresCluster(new Chart(app, 'db', { namespace: 'db' }), 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: store.name } });
    expect(() => app.synth()).toThrow(
      "[db/pg] plugins[barman-cloud.cloudnative-pg.io].parameters.barmanObjectName 'store' ObjectStore 'store' is in namespace backups, but Barman Cloud looks it up only in the Cluster's namespace 'db'; create ObjectStore 'store' in namespace 'db'",
    );
  });

  test('a Barman Cloud parameter other than barmanObjectName and serverName is accepted (the plugin ignores it): a doctor warning', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store', objectStore: 'store' } });
    expect(synthErrors(chart)).toEqual([]);
    const f = Doctor.analyze(app, { knownPlugins: [BARMAN.pluginName] }).findings.filter((x) => x.ruleId === 'CNPGI106');
    expect(f.map((x) => [x.severity, x.object, x.path, x.message, x.fix])).toEqual([
      [
        'warning',
        'Cluster/db/pg',
        'spec.plugins[0].parameters.objectStore',
        "Barman Cloud reads only barmanObjectName and serverName; 'objectStore' is ignored",
        'rename it to barmanObjectName',
      ],
    ]);
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
    expect(synthErrors(chart)).toEqual([
      "[db/pg] plugins[barman-cloud.cloudnative-pg.io].parameters {\"barmanObjectName\":\"store\"} Cluster 'orders' recovers from ObjectStore 'store' server 'orders' and archives into the same ObjectStore and server name; Barman Cloud's empty-archive check fails before restoring and the recovery stops; cnpg.io/skipEmptyWalArchiveCheck: enabled skips the check and continues the source's archive on a new timeline; give the new Cluster its own serverName (e.g. parameters.serverName: orders-v2) or its own ObjectStore",
    ]);
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
