import { CLUSTER_REFERENCE_CHECKS } from '../../../src/checks/admission/cluster-references';
import { admissionCheck, admit } from '../../../src/checks/admission/index';
import type { CheckIssue } from '../../../src/checks/issue';
import type { Json } from '../../../src/manifests/json';

/** The issues of every reference check (one per upstream function), in the webhook's order. */
const checkClusterReferences = (cluster: Json): CheckIssue[] =>
  CLUSTER_REFERENCE_CHECKS.map((c) => admissionCheck(c.kind, c.upstream)!).flatMap((c) => [...c.check(cluster, {})]);

const ext = (name: string, extra: object = { plugin: { name: 'barman-cloud.cloudnative-pg.io', parameters: { barmanObjectName: 'store' } } }) => ({
  name,
  ...extra,
});
const cluster = (spec: object, metadata: object = {}): Json => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'db', ...metadata },
  spec,
});

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
    [{ replica: { source: 'o', primary: 'x' }, bootstrap: { pg_basebackup: { source: 'o' } }, externalClusters: [ext('o')] }, 'spec.replica.primary'],
    [{ replica: { source: 'o', self: 'x' }, bootstrap: { pg_basebackup: { source: 'o' } }, externalClusters: [ext('o')] }, 'spec.replica.self'],
    [{ replica: {}, bootstrap: { recovery: { source: 'o' } }, externalClusters: [ext('o')] }, 'spec.replica.source'],
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
    // In the webhook's order: the bootstrap method, each external cluster, the duplicates, the replica.
    expect(issues.map((i) => i.path)).toEqual([
      'spec.bootstrap',
      'spec.externalClusters[2]',
      'spec.externalClusters[3].name',
      'spec.externalClusters[1].name',
      'spec.replica.enabled',
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

describe('one check per upstream function', () => {
  test('each is registered for the Cluster webhook', () => {
    expect(CLUSTER_REFERENCE_CHECKS.map((c) => c.upstream)).toEqual([
      'validateBootstrapMethod',
      'validateBootstrapPgBaseBackupSource',
      'validateBootstrapRecoverySource',
      'validateExternalClusters',
      'validateReplicaMode',
      'validateReplicaClusterExternalClusters',
    ]);
    for (const c of CLUSTER_REFERENCE_CHECKS) expect(admissionCheck('Cluster', c.upstream)).toBe(c);
  });

  test('the paths the webhook names where they are not the JSON fields', () => {
    const issues = checkClusterReferences(
      cluster({
        bootstrap: { pg_basebackup: { source: 'o' } },
        replica: { source: 'x', self: 'y', primary: 'z', enabled: true },
        externalClusters: [ext('o'), ext('o')],
      }),
    );
    expect(issues.map((i) => [i.path, i.webhookPath])).toEqual([
      ['spec.externalClusters[1].name', 'spec.externalClusters'],
      ['spec.replica.enabled', 'spec.replicaCluster.enabled'],
      ['spec.replica.source', 'spec.replicaCluster.primaryServerName'],
      ['spec.replica.self', 'spec.replicaCluster.self'],
      ['spec.replica.primary', 'spec.replicaCluster.primary'],
    ]);
  });
});

describe('validateReplicaMode: a replica cluster is created from pg_basebackup or recovery', () => {
  const replicaMode = (spec: object, metadata: object = {}) => admissionCheck('Cluster', 'validateReplicaMode')!.check(cluster(spec, metadata), {});
  const origin = [ext('origin')];

  test('a replica cluster bootstrapped by initdb is refused on creation', () => {
    expect(replicaMode({ replica: { enabled: true, source: 'origin' }, bootstrap: { initdb: {} }, externalClusters: origin })).toEqual([
      {
        severity: 'error',
        path: 'spec.replica',
        webhookPath: 'spec.replicaCluster',
        message:
          'makes this Cluster a replica cluster (spec.replica.enabled is true) whose bootstrap is initdb (the default when none is written); the Cluster webhook refuses to create it ' +
          '("replica mode bootstrap is compatible only with pg_basebackup or recovery"): a replica starts from a copy of its source, not from an empty database',
        fix: "bootstrap it with pg_basebackup or recovery from 'origin'; for the primary of a distributed topology, set spec.replica.primary to this Cluster's name",
      },
    ]);
  });

  test('without any bootstrap (before defaulting) the bootstrap is required; admission defaults initdb, so it is the initdb refusal', () => {
    expect(replicaMode({ replica: { source: 'origin', primary: 'other' }, externalClusters: origin })).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap',
        message:
          "is missing on a replica cluster (this Cluster ('pg') is not spec.replica.primary ('other')); the Cluster webhook refuses it (\"bootstrap configuration is required for replica mode\")",
        fix: "bootstrap it with pg_basebackup or recovery from 'origin'",
      },
    ]);
    const admitted = admit('Cluster', cluster({ replica: { source: 'origin' }, externalClusters: origin }));
    expect(admitted.issues.get('validateReplicaMode')?.map((i) => i.path)).toEqual(['spec.replica']);
  });

  test.each([
    ['pg_basebackup', { replica: { enabled: true, source: 'origin' }, bootstrap: { pg_basebackup: { source: 'origin' } } }, {}],
    ['recovery', { replica: { enabled: true, source: 'origin' }, bootstrap: { recovery: { source: 'origin' } } }, {}],
    [
      'an existing Cluster (resourceVersion) switched to replica',
      { replica: { enabled: true, source: 'origin' }, bootstrap: { initdb: {} } },
      { resourceVersion: '42' },
    ],
    ['the primary of a distributed topology (self is primary)', { replica: { source: 'origin', self: 'pg', primary: 'pg' }, bootstrap: { initdb: {} } }, {}],
    ['named as the primary (self defaults to the name)', { replica: { source: 'origin', primary: 'pg' } }, {}],
    ['replica mode switched off', { replica: { enabled: false, source: 'origin' }, bootstrap: { initdb: {} } }, {}],
  ])('passes: %s', (_what, spec, metadata) => {
    expect(replicaMode({ ...spec, externalClusters: origin }, metadata)).toEqual([]);
  });
});
