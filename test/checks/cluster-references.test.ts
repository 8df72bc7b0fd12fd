import { checkClusterReferences } from '../../src/checks/cluster-references';

const ext = (name: string, extra: object = { plugin: { name: 'barman-cloud.cloudnative-pg.io', parameters: { barmanObjectName: 'store' } } }) => ({
  name,
  ...extra,
});
const cluster = (spec: object) => ({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg', namespace: 'db' }, spec });

describe('checkClusterReferences (cluster webhook cross-references)', () => {
  test('a recovery source, a replica source and primary that all exist pass', () => {
    expect(
      checkClusterReferences(
        cluster({
          bootstrap: { recovery: { source: 'origin' } },
          replica: { source: 'origin', primary: 'origin', self: 'here' },
          externalClusters: [ext('origin'), ext('here', { connectionParameters: {} })],
        }),
      ),
    ).toEqual([]);
  });

  test('a recovery source that names no external cluster', () => {
    expect(checkClusterReferences(cluster({ bootstrap: { recovery: { source: 'orign' } }, externalClusters: [ext('origin')] }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.source',
        message: "recovery source 'orign' names no entry of spec.externalClusters (defined: 'origin'); the Cluster webhook refuses the Cluster",
        fix: "add an externalClusters entry named 'orign', or set spec.bootstrap.recovery.source to one of the defined names",
      },
    ]);
  });

  test('an empty recovery source is not checked (recovery from a Backup), an empty pg_basebackup source is', () => {
    expect(checkClusterReferences(cluster({ bootstrap: { recovery: { backup: { name: 'b' } } } }))).toEqual([]);
    expect(checkClusterReferences(cluster({ bootstrap: { pg_basebackup: {} } })).map((i) => i.path)).toEqual(['spec.bootstrap.pg_basebackup.source']);
  });

  test.each([
    [{ bootstrap: { pg_basebackup: { source: 'x' } } }, 'spec.bootstrap.pg_basebackup.source'],
    [{ replica: { source: 'x' }, bootstrap: { pg_basebackup: { source: 'o' } }, externalClusters: [ext('o')] }, 'spec.replica.source'],
    [{ replica: { source: 'o', primary: 'x' }, externalClusters: [ext('o')] }, 'spec.replica.primary'],
    [{ replica: { source: 'o', self: 'x' }, externalClusters: [ext('o')] }, 'spec.replica.self'],
    [{ replica: {}, externalClusters: [ext('o')] }, 'spec.replica.source'],
  ])('a dangling reference %#', (spec, path) => {
    expect(checkClusterReferences(cluster(spec)).map((i) => i.path)).toEqual([path]);
  });

  test('duplicate names, an entry with no source configuration, an unsafe name, two bootstrap methods, enabled with primary', () => {
    const issues = checkClusterReferences(
      cluster({
        bootstrap: { initdb: {}, recovery: { source: 'a' } },
        replica: { source: 'a', primary: 'a', enabled: true },
        externalClusters: [ext('a'), ext('a'), { name: 'b' }, ext('../c')],
      }),
    );
    expect(issues.map((i) => i.path)).toEqual([
      'spec.bootstrap',
      'spec.replica.enabled',
      'spec.externalClusters[1].name',
      'spec.externalClusters[2]',
      'spec.externalClusters[3].name',
    ]);
  });

  test('a recovery source without connection, Barman or plugin configuration', () => {
    expect(checkClusterReferences(cluster({ bootstrap: { recovery: { source: 'a' } }, externalClusters: [{ name: 'a' }] })).map((i) => i.path)).toEqual([
      'spec.bootstrap.recovery.source',
      'spec.externalClusters[0]',
    ]);
  });
});

describe('external-cluster TLS Secret selectors (validateExternalCluster, isUnsafePathComponent)', () => {
  test.each([
    [{ sslCert: { name: '../etc', key: 'tls.crt' } }, 'spec.externalClusters[0].sslCert.name'],
    [{ sslKey: { name: 'origin-tls', key: 'a/b' } }, 'spec.externalClusters[0].sslKey.key'],
    [{ sslRootCert: { name: '.', key: 'ca.crt' } }, 'spec.externalClusters[0].sslRootCert.name'],
    [{ sslRootCert: { name: 'x', key: 'back\\slash' } }, 'spec.externalClusters[0].sslRootCert.key'],
  ])('%j is refused', (selectors, path) => {
    expect(
      checkClusterReferences(cluster({ externalClusters: [ext('origin', { connectionParameters: { host: 'h' }, ...selectors })] })).map((i) => i.path),
    ).toEqual([path]);
  });
  test('plain names and keys, including dots inside, pass', () => {
    expect(
      checkClusterReferences(
        cluster({
          externalClusters: [
            ext('origin', {
              connectionParameters: { host: 'h' },
              sslCert: { name: 'origin.tls', key: 'tls.crt' },
              sslKey: { name: 'origin-tls', key: 'tls.key' },
              sslRootCert: { name: 'ca', key: '..ca' },
            }),
          ],
        }),
      ),
    ).toEqual([]);
  });
});
