import { Size, Testing } from 'cdk8s';
import { PostgresCluster, Publication, PublicationReclaimPolicy, PublicationTarget } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(10) };

describe('Publication', () => {
  test('addPublication: the object follows the Cluster, the publication is named after the id, nothing else is written by default', () => {
    const chart = chartIn('apps', 'publications');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    const pub = pg.addPublication('orders', { dbname: 'app', target: PublicationTarget.allTables() });
    const out = synth(chart);
    expect(only(out, 'Publication')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Publication',
      metadata: { name: 'pg-orders', namespace: 'apps' },
      spec: { cluster: { name: 'pg' }, name: 'orders', dbname: 'app', target: { allTables: true } },
    });
    expect({ name: pub.name, publicationName: pub.publicationName, dbname: pub.dbname, clusterName: pub.clusterName }).toEqual({
      name: 'pg-orders',
      publicationName: 'orders',
      dbname: 'app',
      clusterName: 'pg',
    });
    expect(out.map((o) => o.kind)).toEqual(['Cluster', 'Publication']);
  });

  test('every option is written with its wire value; schemas come before tables', () => {
    const chart = Testing.chart();
    new Publication(chart, 'p', {
      cluster: PostgresCluster.fromClusterName('pg'),
      dbname: 'shop',
      publicationName: 'sales',
      parameters: { publish: 'insert' },
      target: PublicationTarget.objects({ tables: [{ name: 'orders', schema: 'public', only: true, columns: ['id', 'total'] }, { name: 'items' }] }),
      publicationReclaimPolicy: PublicationReclaimPolicy.DELETE,
      metadata: { name: 'sales', labels: { team: 'shop' } },
    });
    new Publication(chart, 'q', {
      cluster: PostgresCluster.fromClusterName('pg'),
      dbname: 'shop',
      target: PublicationTarget.objects({ tables: [{ name: 'items' }], tablesInSchemas: ['audit'] }),
    });
    const [sales, q] = synth(chart);
    expect(sales).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Publication',
      metadata: { name: 'sales', labels: { team: 'shop' } },
      spec: {
        cluster: { name: 'pg' },
        name: 'sales',
        dbname: 'shop',
        parameters: { publish: 'insert' },
        target: { objects: [{ table: { name: 'orders', schema: 'public', only: true, columns: ['id', 'total'] } }, { table: { name: 'items' } }] },
        publicationReclaimPolicy: 'delete',
      },
    });
    expect(q.spec.target).toEqual({ objects: [{ tablesInSchema: 'audit' }, { table: { name: 'items' } }] });
    expect(synthErrors(chart)).toEqual([]);
  });

  test("the CRD's CEL rules on the target are refused at construction; pass: columns without schemas, schemas without columns", () => {
    expectValidationError(
      () => PublicationTarget.objects({}),
      "PublicationTarget.objects: objects {} names no table and no schema; name at least one, e.g. { tables: [{ name: 'orders' }] }, or use PublicationTarget.allTables()",
    );
    expectValidationError(
      () => PublicationTarget.objects({ tables: [{ name: 'orders', columns: ['id'] }], tablesInSchemas: ['audit'] }),
      'PublicationTarget.objects: objects.tables[orders].columns ["id"] is given while tablesInSchemas publishes whole schemas: the Publication CRD refuses a column list beside tablesInSchema; publish the whole table (leave columns out), or publish its schema in another Publication',
    );
    expectValidationError(
      () => PublicationTarget.objects({ tables: [{ schema: 'public' } as never] }),
      "PublicationTarget.objects: objects.tables[0].name is missing: it must be a string; use a table name such as 'orders'",
    );
    expect(() => PublicationTarget.objects({ tables: [{ name: 'orders', columns: ['id'] }] })).not.toThrow();
    expect(() => PublicationTarget.objects({ tablesInSchemas: ['audit'], tables: [{ name: 'orders' }] })).not.toThrow();
  });

  test('the required props, the target and the reclaim policy are refused with the fix', () => {
    const pg = () => new PostgresCluster(Testing.chart(), 'pg', { storage });
    expectValidationError(
      () => pg().addPublication('p', { target: PublicationTarget.allTables() } as never),
      "test/pg/p: dbname is missing: it must be a string; use a database name such as 'app'",
    );
    expectValidationError(
      () => pg().addPublication('p', { dbname: 'app', target: { allTables: true } as never }),
      'test/pg/p: target {"allTables":true} must be a PublicationTarget, not an object; use PublicationTarget.allTables() or PublicationTarget.objects({ tables: [{ name: \'orders\' }] })',
    );
    expectValidationError(
      () => pg().addPublication('p', { dbname: 'app', target: PublicationTarget.allTables(), publicationReclaimPolicy: 'Delete' as never }),
      "test/pg/p: publicationReclaimPolicy 'Delete' is not a PublicationReclaimPolicy; use one of PublicationReclaimPolicy.RETAIN, PublicationReclaimPolicy.DELETE",
    );
  });

  test('two Publications of one Cluster with one PostgreSQL name are refused at synth, as the operator fails the second; pass: another Cluster', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    const other = new PostgresCluster(chart, 'other', { storage });
    pg.addPublication('a', { dbname: 'app', publicationName: 'orders', target: PublicationTarget.allTables() });
    other.addPublication('a', { dbname: 'app', publicationName: 'orders', target: PublicationTarget.allTables() });
    expect(synthErrors(chart)).toEqual([]);
    pg.addPublication('b', { dbname: 'shop', publicationName: 'orders', target: PublicationTarget.allTables() });
    expect(synthErrors(chart)).toEqual([
      "[test/pg/b] publicationName 'orders' is also managed by the Publication of test/pg/a in Cluster 'pg': the operator reconciles one Publication object per name and marks the other as failed; manage 'orders' from one Publication construct",
    ]);
  });
});
