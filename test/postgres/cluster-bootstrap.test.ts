import { Chart, Size, Testing } from 'cdk8s';
import { Plugin } from '../../src/plugins/plugin';
import { ClusterBootstrap, PostgresCluster } from '../../src/postgres';
import { expectValidationError, only, synth } from '../util';

const BARMAN = 'barman-cloud.cloudnative-pg.io';
const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;

function specWith(bootstrap: ClusterBootstrap): any {
  const chart = Testing.chart();
  new PostgresCluster(chart, 'pg', { storage, bootstrap });
  return only(synth(chart), 'Cluster').spec;
}

describe('ClusterBootstrap', () => {
  test('initdb with no options writes an empty initdb section', () => {
    expect(specWith(ClusterBootstrap.initdb()).bootstrap).toEqual({ initdb: {} });
  });

  test('initdb writes the CRD section with its JSON spelling', () => {
    expect(specWith(ClusterBootstrap.initdb({
      database: 'shop', owner: 'shop', secret: { name: 'shop-owner' }, dataChecksums: true, postInitSql: ['CREATE EXTENSION pg_trgm'],
    })).bootstrap).toEqual({
      initdb: { database: 'shop', owner: 'shop', secret: { name: 'shop-owner' }, dataChecksums: true, postInitSQL: ['CREATE EXTENSION pg_trgm'] },
    });
  });

  test('recovery from a plugin', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'restored', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(Plugin.fromPluginName(BARMAN), {
        sourceName: 'origin',
        parameters: { barmanObjectName: 'store', serverName: 'pg' },
      }),
    });
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const spec = only(out, 'Cluster').spec;
    // The documented defaults: database, owner, secret and recoveryTarget are not written.
    expect(spec.bootstrap).toEqual({ recovery: { source: 'origin' } });
    expect(spec.externalClusters).toEqual([{ name: 'origin', plugin: { name: BARMAN, parameters: { barmanObjectName: 'store', serverName: 'pg' } } }]);
    // The recovering Cluster does not need the plugin in spec.plugins.
    expect(spec).not.toHaveProperty('plugins');
  });

  test('recovery from a plugin to a point in time, with the application database', () => {
    const spec = specWith(ClusterBootstrap.recoveryFromPlugin(BARMAN, {
      sourceName: 'origin',
      database: 'shop',
      owner: 'shop',
      secretName: 'shop-owner',
      recoveryTarget: { targetTime: '2025-01-01T00:00:00Z', exclusive: true },
    }));
    expect(spec.bootstrap).toEqual({
      recovery: {
        source: 'origin', database: 'shop', owner: 'shop', secret: { name: 'shop-owner' },
        recoveryTarget: { targetTime: '2025-01-01T00:00:00Z', exclusive: true },
      },
    });
    expect(spec.externalClusters).toEqual([{ name: 'origin', plugin: { name: BARMAN } }]);
  });

  test('a plain string and Plugin.fromPluginName give the same recovery', () => {
    const a = specWith(ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o' }));
    const b = specWith(ClusterBootstrap.recoveryFromPlugin(Plugin.fromPluginName(BARMAN), { sourceName: 'o' }));
    expect(a).toEqual(b);
  });

  test('the recovery source collides with an external cluster added later', () => {
    const pg = new PostgresCluster(Testing.chart(), 'pg', { storage, bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin' }) });
    expectValidationError(() => pg.addExternalCluster('origin', { connectionParameters: { host: 'h' } }),
      "test/pg: externalClusters 'origin' is already added; give each external cluster a unique name");
  });

  test('one bootstrap can serve two Clusters', () => {
    const bootstrap = ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin' });
    const chart = new Chart(Testing.app(), 'c');
    new PostgresCluster(chart, 'a', { storage, bootstrap });
    new PostgresCluster(chart, 'b', { storage, bootstrap });
    expect(synth(chart).map((o) => o.spec.externalClusters)).toEqual([
      [{ name: 'origin', plugin: { name: BARMAN } }],
      [{ name: 'origin', plugin: { name: BARMAN } }],
    ]);
  });

  test('fromSpec writes any other bootstrap', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage, bootstrap: ClusterBootstrap.fromSpec({ recovery: { backup: { name: 'nightly-20250101' } } }) });
    expect(pg.externalClusterNames).toEqual([]);
    expect(only(synth(chart), 'Cluster').spec.bootstrap).toEqual({ recovery: { backup: { name: 'nightly-20250101' } } });
  });

  test('recoveryFromPlugin validation', () => {
    const where = 'ClusterBootstrap.recoveryFromPlugin';
    expectValidationError(() => ClusterBootstrap.recoveryFromPlugin(BARMAN, js({})),
      `${where}: sourceName undefined must be a string, not undefined; name the external cluster, e.g. 'origin'`);
    expectValidationError(() => ClusterBootstrap.recoveryFromPlugin(BARMAN, js(undefined)),
      `${where}: options undefined must be an object, not undefined; pass { sourceName: 'origin', parameters: { ... } }`);
    expectValidationError(() => ClusterBootstrap.recoveryFromPlugin('Barman', { sourceName: 'o' }),
      `${where}: plugin 'Barman' has upper-case letters; use 'barman'`);
    expectValidationError(() => ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', parameters: js({ serverName: 1 }) }),
      `${where}: parameters.serverName 1 must be a string, not a number; write it as a string, e.g. '1'`);
    expectValidationError(() => ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', database: '' }),
      `${where}: database '' must not be empty; name the database, e.g. 'app'`);
    expectValidationError(() => ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', recoveryTarget: js('latest') }),
      `${where}: recoveryTarget 'latest' must be an object, not a string; pass { targetTime: '2024-01-01T00:00:00Z' }`);
  });

  test('fromSpec and initdb validation', () => {
    expectValidationError(() => ClusterBootstrap.fromSpec({ initdb: {}, recovery: { source: 'o' } }),
      'ClusterBootstrap.fromSpec: spec {"initdb":{},"recovery":{"source":"o"}} sets 2 bootstrap methods; set exactly one of initdb, pgBasebackup or recovery');
    expectValidationError(() => ClusterBootstrap.fromSpec({}),
      'ClusterBootstrap.fromSpec: spec {} sets 0 bootstrap methods; set exactly one of initdb, pgBasebackup or recovery');
    expectValidationError(() => ClusterBootstrap.fromSpec(js(null)),
      "ClusterBootstrap.fromSpec: spec null must be an object, not null; pass { pgBasebackup: { source: 'origin' } }");
    expectValidationError(() => ClusterBootstrap.initdb(js('app')),
      "ClusterBootstrap.initdb: options 'app' must be an object, not a string; pass { database: 'app', owner: 'app' } or nothing");
  });
});

describe('recoveryFromPlugin sourceName', () => {
  test.each(['..', '--plugin-path=/x'])('%s is refused where it is written (a path component for the operator)', (sourceName) => {
    expectValidationError(() => ClusterBootstrap.recoveryFromPlugin(Plugin.fromPluginName('barman-cloud.cloudnative-pg.io'), { sourceName }),
      `ClusterBootstrap.recoveryFromPlugin: sourceName '${sourceName}' is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it; use a plain name such as 'origin'`);
  });
});
