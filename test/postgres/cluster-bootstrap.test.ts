import { Chart, Size, Testing } from 'cdk8s';
import { Plugin } from '../../src/plugins/plugin';
import { ClusterBootstrap, ExternalClusterSource, PostgresCluster } from '../../src/postgres';
import { ObjectStore } from '../../src/presets/object-store';
import { expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const BARMAN_NAME = 'barman-cloud.cloudnative-pg.io';
const BARMAN = Plugin.fromPluginName(BARMAN_NAME);
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
    expect(
      specWith(
        ClusterBootstrap.initdb({
          database: 'shop',
          owner: 'shop',
          secret: { name: 'shop-owner' },
          dataChecksums: true,
          postInitSql: ['CREATE EXTENSION pg_trgm'],
        }),
      ).bootstrap,
    ).toEqual({
      initdb: { database: 'shop', owner: 'shop', secret: { name: 'shop-owner' }, dataChecksums: true, postInitSQL: ['CREATE EXTENSION pg_trgm'] },
    });
  });

  test('recovery from a plugin', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'restored', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, {
        sourceName: 'origin',
        objectStore: ObjectStore.fromObjectStoreName('store'),
        parameters: { serverName: 'pg' },
      }),
    });
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const spec = only(out, 'Cluster').spec;
    // The documented defaults: database, owner, secret and recoveryTarget are not written.
    expect(spec.bootstrap).toEqual({ recovery: { source: 'origin' } });
    expect(spec.externalClusters).toEqual([{ name: 'origin', plugin: { name: BARMAN_NAME, parameters: { barmanObjectName: 'store', serverName: 'pg' } } }]);
    // The recovering Cluster does not need the plugin in spec.plugins.
    expect(spec).not.toHaveProperty('plugins');
  });

  test('recovery from a plugin to a point in time, with the application database', () => {
    const spec = specWith(
      ClusterBootstrap.recoveryFromPlugin(BARMAN, {
        sourceName: 'origin',
        database: 'shop',
        owner: 'shop',
        secretName: 'shop-owner',
        recoveryTarget: { targetTime: '2025-01-01T00:00:00Z', exclusive: true },
      }),
    );
    expect(spec.bootstrap).toEqual({
      recovery: {
        source: 'origin',
        database: 'shop',
        owner: 'shop',
        secret: { name: 'shop-owner' },
        recoveryTarget: { targetTime: '2025-01-01T00:00:00Z', exclusive: true },
      },
    });
    expect(spec.externalClusters).toEqual([{ name: 'origin', plugin: { name: BARMAN_NAME } }]);
  });

  test('a plain string is not a plugin', () => {
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(js(BARMAN_NAME), { sourceName: 'o' }),
      `ExternalClusterSource.fromPlugin: plugin '${BARMAN_NAME}' must be an IPlugin, not a string; pass a plugin construct, or Plugin.fromPluginName('backup.example.com') for a plugin installed elsewhere`,
    );
  });

  test('the recovery source collides with an external cluster added later', () => {
    const pg = new PostgresCluster(Testing.chart(), 'pg', { storage, bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin' }) });
    expectValidationError(
      () => pg.addExternalCluster('origin', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' } })),
      "test/pg: externalClusters 'origin' is added twice; give each external cluster a unique name",
    );
  });

  test('one bootstrap can serve two Clusters', () => {
    const bootstrap = ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin' });
    const chart = new Chart(Testing.app(), 'c');
    new PostgresCluster(chart, 'a', { storage, bootstrap });
    new PostgresCluster(chart, 'b', { storage, bootstrap });
    expect(synth(chart).map((o) => o.spec.externalClusters)).toEqual([
      [{ name: 'origin', plugin: { name: BARMAN_NAME } }],
      [{ name: 'origin', plugin: { name: BARMAN_NAME } }],
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
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(BARMAN, js({})),
      `${where}: sourceName is missing: it must be a non-empty string; use a plain name such as 'origin'`,
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(BARMAN, js(undefined)),
      `${where}: options is missing: it must be an object; pass an object with any of database, objectStore, owner, parameters, recoveryTarget, secretName, sourceName`,
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(BARMAN, js({ sourceName: 'o', serverName: 'pg' })),
      `${where}: options.serverName 'pg' is not a declared key of options; remove it; options takes database, objectStore, owner, parameters, recoveryTarget, secretName, sourceName`,
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin({ pluginName: 'Barman' }, { sourceName: 'o' }),
      "ExternalClusterSource.fromPlugin: plugin.pluginName 'Barman' is not a lower-case DNS subdomain (RFC 1123); use 'barman'",
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', parameters: js({ serverName: 1 }) }),
      "ExternalClusterSource.fromPlugin: options.parameters.serverName 1 must be a string, not a number; write it as a string, e.g. '1'",
    );
  });

  test('the recovery section is written as given and judged by the CRD schema at synth', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', database: js(5), recoveryTarget: js('latest') }),
    });
    expect(synthErrors(chart)).toEqual([
      "[test/pg] bootstrap.recovery.recoveryTarget 'latest' would be written as {}; write plain JSON values (strings, numbers, booleans, arrays, objects), as the CRD takes them",
    ]);
    const other = Testing.chart();
    new PostgresCluster(other, 'pg', { storage, bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', database: js(5) }) });
    expect(synthErrors(other)).toEqual(["[test/pg] Cluster 'pg' spec.bootstrap.recovery.database: must be a string; value 5; allowed a string"]);
  });

  test('fromSpec and initdb validation', () => {
    expectValidationError(
      () => ClusterBootstrap.fromSpec({ initdb: {}, recovery: { source: 'o' } }),
      'ClusterBootstrap.fromSpec: spec {"initdb":{},"recovery":{"source":"o"}} sets 2 bootstrap methods; set exactly one of initdb, pgBasebackup or recovery',
    );
    expectValidationError(
      () => ClusterBootstrap.fromSpec({}),
      'ClusterBootstrap.fromSpec: spec {} sets 0 bootstrap methods; set exactly one of initdb, pgBasebackup or recovery',
    );
    expectValidationError(
      () => ClusterBootstrap.fromSpec(js(null)),
      'ClusterBootstrap.fromSpec: spec null sets 0 bootstrap methods; set exactly one of initdb, pgBasebackup or recovery',
    );
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage, bootstrap: ClusterBootstrap.initdb(js({ dataBase: 'app' })) });
    expect(synthErrors(chart)).toEqual([
      "[test/pg] bootstrap.initdb.dataBase 'app' would not be written: the Cluster CRD bindings have no such field here, or no such value; check the spelling and the type against the CRD (a quantity is a string such as '5Gi')",
    ]);
  });
});

describe('recoveryFromPlugin sourceName', () => {
  test.each(['..', '--plugin-path=/x'])('%s is refused where it is written (a path component for the operator)', (sourceName) => {
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName }),
      `ClusterBootstrap.recoveryFromPlugin: sourceName '${sourceName}' is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it; use a plain name such as 'origin'`,
    );
  });
});
