import { Size, Testing } from 'cdk8s';
import { DatabaseRole, DatabaseRoleReclaimPolicy, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;

describe('DatabaseRole', () => {
  test('addDatabaseRole: the object follows the Cluster, the role is named after the id, and nothing else is written by default', () => {
    const chart = chartIn('apps', 'databases');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    const role = pg.addDatabaseRole('app');
    const out = synth(chart);
    expect(only(out, 'DatabaseRole')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'DatabaseRole',
      metadata: { name: 'pg-app', namespace: 'apps' },
      spec: { cluster: { name: 'pg' }, name: 'app' },
    });
    expect({ name: role.name, roleName: role.roleName, clusterName: role.clusterName }).toEqual({ name: 'pg-app', roleName: 'app', clusterName: 'pg' });
    expect(out.map((o) => o.kind)).toEqual(['Cluster', 'DatabaseRole']);
  });

  test('every option is written with its wire value; validUntil as Kubernetes stores a time', () => {
    const chart = Testing.chart();
    new DatabaseRole(chart, 'reporting', {
      cluster: PostgresCluster.fromClusterName('pg'),
      roleName: 'reporter',
      comment: 'the reports',
      passwordSecretName: 'reporter-password',
      login: true,
      connectionLimit: 10,
      validUntil: new Date('2027-01-01T00:00:00.000Z'),
      inRoles: ['pg_read_all_data'],
      inherit: true,
      superuser: false,
      createdb: false,
      createrole: false,
      replication: false,
      bypassrls: false,
      clientCertificate: true,
      databaseRoleReclaimPolicy: DatabaseRoleReclaimPolicy.DELETE,
      metadata: { name: 'reporter' },
    });
    expect(only(synth(chart), 'DatabaseRole').spec).toEqual({
      cluster: { name: 'pg' },
      name: 'reporter',
      comment: 'the reports',
      passwordSecret: { name: 'reporter-password' },
      login: true,
      connectionLimit: 10,
      validUntil: '2027-01-01T00:00:00Z',
      inRoles: ['pg_read_all_data'],
      inherit: true,
      superuser: false,
      createdb: false,
      createrole: false,
      replication: false,
      bypassrls: false,
      clientCertificate: { enabled: true },
      databaseRoleReclaimPolicy: 'delete',
    });
  });

  test("the reserved names are refused as the CRD's CEL rules refuse them; pass: a name that only looks like one", () => {
    const pg = () => new PostgresCluster(Testing.chart(), 'pg', { storage });
    expectValidationError(
      () => pg().addDatabaseRole('r', { roleName: 'postgres' }),
      `test/pg/r: roleName 'postgres' is reserved: the DatabaseRole CRD refuses it ("the role name postgres is reserved"); use another name, such as 'app'`,
    );
    expectValidationError(
      () => pg().addDatabaseRole('streaming_replica'),
      `test/pg/streaming_replica: id 'streaming_replica' is reserved: the DatabaseRole CRD refuses it ("the role name streaming_replica is reserved"); give the construct another id, or set roleName: 'app'`,
    );
    expectValidationError(
      () => pg().addDatabaseRole('r', { roleName: 'pg_monitor' }),
      `test/pg/r: roleName 'pg_monitor' is reserved: the DatabaseRole CRD refuses it ("role names starting with pg_ are reserved by PostgreSQL"); use another name, such as 'app'`,
    );
    expectValidationError(
      () => pg().addDatabaseRole('r', { roleName: 'cnpg_pooler_pgbouncer' }),
      `test/pg/r: roleName 'cnpg_pooler_pgbouncer' is reserved: the DatabaseRole CRD refuses it ("role names starting with cnpg_ are reserved by the operator"); use another name, such as 'app'`,
    );
    const chart = Testing.chart();
    const ok = new PostgresCluster(chart, 'pg', { storage });
    ok.addDatabaseRole('a', { roleName: 'postgres_admin' });
    ok.addDatabaseRole('b', { roleName: 'pgadmin' });
    expect(synthErrors(chart)).toEqual([]);
  });

  test("the CRD's other rules: a password Secret with disablePassword, a client certificate without login", () => {
    const cluster = PostgresCluster.fromClusterName('pg');
    expectValidationError(
      () => new DatabaseRole(Testing.chart(), 'app', { cluster, passwordSecretName: 'app-password', disablePassword: true }),
      'test/app: disablePassword true is set with passwordSecretName: the DatabaseRole CRD refuses both ("passwordSecret and disablePassword are mutually exclusive"); keep one of the two',
    );
    expectValidationError(
      () => new DatabaseRole(Testing.chart(), 'app', { cluster, clientCertificate: true }),
      'test/app: clientCertificate true needs login: the DatabaseRole CRD refuses a client certificate for a role that cannot log in ("clientCertificate requires the role to have login enabled"); set login: true, or leave clientCertificate out',
    );
    expectValidationError(
      () => new DatabaseRole(Testing.chart(), 'app', js({ cluster, validUntil: '2027-01-01' })),
      "test/app: validUntil '2027-01-01' must be a valid Date, not a string; pass a Date, e.g. new Date('2027-01-01T00:00:00Z')",
    );
    // near misses: disablePassword alone, a client certificate for a login role
    const chart = Testing.chart();
    new DatabaseRole(chart, 'a', { cluster, disablePassword: true });
    new DatabaseRole(chart, 'b', { cluster, login: true, clientCertificate: false });
    expect(synthErrors(chart)).toEqual([]);
  });

  test('at synth: a role the Cluster manages in spec.managed.roles, or two DatabaseRoles of one role, are refused', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage, spec: { managed: { roles: [{ name: 'app', login: true }] } } });
    pg.addDatabaseRole('app');
    pg.addDatabaseRole('report');
    pg.addDatabaseRole('report-again', { roleName: 'report' });
    expect(synthErrors(chart)).toEqual([
      "[test/pg/app] id 'app' is also in spec.managed.roles of Cluster 'pg' (test/pg): the Cluster manages it, and the operator marks this DatabaseRole as failed; manage the role in one place: remove it from spec.managed.roles, or drop this DatabaseRole",
      "[test/pg/report-again] roleName 'report' is also managed by the DatabaseRole of test/pg/report in Cluster 'pg': the operator reconciles one DatabaseRole object per name and marks the other as failed; manage 'report' from one DatabaseRole construct",
    ]);
  });
});
