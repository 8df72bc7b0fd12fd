/*
 * CNPGI303 cluster-import: the Cluster webhook's validateImport as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI303';

describe('CNPGI303 cluster-import', () => {
  test('trips: an unknown type', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: { initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'logical', databases: ['app'] } } },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.type',
        message: 'the Cluster webhook refuses import type \'logical\' ("Unrecognized import type")',
        fix: 'use type: microservice (one database into the application database) or type: monolith (databases and roles)',
      },
    ]);
  });
  test('trips: a microservice import of two databases', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: { initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'microservice', databases: ['a', 'b'] } } },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.databases',
        message:
          'the Cluster webhook refuses this microservice import ("You need to specify a single database for the `microservice` import type"): it lists 2 databases, and a microservice import copies exactly one into the application database',
        fix: 'list the one database to import, or use type: monolith to import several',
      },
    ]);
  });
  test('trips: a microservice import with roles', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'microservice', databases: ['a'], roles: ['alice'] } },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.roles',
        message:
          'the Cluster webhook refuses this microservice import ("You cannot specify roles to import for the `microservice` import type"): a microservice import brings no roles (the application owner owns what it imports)',
        fix: 'remove roles, or use type: monolith to import roles too',
      },
    ]);
  });
  test('trips: a microservice import with a wildcard', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: { initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'microservice', databases: ['app_*'] } } },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.databases[0]',
        message:
          'the Cluster webhook refuses this microservice import ("You cannot specify any wildcard for the `microservice` import type"): \'app_*\' holds a wildcard, and a microservice import names its one database',
        fix: 'name the database to import, or use type: monolith with databases: ["*"] to import them all',
      },
    ]);
  });
  test('trips: a monolith import without databases', () => {
    expect(
      findingsOf(
        RULE,
        cluster({ bootstrap: { initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'monolith', databases: [] } } } }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.databases',
        message:
          'the Cluster webhook refuses this monolith import ("You need to specify at least a database for the `monolith` import type"): it lists no database to import',
        fix: 'list the databases to import, or ["*"] for all of them',
      },
    ]);
  });
  test('trips: a monolith import of * beside other databases', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: { initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'monolith', databases: ['*', 'app'] } } },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.databases',
        message:
          'the Cluster webhook refuses this monolith import ("Wildcard import cannot be used along other database names"): "*" already means every database',
        fix: 'list either "*" alone or the database names without it',
      },
    ]);
  });
  test('trips: a monolith import of * beside other roles', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            initdb: {
              database: 'app',
              owner: 'app',
              import: { source: { externalCluster: 'old' }, type: 'monolith', databases: ['app'], roles: ['alice', '*'] },
            },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.roles',
        message: 'the Cluster webhook refuses this monolith import ("Wildcard import cannot be used along other role names"): "*" already means every role',
        fix: 'list either "*" alone or the role names without it',
      },
    ]);
  });
  test('trips: a monolith import with post-import SQL', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            initdb: {
              database: 'app',
              owner: 'app',
              import: { source: { externalCluster: 'old' }, type: 'monolith', databases: ['app'], postImportApplicationSQL: ['ANALYZE'] },
            },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.initdb.import.postImportApplicationSQL',
        message:
          'the Cluster webhook refuses this monolith import ("postImportApplicationSQL is not allowed for the `monolith` import type"): a monolith import has no single application database to run it in',
        fix: 'remove postImportApplicationSQL (run the SQL with postInitApplicationSQL or a Database resource), or use type: microservice',
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'a microservice import of one database',
      { bootstrap: { initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'microservice', databases: ['app'] } } } },
      {},
    ],
    [
      'a microservice import with post-import SQL',
      {
        bootstrap: {
          initdb: {
            database: 'app',
            owner: 'app',
            import: { source: { externalCluster: 'old' }, type: 'microservice', databases: ['app'], postImportApplicationSQL: ['ANALYZE'] },
          },
        },
      },
      {},
    ],
    [
      'a monolith import of every database and role',
      {
        bootstrap: {
          initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'monolith', databases: ['*'], roles: ['*'] } },
        },
      },
      {},
    ],
    [
      'a monolith import of named databases and roles',
      {
        bootstrap: {
          initdb: {
            database: 'app',
            owner: 'app',
            import: { source: { externalCluster: 'old' }, type: 'monolith', databases: ['a', 'b'], roles: ['alice', 'bob'] },
          },
        },
      },
      {},
    ],
    [
      'a monolith import of one role, *',
      {
        bootstrap: {
          initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'monolith', databases: ['a', 'b'], roles: ['*'] } },
        },
      },
      {},
    ],
    [
      'a monolith import whose names only contain *',
      { bootstrap: { initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'monolith', databases: ['app_*', 'b'] } } } },
      {},
    ],
    [
      'a microservice import with an empty roles list',
      {
        bootstrap: {
          initdb: { database: 'app', owner: 'app', import: { source: { externalCluster: 'old' }, type: 'microservice', databases: ['app'], roles: [] } },
        },
      },
      {},
    ],
    ['no import', { bootstrap: { initdb: { database: 'app', owner: 'app' } } }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
