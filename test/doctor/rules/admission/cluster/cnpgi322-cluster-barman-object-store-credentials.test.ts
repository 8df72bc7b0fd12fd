import { clusterDoc, findingsOf } from './webhook-findings';

const ref = { name: 'store-creds', key: 'value' };
const of = (store: object) => findingsOf('CNPGI322', clusterDoc({ backup: { barmanObjectStore: { destinationPath: 's3://backups/', ...store } } }));
const STORE = 'spec.backup.barmanObjectStore';

describe('CNPGI322 cluster-barman-object-store-credentials', () => {
  test('no credentials (the upstream test)', () => {
    expect(of({})).toEqual([
      {
        path: STORE,
        message:
          'the Cluster webhook refuses a barmanObjectStore without credentials ("missing credentials. One and only one of azureCredentials, s3Credentials and googleCredentials are required")',
        fix: 'add s3Credentials, azureCredentials or googleCredentials for the object store, e.g. s3Credentials: { inheritFromIAMRole: true }',
      },
    ]);
  });

  test('S3: nothing to authenticate with; half a key pair beside inheritFromIAMRole', () => {
    expect(of({ s3Credentials: {} })).toEqual([
      {
        path: `${STORE}.s3Credentials`,
        message:
          'the Cluster webhook refuses s3Credentials ("at least one AWS authentication method should be supplied"): it names neither a key pair nor inheritFromIAMRole',
        fix: 'name accessKeyId and secretAccessKey, or set inheritFromIAMRole: true',
      },
    ]);
    expect(of({ s3Credentials: { secretAccessKey: ref, inheritFromIAMRole: true } })).toEqual([
      {
        path: `${STORE}.s3Credentials`,
        message:
          'the Cluster webhook refuses s3Credentials ("when using AWS credentials both accessKeyId and secretAccessKey must be provided"): it names secretAccessKey without accessKeyId',
        fix: 'name both accessKeyId and secretAccessKey (each a secret key reference), or use inheritFromIAMRole: true',
      },
      {
        path: `${STORE}.s3Credentials`,
        message:
          'the Cluster webhook refuses s3Credentials ("only one AWS authentication method should be supplied"): it names a key pair and inheritFromIAMRole: true',
        fix: 'keep the key pair or inheritFromIAMRole: true, not both',
      },
    ]);
  });

  test('Azure: no method; a connection string beside a key that has no account', () => {
    expect(of({ azureCredentials: {} })).toEqual([
      {
        path: `${STORE}.azureCredentials`,
        message:
          'the Cluster webhook refuses azureCredentials ("when connection string is not specified, one and only one of storage key, storage SAS token, Azure AD authentication, or default Azure credentials is required"): it names no way to authenticate',
        fix: 'keep exactly one of storageKey (with storageAccount), storageSasToken (with storageAccount), inheritFromAzureAD: true and useDefaultAzureCredentials: true, or use connectionString alone',
      },
    ]);
    expect(of({ azureCredentials: { connectionString: ref, storageKey: ref } })).toEqual([
      {
        path: `${STORE}.azureCredentials`,
        message:
          'the Cluster webhook refuses azureCredentials ("when connection string is specified, the other parameters must be empty"): a connection string carries the account and the key itself',
        fix: 'keep connectionString alone, or drop it and name the account and one way to authenticate',
      },
      {
        path: `${STORE}.azureCredentials`,
        message:
          'the Cluster webhook refuses azureCredentials ("storage account must be specified when using storage key or SAS token"): a key or a SAS token is only valid with the account it belongs to',
        fix: 'add storageAccount: { name: <secret>, key: <key> } naming the storage account',
      },
    ]);
    expect(of({ azureCredentials: { inheritFromAzureAD: true, useDefaultAzureCredentials: true } }).map((f) => f.message)).toEqual([
      'the Cluster webhook refuses azureCredentials ("when connection string is not specified, one and only one of storage key, storage SAS token, Azure AD authentication, or default Azure credentials is required"): it names 2 ways to authenticate',
    ]);
  });

  test('Google: no key outside GKE; a key on GKE', () => {
    expect(of({ googleCredentials: {} })).toEqual([
      {
        path: `${STORE}.googleCredentials`,
        message:
          'the Cluster webhook refuses googleCredentials ("if gkeEnvironment is false, secret with credentials must be provided"): outside GKE the instances need a service account key',
        fix: 'name applicationCredentials (a secret key reference to the service account JSON), or set gkeEnvironment: true on GKE with Workload Identity',
      },
    ]);
    expect(of({ googleCredentials: { gkeEnvironment: true, applicationCredentials: ref } })).toEqual([
      {
        path: `${STORE}.googleCredentials`,
        message:
          'the Cluster webhook refuses googleCredentials ("if gkeEnvironment is true, secret with credentials must not be provided"): on GKE the instances authenticate as their Kubernetes service account',
        fix: 'leave applicationCredentials out, or set gkeEnvironment: false to use the key',
      },
    ]);
  });

  test('two providers: only the last one checked keeps its problems, beside "too many credentials"', () => {
    expect(of({ azureCredentials: {}, googleCredentials: { gkeEnvironment: true } })).toEqual([
      {
        path: STORE,
        message:
          'the Cluster webhook refuses a barmanObjectStore with 2 kinds of credentials ("too many credentials. One and only one of azureCredentials, s3Credentials and googleCredentials are required")',
        fix: 'keep the credentials of the provider that holds destinationPath, and remove the others',
      },
    ]);
    expect(of({ googleCredentials: { gkeEnvironment: true }, s3Credentials: {} }).map((f) => f.path)).toEqual([STORE]);
    expect(of({ s3Credentials: { inheritFromIAMRole: true }, googleCredentials: {} }).map((f) => f.path)).toEqual([`${STORE}.googleCredentials`, STORE]);
  });

  test.each([
    ['no backup stanza', undefined],
    ['a backup stanza without barmanObjectStore', {}],
    ['S3 with a key pair', { barmanObjectStore: { destinationPath: 's3://b/', s3Credentials: { accessKeyId: ref, secretAccessKey: ref, region: ref } } }],
    ['S3 with the IAM role', { barmanObjectStore: { destinationPath: 's3://b/', s3Credentials: { inheritFromIAMRole: true } } }],
    ['Azure with a connection string', { barmanObjectStore: { destinationPath: 'https://a.blob/c', azureCredentials: { connectionString: ref } } }],
    [
      'Azure with an account and a SAS token',
      { barmanObjectStore: { destinationPath: 'https://a.blob/c', azureCredentials: { storageAccount: ref, storageSasToken: ref } } },
    ],
    ['Azure with workload identity', { barmanObjectStore: { destinationPath: 'https://a.blob/c', azureCredentials: { inheritFromAzureAD: true } } }],
    ['Google on GKE', { barmanObjectStore: { destinationPath: 'gs://b/', googleCredentials: { gkeEnvironment: true } } }],
    ['Google with a key', { barmanObjectStore: { destinationPath: 'gs://b/', googleCredentials: { applicationCredentials: ref } } }],
  ])('accepted: %s', (_what, backup) => {
    expect(findingsOf('CNPGI322', clusterDoc(backup === undefined ? {} : { backup }))).toEqual([]);
  });
});
