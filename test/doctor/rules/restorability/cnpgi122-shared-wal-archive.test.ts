// plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive, check.go CheckBackupDestination;
// cloudnative-pg v1.30.0 pkg/management/postgres/archiver/archiver.go checkWalArchive;
// barman-cloud pkg/archiver/archiver.go CheckWalArchiveDestination, BarmanCloudWalArchiveOptions.
import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { countingReads } from '../../../util';
import { Doc } from '../../helpers';
import { barman, cluster, findings, objectStore, recovering } from './archive-objects';

const SHARED = (who: string, where: string, others: string) =>
  `is where Cluster '${who}' archives (${where}), and ${others} there too: whichever archives its first WAL second fails Barman Cloud's empty-archive check (barman-cloud-check-wal-archive finds WAL there) and its WAL is never archived; with cnpg.io/skipEmptyWalArchiveCheck: enabled (or once both archived before) two databases mix in one archive and a recovery may pick the other Cluster's backup`;

describe('CNPGI122 shared-wal-archive', () => {
  test('error: two Clusters, one ObjectStore, one server name', () => {
    const docs = [cluster('pg', { plugins: [barman('store')] }), cluster('pg2', { plugins: [barman('store', { serverName: 'pg' })] })];
    expect(findings(docs, 'CNPGI122')).toEqual([
      [
        'error',
        'Cluster/db/pg',
        'spec.plugins[0].parameters.barmanObjectName',
        SHARED('pg', "server 'pg' of ObjectStore 'store'", "Cluster 'pg2' archives"),
        'give each Cluster its own server name (e.g. parameters.serverName: pg-db) or its own ObjectStore',
      ],
      [
        'error',
        'Cluster/db/pg2',
        'spec.plugins[0].parameters.barmanObjectName',
        SHARED('pg2', "server 'pg' of ObjectStore 'store'", "Cluster 'pg' archives"),
        'give each Cluster its own server name (e.g. parameters.serverName: pg2) or its own ObjectStore',
      ],
    ]);
  });

  test('a Cluster declared twice (two files of one repository) is one Cluster: no finding; another namespace is another Cluster', () => {
    const store = { backup: { barmanObjectStore: { destinationPath: 's3://b/x' } } };
    const first = cluster('pg', store);
    const again = cluster('pg', { ...store, instances: 2 });
    expect(findings([first, again], 'CNPGI122')).toEqual([]);
    // the near miss: the same name in another namespace is another Cluster, which does share the archive
    const elsewhere = { ...again, metadata: { name: 'pg', namespace: 'other' } };
    expect(findings([first, elsewhere], 'CNPGI122').map((f) => f[1])).toEqual(['Cluster/db/pg', 'Cluster/other/pg']);
  });

  test('error: ObjectStores and an in-tree section on one path; an ObjectStore serverName shares the WAL', () => {
    const docs = [
      objectStore('a', 's3://b/x'),
      objectStore('b', 's3://b/x/'),
      cluster('pg', { plugins: [barman('a')] }),
      cluster('pg2', { plugins: [barman('b', { serverName: 'pg' })] }),
      cluster('pg3', { backup: { barmanObjectStore: { destinationPath: 's3://b/x', serverName: 'pg' } } }),
    ];
    expect(findings(docs, 'CNPGI122').map((f) => [f[1], f[2], f[3], f[4]])).toEqual([
      [
        'Cluster/db/pg',
        'spec.plugins[0].parameters.barmanObjectName',
        SHARED('pg', "server 'pg' of ObjectStore 'a' (s3://b/x)", "Clusters 'pg2', 'pg3' archive"),
        'give each Cluster its own server name (e.g. parameters.serverName: pg-db) or its own ObjectStore',
      ],
      [
        'Cluster/db/pg2',
        'spec.plugins[0].parameters.barmanObjectName',
        SHARED('pg2', "server 'pg' of ObjectStore 'b' (s3://b/x/)", "Clusters 'pg', 'pg3' archive"),
        'give each Cluster its own server name (e.g. parameters.serverName: pg2) or its own ObjectStore',
      ],
      [
        'Cluster/db/pg3',
        'spec.backup.barmanObjectStore',
        SHARED('pg3', "server 'pg' of destinationPath 's3://b/x'", "Clusters 'pg', 'pg2' archive"),
        'give each Cluster its own server name (e.g. barmanObjectStore.serverName: pg3) or its own destinationPath',
      ],
    ]);
    // distinct server names, but the ObjectStore's configuration.serverName puts both WAL streams in one
    const wal = [objectStore('s', 's3://b/y', 'common'), cluster('one', { plugins: [barman('s')] }), cluster('two', { plugins: [barman('s')] })];
    expect(findings(wal, 'CNPGI122').map((f) => f[1])).toEqual(['Cluster/db/one', 'Cluster/db/two']);
  });

  test('error: a recovered Cluster archives into its own source through another ObjectStore name', () => {
    const docs = [
      objectStore('a', 's3://b/x'),
      objectStore('b', 's3://b/x/'),
      recovering('restored', 'b', 'pg', { plugins: [barman('a', { serverName: 'pg' })] }),
    ];
    expect(findings(docs, 'CNPGI122')).toEqual([
      [
        'error',
        'Cluster/db/restored',
        'spec.plugins[0].parameters.barmanObjectName',
        "is where Cluster 'restored' archives (server 'pg' of ObjectStore 'a' (s3://b/x)), the same place as its recovery source 'origin' (server 'pg' of ObjectStore 'b' (s3://b/x/)); its own archive already holds the source's WAL: Barman Cloud's empty-archive check fails before restoring and the recovery stops; with cnpg.io/skipEmptyWalArchiveCheck: enabled it goes on and continues its source's archive on a new timeline",
        'give the Cluster its own server name (e.g. parameters.serverName: restored)',
      ],
    ]);
  });

  // cloudnative-pg v1.30.0 pkg/utils/labels_annotations.go IsEmptyWalArchiveCheckEnabled, pkg/management/postgres/
  // restore.go checkBackupDestination; plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go
  // resolveRestoreEmptyWalArchiveCheck, internal/cnpgi/common/wal.go resolveArchiveEmptyWalArchiveCheck.
  test('cnpg.io/skipEmptyWalArchiveCheck: enabled: recovering into its own source is not reported; two Clusters sharing still are', () => {
    const SKIP = { 'cnpg.io/skipEmptyWalArchiveCheck': 'enabled' };
    const annotated = (doc: Doc, annotations: Record<string, string>) => ({ ...doc, metadata: { ...doc.metadata, annotations } });
    // through another ObjectStore name on the same path, and in-tree on the same destinationPath and server name
    const viaOther = [
      objectStore('a', 's3://b/x'),
      objectStore('b', 's3://b/x/'),
      recovering('restored', 'b', 'pg', { plugins: [barman('a', { serverName: 'pg' })] }),
    ];
    const inTree = cluster('pg', {
      bootstrap: { recovery: { source: 'origin' } },
      externalClusters: [{ name: 'origin', barmanObjectStore: { destinationPath: 's3://b/y', serverName: 'pg' } }],
      backup: { barmanObjectStore: { destinationPath: 's3://b/y', serverName: 'pg' } },
    });
    expect(findings(viaOther, 'CNPGI122').map((f) => f[0])).toEqual(['error']);
    expect(findings([inTree], 'CNPGI122').map((f) => f[0])).toEqual(['error']);
    expect(findings([...viaOther.slice(0, 2), annotated(viaOther[2], SKIP)], 'CNPGI122')).toEqual([]);
    expect(findings([annotated(inTree, SKIP)], 'CNPGI122')).toEqual([]);
    // another value does not skip the check, and the message says which value counts
    expect(findings([annotated(inTree, { 'cnpg.io/skipEmptyWalArchiveCheck': 'true' })], 'CNPGI122').map((f) => f[3])).toEqual([
      "is where Cluster 'pg' archives (server 'pg' of destinationPath 's3://b/y'), the same place as its recovery source 'origin' (server 'pg' of destinationPath 's3://b/y'); its own archive already holds the source's WAL: Barman Cloud's empty-archive check fails before restoring and the recovery stops (its cnpg.io/skipEmptyWalArchiveCheck is 'true', which does not skip the check: only the exact value 'enabled' does); with cnpg.io/skipEmptyWalArchiveCheck: enabled it goes on and continues its source's archive on a new timeline",
    ]);
    // two live Clusters in one archive: the annotation lets the second archive too, and the archive mixes
    const docs = [annotated(cluster('pg', { plugins: [barman('store')] }), SKIP), cluster('pg2', { plugins: [barman('store', { serverName: 'pg' })] })];
    expect(findings(docs, 'CNPGI122').map((f) => [f[0], f[1], f[3]])).toEqual([
      [
        'error',
        'Cluster/db/pg',
        "is where Cluster 'pg' archives (server 'pg' of ObjectStore 'store'), and Cluster 'pg2' archives there too; cnpg.io/skipEmptyWalArchiveCheck: enabled skips Barman Cloud's empty-archive check for 'pg', so it archives there anyway: two databases mix their WAL and base backups under one server name, and a recovery from it may pick the other Cluster's backup",
      ],
      ['error', 'Cluster/db/pg2', SHARED('pg2', "server 'pg' of ObjectStore 'store'", "Cluster 'pg' archives")],
    ]);
  });

  test('near misses pass', () => {
    // one ObjectStore, distinct server names (the default: each Cluster's name)
    expect(findings([cluster('pg', { plugins: [barman('store')] }), cluster('pg2', { plugins: [barman('store')] })], 'CNPGI122')).toEqual([]);
    // the same name in another namespace is another ObjectStore
    const other = cluster('pg2', { plugins: [barman('store', { serverName: 'pg' })] });
    other.metadata.namespace = 'other';
    expect(findings([cluster('pg', { plugins: [barman('store')] }), other], 'CNPGI122')).toEqual([]);
    // a disabled Barman Cloud entry archives nothing; a recovery reads the source without writing there
    expect(
      findings(
        [cluster('pg', { plugins: [barman('store')] }), cluster('pg2', { plugins: [barman('store', { serverName: 'pg', enabled: false })] })],
        'CNPGI122',
      ),
    ).toEqual([]);
    expect(
      findings([cluster('pg', { plugins: [barman('store')] }), recovering('restored', 'store', 'pg', { plugins: [barman('store')] })], 'CNPGI122'),
    ).toEqual([]);
    // the same ObjectStore name as the source is CNPGI106's finding, not repeated here
    expect(findings([recovering('restored', 'store', 'restored', { plugins: [barman('store')] })], 'CNPGI122')).toEqual([]);
    // the in-tree section is not the archiver beside an archiver plugin
    expect(
      findings(
        [
          cluster('pg', { plugins: [barman('store')] }),
          cluster('pg2', {
            plugins: [{ name: 'wal.example.com', isWALArchiver: true }],
            backup: { barmanObjectStore: { destinationPath: 's3://b/x', serverName: 'pg' } },
          }),
          objectStore('store', 's3://b/x'),
        ],
        'CNPGI122',
      ),
    ).toEqual([]);
  });
});

describe('restorability rules on a large input', () => {
  /** `n` Clusters archiving into one ObjectStore under their own names, and `n` recovering from them. */
  function many(n: number) {
    const docs = [objectStore('store', 's3://b/x')];
    for (let i = 0; i < n; i++) {
      docs.push(cluster(`pg${i}`, { plugins: [barman('store')] }));
      docs.push(recovering(`restored${i}`, 'store', `pg${i}`, { plugins: [barman('store')] }));
    }
    return docs;
  }
  function readsOf(docs: Doc[]): number {
    const counted = countingReads(docs);
    analyzeManifests(counted.values);
    return counted.reads();
  }

  test('no finding, and 4x the Clusters cost at most 4.5x the reads of the input (each Cluster is read once)', () => {
    for (const id of ['CNPGI120', 'CNPGI121', 'CNPGI122', 'CNPGI123']) expect(findings(many(50), id)).toEqual([]);
    const small = readsOf(many(100));
    const large = readsOf(many(400));
    expect(large / small).toBeLessThan(4.5);
  });
});
