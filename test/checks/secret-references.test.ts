import { checkReferencedKeys, clusterReferences, generatedSecretNames, objectStoreReferences, secretText } from '../../src/checks/secret-references';

const paths = (refs: Array<{ path: string; name: string }>) => refs.map((r) => `${r.path} ${r.name}`);

describe('secret-references', () => {
  test('the Secrets the operator writes for a Cluster, by what the user supplies', () => {
    expect(generatedSecretNames({ metadata: { name: 'pg' }, spec: {} })).toEqual(['pg-app', 'pg-ca', 'pg-server', 'pg-replication', 'pg-pooler']);
    expect(
      generatedSecretNames({
        metadata: { name: 'pg' },
        spec: {
          enableSuperuserAccess: true,
          bootstrap: { initdb: { secret: { name: 'mine' } } },
          certificates: { serverCASecret: 'a', clientCASecret: 'b', serverTLSSecret: 'c', replicationTLSSecret: 'd' },
        },
      }),
    ).toEqual(['pg-superuser', 'pg-pooler']);
    // one CA supplied: the other is still written under <name>-ca
    expect(generatedSecretNames({ metadata: { name: 'pg' }, spec: { certificates: { serverCASecret: 'a', serverTLSSecret: 'c' } } })).toContain('pg-ca');
  });

  test('one Barman provider is read: S3, else Google, else Azure', () => {
    const both = {
      spec: {
        configuration: {
          s3Credentials: { accessKeyId: { name: 'aws', key: 'id' }, secretAccessKey: { name: 'aws', key: 'k' } },
          azureCredentials: { storageKey: { name: 'az', key: 'k' } },
          googleCredentials: { applicationCredentials: { name: 'gcp', key: 'json' } },
        },
      },
    };
    expect(paths(objectStoreReferences(both))).toEqual([
      'spec.configuration.s3Credentials.accessKeyId aws',
      'spec.configuration.s3Credentials.secretAccessKey aws',
    ]);
    const { s3Credentials: _s3, ...rest } = both.spec.configuration;
    expect(paths(objectStoreReferences({ spec: { configuration: rest } }))).toEqual(['spec.configuration.googleCredentials.applicationCredentials gcp']);
    // GKE with a key file still reads it
    expect(
      paths(
        objectStoreReferences({ spec: { configuration: { googleCredentials: { gkeEnvironment: true, applicationCredentials: { name: 'gcp', key: 'j' } } } } }),
      ),
    ).toEqual(['spec.configuration.googleCredentials.applicationCredentials gcp']);
  });

  test('the application Secret: read for the method chosen, not for a replica cluster, not for a monolith import without a database', () => {
    const refs = (bootstrap: unknown, extra = {}) => paths(clusterReferences({ metadata: { name: 'pg' }, spec: { bootstrap, ...extra } }));
    expect(refs({ pg_basebackup: { source: 'o', secret: { name: 's' } } })).toEqual(['spec.bootstrap.pg_basebackup.secret.name s']);
    expect(refs({ pg_basebackup: { source: 'o', secret: { name: 's' } } }, { replica: { enabled: true, source: 'o' } })).toEqual([]);
    expect(refs({ initdb: { secret: { name: 's' } } }, { replica: { enabled: true, source: 'o' } })).toEqual(['spec.bootstrap.initdb.secret.name s']);
    expect(refs({ initdb: { import: { type: 'monolith' }, secret: { name: 's' } } })).toEqual([]);
    expect(clusterReferences({ spec: { bootstrap: { recovery: { database: 'orders', secret: { name: 's' } } } } })[0].username).toBe('orders');
  });

  test('keys: one of the accepted sets; the username compared as the reader does', () => {
    const ref = { kind: 'Secret' as const, name: 's', path: 'p', keys: [['username', 'password']], username: 'app', effect: 'e' };
    expect(checkReferencedKeys(ref, new Set(['username', 'password']), { username: 'app' })).toEqual([]);
    expect(checkReferencedKeys(ref, new Set(['username', 'password']), { username: 'app ' })).toHaveLength(1);
    expect(checkReferencedKeys({ ...ref, trimsUsername: true }, new Set(['username', 'password']), { username: 'app ' })).toEqual([]);
    expect(secretText({ data: { username: Buffer.from('app').toString('base64') } }, 'username')).toBe('app');
    expect(secretText({ data: { username: 'not base64!' } }, 'username')).toBeUndefined();
  });
});
