/*
 * CNPGI302 cluster-pg-basebackup-application-database: the Cluster webhook's validatePgBaseBackupApplicationDatabase as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI302';

describe('CNPGI302 cluster-pg-basebackup-application-database', () => {
  test('trips: pg_basebackup beside recovery, with a database and no owner', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin' }, pg_basebackup: { source: 'origin', database: 'app' } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.pg_basebackup.owner',
        message:
          'the Cluster webhook refuses spec.bootstrap.pg_basebackup.database \'app\' without an owner ("You need to specify the database owner user"): the operator creates the application database for that user',
        fix: "set spec.bootstrap.pg_basebackup.owner to the user that owns 'app', or remove spec.bootstrap.pg_basebackup.database",
      },
    ]);
  });
  test('trips: pg_basebackup beside recovery, with an owner and no database', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin' }, pg_basebackup: { source: 'origin', owner: 'app' } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.pg_basebackup.database',
        message:
          'the Cluster webhook refuses spec.bootstrap.pg_basebackup.owner \'app\' without a database ("You need to specify the database name"): the owner is the owner of the application database',
        fix: "set spec.bootstrap.pg_basebackup.database to the application database's name, or remove spec.bootstrap.pg_basebackup.owner",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['pg_basebackup with database and owner', { bootstrap: { pg_basebackup: { source: 'origin', database: 'app', owner: 'app' } } }, {}],
    ['pg_basebackup with neither', { bootstrap: { pg_basebackup: { source: 'origin' } } }, {}],
    [
      'pg_basebackup alone with a database and no owner: the defaulter completes it',
      { bootstrap: { pg_basebackup: { source: 'origin', database: 'orders' } } },
      {},
    ],
    [
      'pg_basebackup alone with an owner and no database: the defaulter completes it',
      { bootstrap: { pg_basebackup: { source: 'origin', owner: 'orders' } } },
      {},
    ],
    [
      'pg_basebackup beside recovery with database and owner',
      { bootstrap: { recovery: { source: 'origin' }, pg_basebackup: { source: 'origin', database: 'app', owner: 'app' } } },
      {},
    ],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
