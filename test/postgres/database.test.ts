import { Size, Testing } from 'cdk8s';
import { Database, DatabaseLocaleProvider, DatabaseReclaimPolicy, DatabaseUsageType, EnsureOption, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, ofKind, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;

describe('Database', () => {
  test('addDatabase: the object follows the Cluster (name, namespace), the database is named after the id', () => {
    const chart = chartIn('apps', 'databases');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    const db = pg.addDatabase('app', { owner: 'app' });
    const out = synth(chart);
    expect(only(out, 'Database')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Database',
      metadata: { name: 'pg-app', namespace: 'apps' },
      spec: { cluster: { name: 'pg' }, name: 'app', owner: 'app' },
    });
    expect({ name: db.name, databaseName: db.databaseName, clusterName: db.clusterName }).toEqual({ name: 'pg-app', databaseName: 'app', clusterName: 'pg' });
    // the Database follows its Cluster in the output
    expect(out.map((o) => o.kind)).toEqual(['Cluster', 'Database']);
  });

  test('every documented default appears in the output as documented: nothing but cluster, name and owner is written', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage }).addDatabase('app', { owner: 'app' });
    const spec = only(synth(chart), 'Database').spec;
    expect(Object.keys(spec).sort()).toEqual(['cluster', 'name', 'owner']);
  });

  test('every option is written with its wire value', () => {
    const chart = Testing.chart();
    new Database(chart, 'reports', {
      cluster: PostgresCluster.fromClusterName('pg'),
      databaseName: 'reports',
      owner: 'reporting',
      ensure: EnsureOption.PRESENT,
      databaseReclaimPolicy: DatabaseReclaimPolicy.DELETE,
      template: 'template0',
      encoding: 'UTF8',
      localeProvider: DatabaseLocaleProvider.ICU,
      icuLocale: 'en-US',
      icuRules: '&a < g',
      localeCollate: 'C',
      localeCType: 'C',
      collationVersion: '153.120',
      isTemplate: false,
      allowConnections: true,
      connectionLimit: -1,
      tablespace: 'fast',
      extensions: [
        { name: 'vector', version: '0.8.0', schema: 'public' },
        { name: 'postgis', ensure: EnsureOption.ABSENT },
      ],
      schemas: [{ name: 'reporting', owner: 'reporting' }],
      foreignDataWrappers: [
        { name: 'postgres_fdw', usage: [{ name: 'reporting', type: DatabaseUsageType.GRANT }], options: [{ name: 'debug', value: 'off' }] },
      ],
      servers: [{ name: 'warehouse', fdw: 'postgres_fdw', options: [{ name: 'host', value: 'warehouse-rw' }], usage: [{ name: 'reporting' }] }],
      metadata: { name: 'reports-db', labels: { team: 'data' } },
    });
    const d = only(synth(chart), 'Database');
    expect(d.metadata).toEqual({ name: 'reports-db', labels: { team: 'data' } });
    expect(d.spec).toEqual({
      cluster: { name: 'pg' },
      name: 'reports',
      owner: 'reporting',
      ensure: 'present',
      databaseReclaimPolicy: 'delete',
      template: 'template0',
      encoding: 'UTF8',
      localeProvider: 'icu',
      icuLocale: 'en-US',
      icuRules: '&a < g',
      localeCollate: 'C',
      localeCType: 'C',
      collationVersion: '153.120',
      isTemplate: false,
      allowConnections: true,
      connectionLimit: -1,
      tablespace: 'fast',
      extensions: [
        { name: 'vector', version: '0.8.0', schema: 'public' },
        { name: 'postgis', ensure: 'absent' },
      ],
      schemas: [{ name: 'reporting', owner: 'reporting' }],
      fdws: [{ name: 'postgres_fdw', usage: [{ name: 'reporting', type: 'grant' }], options: [{ name: 'debug', value: 'off' }] }],
      servers: [{ name: 'warehouse', fdw: 'postgres_fdw', options: [{ name: 'host', value: 'warehouse-rw' }], usage: [{ name: 'reporting' }] }],
    });
  });

  test('the reserved names are refused as the CRD refuses them, naming the prop the user wrote', () => {
    const pg = () => new PostgresCluster(Testing.chart(), 'pg', { storage });
    expectValidationError(
      () => pg().addDatabase('app', { owner: 'app', databaseName: 'postgres' }),
      `test/pg/app: databaseName 'postgres' is reserved: the Database CRD refuses it ("the name postgres is reserved"); use another name, such as 'app'`,
    );
    expectValidationError(
      () => pg().addDatabase('template1', { owner: 'app' }),
      `test/pg/template1: id 'template1' is reserved: the Database CRD refuses it ("the name template1 is reserved"); give the construct another id, or set databaseName: 'app'`,
    );
    // near miss: a name that only starts like a reserved one
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage }).addDatabase('postgres2', { owner: 'app' });
    expect(only(synth(chart), 'Database').spec.name).toBe('postgres2');
  });

  test('locale fields without their provider are refused as the CRD rules refuse them; pass: with the provider', () => {
    const cluster = PostgresCluster.fromClusterName('pg');
    expectValidationError(
      () => new Database(Testing.chart(), 'app', { cluster, owner: 'app', builtinLocale: 'C.UTF-8' }),
      "test/app: builtinLocale 'C.UTF-8' is only available when localeProvider is set to `builtin`; set localeProvider: DatabaseLocaleProvider.BUILTIN, or leave builtinLocale out",
    );
    expectValidationError(
      () => new Database(Testing.chart(), 'app', { cluster, owner: 'app', localeProvider: DatabaseLocaleProvider.LIBC, icuLocale: 'en-US' }),
      "test/app: icuLocale 'en-US' is only available when localeProvider is set to `icu`; set localeProvider: DatabaseLocaleProvider.ICU, or leave icuLocale out",
    );
    expectValidationError(
      () => new Database(Testing.chart(), 'app', { cluster, owner: 'app', icuRules: '&a < g' }),
      "test/app: icuRules '&a < g' is only available when localeProvider is set to `icu`; set localeProvider: DatabaseLocaleProvider.ICU, or leave icuRules out",
    );
    const chart = Testing.chart();
    new Database(chart, 'app', { cluster, owner: 'app', localeProvider: DatabaseLocaleProvider.BUILTIN, builtinLocale: 'C.UTF-8' });
    expect(only(synth(chart), 'Database').spec).toMatchObject({ localeProvider: 'builtin', builtinLocale: 'C.UTF-8' });
  });

  test('props of the wrong kind are refused with the fix', () => {
    const cluster = PostgresCluster.fromClusterName('pg');
    expectValidationError(
      () => new Database(Testing.chart(), 'app', js({ cluster })),
      "test/app: owner is missing: it must be a string; name the owning role, e.g. owner: 'app'",
    );
    expectValidationError(
      () => new Database(Testing.chart(), 'app', { cluster, owner: 'app', connectionLimit: -2 }),
      'test/app: connectionLimit -2 is out of range; use a whole number from -1 to 2147483647',
    );
    expectValidationError(
      () => new Database(Testing.chart(), 'app', js({ cluster, owner: 'app', databaseReclaimPolicy: 'drop' })),
      "test/app: databaseReclaimPolicy 'drop' is not a DatabaseReclaimPolicy; use one of DatabaseReclaimPolicy.RETAIN, DatabaseReclaimPolicy.DELETE",
    );
  });

  test('at synth: what the Database webhook refuses (a repeated extension), with the path of the field', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage }).addDatabase('app', { owner: 'app', extensions: [{ name: 'vector' }, { name: 'vector' }] });
    expect(synthErrors(chart)).toEqual([
      "[test/pg/app] spec.extensions[1].name 'vector' the Database webhook refuses a second extension named 'vector' (spec.extensions[1].name: Duplicate value: \"vector\"): the operator manages each name once; remove spec.extensions[1], or merge it into spec.extensions[0]",
    ]);
  });

  test("at synth: a server without its wrapper, or an empty usage name, is the CRD schema guard's", () => {
    const cluster = PostgresCluster.fromClusterName('pg');
    expectValidationError(
      () => new Database(Testing.chart(), 'app', js({ cluster, owner: 'app', servers: [{ name: 'warehouse' }] })),
      "test/app: servers[0].fdw is missing: it must be a string; name the foreign data wrapper, e.g. 'postgres_fdw'",
    );
  });

  test('two Databases of one app that manage the same database of one Cluster are refused; pass: another Cluster or another database', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addDatabase('app', { owner: 'app' });
    pg.addDatabase('app-again', { owner: 'app', databaseName: 'app' });
    expect(synthErrors(chart)).toEqual([
      "[test/pg/app-again] databaseName 'app' is also managed by the Database of test/pg/app in Cluster 'pg': the operator reconciles one Database object per name and marks the other as failed; manage 'app' from one Database construct",
    ]);
    const ok = Testing.chart();
    const a = new PostgresCluster(ok, 'a', { storage });
    const b = new PostgresCluster(ok, 'b', { storage });
    a.addDatabase('app', { owner: 'app' });
    b.addDatabase('app', { owner: 'app' });
    a.addDatabase('reports', { owner: 'app' });
    expect(synthErrors(ok)).toEqual([]);
    expect(ofKind(synth(ok), 'Database').map((d) => d.metadata.name)).toEqual(['a-app', 'a-reports', 'b-app']);
  });

  test('an id another object of the Cluster already has is refused with the way out; pass: distinct ids, same PostgreSQL names', () => {
    const pg = new PostgresCluster(Testing.chart(), 'pg', { storage });
    pg.addDatabaseRole('app', { login: true });
    expectValidationError(
      () => pg.addDatabase('app', { owner: 'app' }),
      "test/pg: id 'app' is already the id of the DatabaseRole test/pg/app: the objects added to a Cluster share its scope, and an id names one of them; give the Database another id, e.g. 'app-database', and keep its name in PostgreSQL with databaseName: 'app'",
    );
    expectValidationError(
      () => pg.addPooler('app'),
      "test/pg: id 'app' is already the id of the DatabaseRole test/pg/app: the objects added to a Cluster share its scope, and an id names one of them; give the Pooler another id, e.g. 'app-pooler'",
    );
    const db = pg.addDatabase('app-database', { owner: 'app', databaseName: 'app' });
    expect(db.databaseName).toBe('app');
  });

  test("a Database follows its Cluster's namespace; one pinned in another namespace is refused with the fix", () => {
    const pg = new PostgresCluster(chartIn('apps', 'databases'), 'pg', { storage });
    const elsewhere = chartIn('other', 'elsewhere');
    new Database(elsewhere, 'app', { cluster: pg, owner: 'app' });
    expect(only(synth(elsewhere), 'Database').metadata.namespace).toBe('apps');
    expectValidationError(
      () => new Database(chartIn('other', 'elsewhere'), 'app', { cluster: pg, owner: 'app', metadata: { namespace: 'other' } }),
      "elsewhere/app: metadata.namespace 'other' differs from the namespace of Cluster 'pg' ('apps'); a Database names a Cluster of its own namespace: use cluster.addDatabase(), or a chart with the same namespace",
    );
  });
});
