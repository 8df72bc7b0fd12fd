/*
 * CNPGI301 cluster-initdb: the Cluster webhook's validateInitDB as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI301';

describe('CNPGI301 cluster-initdb', () => {
  test('trips: a monolith import with an owner and no database (the defaulter leaves the database empty)', () => {
    expect(
      findingsOf(
        RULE,
        cluster({ bootstrap: { initdb: { owner: 'app', import: { type: 'monolith', databases: ['*'], source: { externalCluster: 'old' } } } } }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.database',
        message:
          'the Cluster webhook refuses spec.bootstrap.initdb.owner \'app\' without a database ("You need to specify the database name"): the owner is the owner of the application database',
        fix: "set spec.bootstrap.initdb.database to the application database's name, or remove spec.bootstrap.initdb.owner",
      },
    ]);
  });
  test('trips: an initdb section beside recovery, with a database and no owner (the defaulter completes recovery only)', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin' }, initdb: { database: 'app' } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.owner',
        message:
          'the Cluster webhook refuses spec.bootstrap.initdb.database \'app\' without an owner ("You need to specify the database owner user"): the operator creates the application database for that user',
        fix: "set spec.bootstrap.initdb.owner to the user that owns 'app', or remove spec.bootstrap.initdb.database",
      },
    ]);
  });
  test('trips: a WAL segment size that is no power of two', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { initdb: { database: 'app', owner: 'app', walSegmentSize: 48 } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.walSegmentSize',
        message:
          'the Cluster webhook refuses walSegmentSize 48 ("WAL segment size must be a power of 2"): initdb takes the WAL segment size in megabytes, a power of two',
        fix: 'use a power of two between 1 and 1024 (16 is PostgreSQL’s default), or leave it out',
      },
    ]);
  });
  test('trips: a Secret reference without its key', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            initdb: { database: 'app', owner: 'app', postInitApplicationSQLRefs: { secretRefs: [{ name: 'sql', key: 'init.sql' }, { name: 'more-sql' }] } },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.postInitApplicationSQLRefs.secretRefs[1]',
        message:
          'the Cluster webhook refuses a Secret reference without its key ("key and name must be specified", at spec.bootstrap.initdb.postInitApplicationSQLRefs.secretRefs): the operator reads the SQL from that key of that object',
        fix: 'give the reference both name (the Secret) and key (the entry holding the SQL)',
      },
    ]);
  });
  test('trips: a ConfigMap reference with neither name nor key', () => {
    expect(
      findingsOf(RULE, cluster({ bootstrap: { initdb: { database: 'app', owner: 'app', postInitApplicationSQLRefs: { configMapRefs: [{}] } } } })),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.postInitApplicationSQLRefs.configMapRefs[0]',
        message:
          'the Cluster webhook refuses a ConfigMap reference without its name and key ("key and name must be specified", at spec.bootstrap.initdb.postInitApplicationSQLRefs.configMapRefs): the operator reads the SQL from that key of that object',
        fix: 'give the reference both name (the ConfigMap) and key (the entry holding the SQL)',
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['database and owner both set', { bootstrap: { initdb: { database: 'orders', owner: 'orders' } } }, {}],
    ['a database without an owner: the defaulter makes the owner the database', { bootstrap: { initdb: { database: 'orders' } } }, {}],
    ['an owner without a database: the defaulter names the database app', { bootstrap: { initdb: { owner: 'orders' } } }, {}],
    [
      'a monolith import with neither database nor owner',
      { bootstrap: { initdb: { import: { type: 'monolith', databases: ['*'], source: { externalCluster: 'old' } } } } },
      {},
    ],
    [
      'a monolith import with database and owner',
      { bootstrap: { initdb: { database: 'app', owner: 'app', import: { type: 'monolith', databases: ['*'], source: { externalCluster: 'old' } } } } },
      {},
    ],
    ['a WAL segment size of 32', { bootstrap: { initdb: { database: 'app', owner: 'app', walSegmentSize: 32 } } }, {}],
    ['a WAL segment size of 1, the smallest power of two', { bootstrap: { initdb: { database: 'app', owner: 'app', walSegmentSize: 1 } } }, {}],
    [
      'complete Secret and ConfigMap references',
      {
        bootstrap: {
          initdb: {
            database: 'app',
            owner: 'app',
            postInitApplicationSQLRefs: { secretRefs: [{ name: 'sql', key: 'init.sql' }], configMapRefs: [{ name: 'sql', key: 'more.sql' }] },
          },
        },
      },
      {},
    ],
    [
      'an initdb section beside recovery with database and owner',
      { bootstrap: { recovery: { source: 'origin' }, initdb: { database: 'app', owner: 'app' } } },
      {},
    ],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
