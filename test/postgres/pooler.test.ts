import { Size, Testing } from 'cdk8s';
import { PgBouncerPoolMode, Pooler, PoolerType, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;

describe('Pooler', () => {
  test('addPooler: named after the Cluster and the id, in its namespace; the Service applications use is the Pooler name, port 5432', () => {
    const chart = chartIn('apps', 'databases');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    const pooler = pg.addPooler('rw');
    const out = synth(chart);
    expect(only(out, 'Pooler')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Pooler',
      metadata: { name: 'pg-pooler-rw', namespace: 'apps' },
      spec: { cluster: { name: 'pg' }, pgbouncer: {} },
    });
    expect({ name: pooler.name, serviceName: pooler.serviceName, port: pooler.port, clusterName: pooler.clusterName }).toEqual({
      name: 'pg-pooler-rw',
      serviceName: 'pg-pooler-rw',
      port: 5432,
      clusterName: 'pg',
    });
    expect(out.map((o) => o.kind)).toEqual(['Cluster', 'Pooler']);
  });

  test('every documented default appears in the output as documented: type, instances and pool mode are left to the CRD', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage }).addPooler('rw');
    const spec = only(synth(chart), 'Pooler').spec;
    expect(spec).not.toHaveProperty('type');
    expect(spec).not.toHaveProperty('instances');
    expect(spec.pgbouncer).toEqual({});
  });

  test('every option is written with its wire value', () => {
    const chart = Testing.chart();
    new Pooler(chart, 'ro', {
      cluster: PostgresCluster.fromClusterName('pg'),
      type: PoolerType.RO,
      instances: 3,
      poolMode: PgBouncerPoolMode.TRANSACTION,
      parameters: { max_client_conn: '1000', default_pool_size: '20' },
      pgHba: ['host all all 10.0.0.0/8 scram-sha-256'],
      paused: false,
      authQuery: 'SELECT usename, passwd FROM auth.lookup($1)',
      authQuerySecretName: 'pooler-auth',
      image: 'ghcr.io/cloudnative-pg/pgbouncer:1.24.1',
      serviceTemplate: { spec: { type: 'LoadBalancer' } },
      serviceAccountName: 'pgbouncer',
      metadata: { name: 'pg-readonly', labels: { team: 'data' } },
    });
    const p = only(synth(chart), 'Pooler');
    expect(p.metadata).toEqual({ name: 'pg-readonly', labels: { team: 'data' } });
    expect(p.spec).toEqual({
      cluster: { name: 'pg' },
      type: 'ro',
      instances: 3,
      pgbouncer: {
        poolMode: 'transaction',
        parameters: { max_client_conn: '1000', default_pool_size: '20' },
        pg_hba: ['host all all 10.0.0.0/8 scram-sha-256'],
        paused: false,
        authQuery: 'SELECT usename, passwd FROM auth.lookup($1)',
        authQuerySecret: { name: 'pooler-auth' },
        image: 'ghcr.io/cloudnative-pg/pgbouncer:1.24.1',
      },
      serviceTemplate: { spec: { type: 'LoadBalancer' } },
      serviceAccountName: 'pgbouncer',
    });
  });

  test('at synth: what the Pooler webhook refuses (a parameter the operator owns, an auth query without credentials)', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPooler('rw', { parameters: { pool_mode: 'transaction' } });
    pg.addPooler('ro', { type: PoolerType.RO, authQuery: 'SELECT 1' });
    expect(synthErrors(chart)).toEqual([
      "[test/pg/rw] parameters.pool_mode 'transaction' the Pooler webhook refuses PgBouncer parameter 'pool_mode' (spec.cluster.parameters: \"Invalid or reserved parameter\"): it is not one of the settings a Pooler may pass to PgBouncer; the operator writes the others itself, or does not support them; remove it and set spec.pgbouncer.poolMode instead",
      '[test/pg/ro] authQuerySecretName the Pooler webhook refuses authQuery without authQuerySecret or serverTLSSecret ("must specify an existing auth query secret when providing an auth query secret"): PgBouncer would have no credentials to run the query with; set spec.pgbouncer.serverTLSSecret.name (a client certificate for PostgreSQL) or the deprecated authQuerySecret.name, or remove authQuery so that the operator sets up the Pooler\'s access to the Cluster',
    ]);
  });

  test("a Pooler named like a Cluster of the app or one of its Services is refused; pass: another name, or another namespace's Cluster", () => {
    const chart = chartIn('apps', 'databases');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    new PostgresCluster(chart, 'other', { storage });
    pg.addPooler('a', { metadata: { name: 'pg-rw' } });
    pg.addPooler('b', { metadata: { name: 'other' } });
    pg.addPooler('c', { metadata: { name: 'pg-rw-pool' } });
    expect(synthErrors(chart)).toEqual([
      "[databases/pg/a] metadata.name 'pg-rw' is the name of the rw Service of Cluster 'pg' in the same namespace, and the operator names the Pooler's Service after the Pooler; pin another name, e.g. metadata: { name: 'pg-pooler-rw' }",
      "[databases/pg/b] metadata.name 'other' is the name of Cluster 'other' of the app in the same namespace: the operator names the Pooler's ServiceAccount and Role after the Pooler, as it names the Cluster's after the Cluster; pin another name, e.g. metadata: { name: 'other-pooler' }",
    ]);
    const elsewhere = chartIn('other-ns', 'elsewhere');
    new PostgresCluster(elsewhere, 'other', { storage });
    const ok = chartIn('apps', 'ok');
    new PostgresCluster(ok, 'pg', { storage }).addPooler('a', { metadata: { name: 'other' } });
    expect(synthErrors(ok)).toEqual([]);
  });

  test('names and props of the wrong kind are refused with the fix', () => {
    const pg = () => new PostgresCluster(Testing.chart(), 'pg', { storage });
    expectValidationError(
      () => pg().addPooler('RW'),
      "test/pg/RW: id 'RW' cannot make the Pooler name \"pg-pooler-RW\": by default the name is made from the construct id as shown, and must be a DNS-1035 label (lower-case letters, digits and '-', a letter first, at most 63 characters), as the Service named after it must be; give the construct an id such as 'orders-db', or pin the name with metadata: { name: 'orders-db' }",
    );
    expectValidationError(
      () => pg().addPooler('rw', { metadata: { name: 'pg.pooler' } }),
      "test/pg/rw: metadata.name 'pg.pooler' is not a DNS-1035 label (lower-case letters, digits and '-', a letter first, at most 63 characters), as the Service named after it must be; pin a name such as 'pg-pooler-rw'",
    );
    expectValidationError(
      () => pg().addPooler('rw', js({ type: 'rx' })),
      "test/pg/rw: type 'rx' is not a PoolerType; use one of PoolerType.RW, PoolerType.RO, PoolerType.R",
    );
    expectValidationError(
      () => pg().addPooler('rw', { image: 'ghcr.io/cloudnative-pg/pgbouncer' }),
      "test/pg/rw: image 'ghcr.io/cloudnative-pg/pgbouncer' has no tag, so the runtime pulls :latest; pin a release tag or a digest, e.g. 'ghcr.io/cloudnative-pg/pgbouncer:1.24.1'",
    );
  });
});
