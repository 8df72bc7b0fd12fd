import { Size, Testing } from 'cdk8s';
import { EnsureOption, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(10) };

describe('PostgresCluster.addManagedRole', () => {
  test('writes spec.managed.roles after the passthrough roles, keeps spec.managed.services, and only the name by default', () => {
    const chart = chartIn('apps', 'roles');
    const pg = new PostgresCluster(chart, 'pg', {
      storage,
      spec: { managed: { roles: [{ name: 'legacy', login: true }], services: { disabledDefaultServices: ['ro' as never] } } },
    });
    pg.addManagedRole('reporter');
    expect(only(synth(chart), 'Cluster').spec.managed).toEqual({
      roles: [{ name: 'legacy', login: true }, { name: 'reporter' }],
      services: { disabledDefaultServices: ['ro'] },
    });
    expect(pg.managedRoleNames).toEqual(['legacy', 'reporter']);
    expect(synthErrors(chart)).toEqual([]);
  });

  test('every option is written with its wire value; validUntil in whole seconds, as Kubernetes stores it', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addManagedRole('replicator', {
      ensure: EnsureOption.PRESENT,
      comment: 'logical replication',
      passwordSecretName: 'replicator-password',
      login: true,
      connectionLimit: 4,
      validUntil: new Date('2027-01-01T00:00:00.750Z'),
      inRoles: ['pg_read_all_data'],
      inherit: false,
      superuser: false,
      createdb: false,
      createrole: false,
      replication: true,
      bypassrls: false,
    });
    pg.addManagedRole('old', { ensure: EnsureOption.ABSENT, disablePassword: true });
    expect(only(synth(chart), 'Cluster').spec.managed.roles).toEqual([
      {
        name: 'replicator',
        comment: 'logical replication',
        ensure: 'present',
        passwordSecret: { name: 'replicator-password' },
        login: true,
        connectionLimit: 4,
        validUntil: '2027-01-01T00:00:00Z',
        inRoles: ['pg_read_all_data'],
        inherit: false,
        superuser: false,
        createdb: false,
        createrole: false,
        replication: true,
        bypassrls: false,
      },
      { name: 'old', ensure: 'absent', disablePassword: true },
    ]);
    expect(synthErrors(chart)).toEqual([]);
  });

  test('what the Cluster webhook refuses about a role is refused at the call, with the fix; pass: names that only look reserved', () => {
    const pg = () => new PostgresCluster(Testing.chart(), 'pg', { storage, spec: { managed: { roles: [{ name: 'app' }] } } });
    expectValidationError(
      () => pg().addManagedRole('streaming_replica'),
      `test/pg: managed.roles 'streaming_replica' is reserved: the Cluster webhook refuses it ("This role is reserved for operator use"; the role name streaming_replica is reserved); manage a role of your own name; the operator keeps postgres (spec.superuserSecret) and streaming_replica itself`,
    );
    expectValidationError(
      () => pg().addManagedRole('pg_monitor'),
      `test/pg: managed.roles 'pg_monitor' is reserved: the Cluster webhook refuses it ("This role is reserved for operator use"; role names starting with pg_ are reserved by PostgreSQL); manage a role of your own name; the operator keeps postgres (spec.superuserSecret) and streaming_replica itself`,
    );
    expectValidationError(
      () => pg().addManagedRole('app'),
      `test/pg: managed.roles 'app' is added twice: the Cluster webhook refuses it ("Role name is duplicate of another"); add each role once, with all its options`,
    );
    expectValidationError(
      () => pg().addManagedRole('r', { passwordSecretName: 'r-password', disablePassword: true }),
      `test/pg: managed.roles[r].disablePassword true is set with passwordSecretName: the Cluster webhook refuses both ("This role both sets and disables a password"); keep one of the two`,
    );
    expectValidationError(() => pg().addManagedRole('', {}), `test/pg: managed.roles '' is not a role name; pass a name such as 'reporter'`);
    expect(() => pg().addManagedRole('r', { connectionLimit: -2 })).toThrow(/^test\/pg: managed\.roles\[r\]\.connectionLimit -2 /);
    expect(() => pg().addManagedRole('r', { login: true, notAKey: 1 } as never)).toThrow(/notAKey/);
    const ok = pg();
    ok.addManagedRole('postgres_reader');
    ok.addManagedRole('cnpgx');
    ok.addManagedRole('r', { connectionLimit: -1 });
    expect(ok.managedRoleNames).toEqual(['app', 'postgres_reader', 'cnpgx', 'r']);
  });

  test('a role managed here and by a DatabaseRole is still refused at synth; pass: another name', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addManagedRole('reporter');
    pg.addDatabaseRole('writer');
    expect(synthErrors(chart)).toEqual([]);
    pg.addDatabaseRole('reporter');
    expect(synthErrors(chart)).toEqual([
      "[test/pg/reporter] id 'reporter' is also in spec.managed.roles of Cluster 'pg' (test/pg): the Cluster manages it, and the operator marks this DatabaseRole as failed; manage the role in one place: remove it from spec.managed.roles, or drop this DatabaseRole",
    ]);
  });
});
