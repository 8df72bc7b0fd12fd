// plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster (the recovery
// serverName defaults to the recovering Cluster's name), internal/cnpgi/restore/restore.go
// loadBackupObjectFromExternalCluster, ensureArchiveContainsLastCheckpointRedoWAL; barman-cloud
// pkg/command/commandbuilder.go CloudWalRestoreOptions; cloudnative-pg v1.30.0 api/v1/cluster_funcs.go
// ExternalCluster.GetServerName.
import { barman, cluster, findings, objectStore, recovering } from './archive-objects';

const SOURCE = cluster('pg', { plugins: [barman('store')] });
const WORKS_ONLY_IF = (server: string, role = 'recovery') =>
  `the ${role} works only if a Cluster not in the input left backups under '${server}' (Barman Cloud stops with "no target backup found" when there are none)`;

describe('CNPGI121 recovery-source-not-archived', () => {
  test("warning: the serverName left out, so Barman Cloud reads the recovering Cluster's own name, where another Cluster archives under another", () => {
    expect(findings([SOURCE, recovering('restored', 'store', undefined)], 'CNPGI121')).toEqual([
      [
        'warning',
        'Cluster/db/restored',
        'spec.externalClusters[0].plugin.parameters.serverName',
        `points the recovery of Cluster 'restored' at server 'restored' of ObjectStore 'store' (no serverName is given, so Barman Cloud uses the recovering Cluster's own name 'restored'); no Cluster in the input archives under that server name there, but Cluster 'pg' archives there under server name 'pg': ${WORKS_ONLY_IF('restored')}`,
        "if the backups are those of Cluster 'pg', set parameters.serverName: pg on external cluster 'origin'",
      ],
    ]);
  });

  test('a source Cluster not in the input: nothing, and a warning (not an error) only when the input is said to be complete', () => {
    // a disaster recovery from a Cluster that was deleted: its backups are in the bucket, which the input does not show
    expect(findings([SOURCE, recovering('restored', 'other', 'pg')], 'CNPGI121')).toEqual([]);
    expect(findings([recovering('restored', 'store', 'gone')], 'CNPGI121')).toEqual([]);
    expect(findings([SOURCE, recovering('restored', 'other', 'pg')], 'CNPGI121', { complete: true })).toEqual([
      [
        'warning',
        'Cluster/db/restored',
        'spec.externalClusters[0].plugin.parameters.serverName',
        `points the recovery of Cluster 'restored' at server 'pg' of ObjectStore 'other', which no Cluster in the input archives into, and the input is said to be complete: ${WORKS_ONLY_IF('pg')}`,
        "check that the bucket holds backups under server 'pg', or set parameters.serverName on external cluster 'origin' to the server name the source Cluster archived into",
      ],
    ]);
  });

  test("a Cluster recovering from its own server name: its earlier incarnation's backups, not reported as a source nobody archives into", () => {
    // it archives there itself (the empty-archive check is CNPGI106's), with or without --complete
    const self = recovering('pg', 'store', undefined, { plugins: [barman('store')] });
    expect(findings([self], 'CNPGI121')).toEqual([]);
    expect(findings([self], 'CNPGI121', { complete: true })).toEqual([]);
    // through the in-tree store too
    const inTree = cluster('pg', {
      bootstrap: { recovery: { source: 'origin' } },
      externalClusters: [{ name: 'origin', barmanObjectStore: { destinationPath: 's3://b/y', serverName: 'pg' } }],
      backup: { barmanObjectStore: { destinationPath: 's3://b/y' } },
    });
    expect(findings([inTree], 'CNPGI121', { complete: true })).toEqual([]);
    // another Cluster archiving at the same place under another name is still named, and the message says who archives there
    expect(findings([self, cluster('other', { plugins: [barman('store')] })], 'CNPGI121').map((f) => [f[0], f[3]])).toEqual([
      [
        'warning',
        `points the recovery of Cluster 'pg' at server 'pg' of ObjectStore 'store' (no serverName is given, so Barman Cloud uses the recovering Cluster's own name 'pg'); only Cluster 'pg' itself archives under that server name there (after its recovery), and Cluster 'other' archives there under server name 'other': ${WORKS_ONLY_IF('pg')}`,
      ],
    ]);
  });

  test('warning: an in-tree source defaults to the external cluster name', () => {
    const inTree = cluster('restored', {
      bootstrap: { recovery: { source: 'origin' } },
      externalClusters: [{ name: 'origin', barmanObjectStore: { destinationPath: 's3://b/x' } }],
    });
    const archiver = cluster('pg', { backup: { barmanObjectStore: { destinationPath: 's3://b/x/' } } });
    expect(findings([archiver, inTree], 'CNPGI121').map((f) => [f[0], f[3], f[4]])).toEqual([
      [
        'warning',
        `points the recovery of Cluster 'restored' at server 'origin' of destinationPath 's3://b/x' (no serverName is given, so CloudNativePG uses the external cluster's name 'origin'); no Cluster in the input archives under that server name there, but Cluster 'pg' archives there under server name 'pg': ${WORKS_ONLY_IF('origin')}`,
        "if the backups are those of Cluster 'pg', set barmanObjectStore.serverName: pg on external cluster 'origin'",
      ],
    ]);
  });

  test('error: the source Cluster archives no WAL (with or without a recovery target)', () => {
    const off = cluster('pg', { plugins: [barman('store')] }, { 'cnpg.io/skipWalArchiving': 'enabled' });
    const expected = [
      [
        'error',
        'Cluster/db/restored',
        'spec.externalClusters[0].plugin.parameters.serverName',
        "points the recovery of Cluster 'restored' at server 'pg' of ObjectStore 'store', the archive of Cluster 'pg', which has cnpg.io/skipWalArchiving: enabled and archives no WAL; Barman Cloud refuses a backup whose first WAL is not in the archive, and no recovery target past the backup can be reached",
        "remove the cnpg.io/skipWalArchiving annotation from Cluster 'pg'",
      ],
    ];
    expect(findings([off, recovering('restored', 'store', 'pg')], 'CNPGI121')).toEqual(expected);
    const pitr = recovering('restored', 'store', 'pg', {
      bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: '2026-01-01 00:00:00+00' } } },
    });
    expect(findings([off, pitr], 'CNPGI121')).toEqual(expected);
  });

  test("error: the source's WAL is under the ObjectStore's configuration.serverName, read through another ObjectStore", () => {
    const docs = [objectStore('a', 's3://b/x', 'shared'), objectStore('b', 's3://b/x/'), SOURCE_A(), recovering('restored', 'b', 'pg')];
    expect(findings(docs, 'CNPGI121')).toEqual([
      [
        'error',
        'Cluster/db/restored',
        'spec.externalClusters[0].plugin.parameters.barmanObjectName',
        "points the recovery of Cluster 'restored' at the backups of Cluster 'pg' in server 'pg' of ObjectStore 'b' (s3://b/x/), but the recovery reads WAL under server 'pg' while 'pg' archives it under server 'shared' (an ObjectStore's configuration.serverName replaces the server name for WAL only); Barman Cloud refuses the backup because its first WAL is not found",
        "set barmanObjectName: a on external cluster 'origin' (the ObjectStore Cluster 'pg' archives with)",
      ],
    ]);
  });

  test('a replica cluster reads its source the same way', () => {
    const replica = cluster('replica', {
      replica: { enabled: true, source: 'origin' },
      bootstrap: { recovery: { source: 'origin' } },
      externalClusters: [{ name: 'origin', plugin: { name: 'barman-cloud.cloudnative-pg.io', parameters: { barmanObjectName: 'store', serverName: 'gone' } } }],
    });
    expect(
      findings([SOURCE, replica], 'CNPGI121').map(
        (f) =>
          /^points the (\w+) of Cluster 'replica' at server 'gone' of ObjectStore 'store'; no Cluster in the input archives under that server name/.exec(
            f[3],
          )?.[1],
      ),
    ).toEqual(['recovery', 'replication']);
  });

  test('near misses pass', () => {
    // the source archives there: same ObjectStore, or another ObjectStore on the same path
    expect(findings([SOURCE, recovering('restored', 'store', 'pg')], 'CNPGI121')).toEqual([]);
    expect(findings([objectStore('a', 's3://b/x'), objectStore('b', 's3://b/x/'), SOURCE_A(), recovering('restored', 'b', 'pg')], 'CNPGI121')).toEqual([]);
    // the WAL override read through the same ObjectStore is consistent
    expect(findings([objectStore('a', 's3://b/x', 'shared'), SOURCE_A(), recovering('restored', 'a', 'pg')], 'CNPGI121')).toEqual([]);
    // the source archives undeclared (CNPGI123's), or through the in-tree store on the same path
    expect(findings([cluster('pg', { plugins: [barman('store', { isWALArchiver: false })] }), recovering('restored', 'store', 'pg')], 'CNPGI121')).toEqual([]);
    expect(
      findings(
        [objectStore('b', 's3://b/x'), cluster('pg', { backup: { barmanObjectStore: { destinationPath: 's3://b/x' } } }), recovering('restored', 'b', 'pg')],
        'CNPGI121',
      ),
    ).toEqual([]);
    // an external cluster nothing recovers from, and a recovery through another plugin
    expect(
      findings(
        [
          cluster('x', {
            externalClusters: [{ name: 'origin', plugin: { name: 'barman-cloud.cloudnative-pg.io', parameters: { barmanObjectName: 'none' } } }],
          }),
        ],
        'CNPGI121',
      ),
    ).toEqual([]);
    expect(
      findings(
        [
          cluster('x', {
            bootstrap: { recovery: { source: 'origin' } },
            externalClusters: [{ name: 'origin', plugin: { name: 'backup.example.com', parameters: { barmanObjectName: 'none' } } }],
          }),
        ],
        'CNPGI121',
      ),
    ).toEqual([]);
  });
});

function SOURCE_A() {
  return cluster('pg', { plugins: [barman('a')] });
}
