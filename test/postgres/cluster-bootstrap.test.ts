import { Chart, Duration, Size, Testing } from 'cdk8s';
import { admissionErrors, admit } from '../../src/checks/admission';
import { checkManifests } from '../../src/doctor';
import type { Json } from '../../src/manifests/json';
import { Plugin } from '../../src/plugins/plugin';
import { ClusterBootstrap, ExternalClusterSource, IObjectStore, PostgresCluster, RecoveryTarget } from '../../src/postgres';
import { ObjectStore, ObjectStoreCredentials } from '../../src/presets/object-store';
import { chartIn, expectValidationError, only, synth } from '../util';
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
        recoveryTarget: RecoveryTarget.timestamp('2025-01-01T00:00:00Z', { exclusive: true }),
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
      bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', database: js(5) }),
    });
    expect(synthErrors(chart)).toEqual(["[test/pg] Cluster 'pg' spec.bootstrap.recovery.database: must be a string; value 5; allowed a string"]);
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

/** An app with a Cluster `pg` archiving through Barman Cloud into a real ObjectStore, in namespace `db`. */
function archivingApp(archiver: { serverName?: string } = {}) {
  const chart = chartIn('db', 'apps');
  const store = new ObjectStore(chart, 'store', {
    destinationPath: 's3://backups/db',
    credentials: ObjectStoreCredentials.s3AccessKeys({
      accessKeyId: { name: 'aws-creds', key: 'ACCESS_KEY_ID' },
      secretAccessKey: { name: 'aws-creds', key: 'ACCESS_SECRET_KEY' },
    }),
  });
  const pg = new PostgresCluster(chart, 'pg', { storage });
  pg.addPlugin(BARMAN, {
    isWalArchiver: true,
    objectStore: store,
    parameters: archiver.serverName === undefined ? undefined : { serverName: archiver.serverName },
  });
  return { chart, store, pg };
}

/** The synthesized Cluster named `name`, after checking that CloudNativePG's webhook admits it. */
function clusterNamed(chart: Chart, name: string): any {
  const cluster = synth(chart).find((o) => o.kind === 'Cluster' && o.metadata.name === name)!;
  expect(admissionErrors(admit('Cluster', cluster as Json))).toEqual([]);
  return cluster;
}

describe('ClusterBootstrap.recoveryFromCluster', () => {
  const where = 'ClusterBootstrap.recoveryFromCluster';

  test("derives the plugin, the store and the server name from the source's WAL archiver", () => {
    const { chart, pg } = archivingApp();
    new PostgresCluster(chart, 'restored', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(pg) });
    const spec = clusterNamed(chart, 'restored').spec;
    // Barman Cloud would read a recovery without serverName under 'restored': it is always written.
    expect(spec.bootstrap).toEqual({ recovery: { source: 'pg' } });
    expect(spec.externalClusters).toEqual([{ name: 'pg', plugin: { name: BARMAN_NAME, parameters: { serverName: 'pg', barmanObjectName: 'store' } } }]);
    expect(spec).not.toHaveProperty('plugins');
    // The doctor finds nothing wrong with the recovery either.
    const findings = checkManifests(synth(chart), { knownPlugins: [BARMAN_NAME] }).filter((f) => f.object === 'Cluster/db/restored');
    expect(findings).toEqual([]);
  });

  test('the same YAML as recoveryFromPlugin written by hand', () => {
    const { chart, pg, store } = archivingApp();
    new PostgresCluster(chart, 'derived', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(pg, { sourceName: 'origin' }) });
    new PostgresCluster(chart, 'by-hand', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin', objectStore: store, parameters: { serverName: pg.name } }),
    });
    expect(clusterNamed(chart, 'derived').spec).toEqual(clusterNamed(chart, 'by-hand').spec);
  });

  test("the source's own serverName, the options and a point in time", () => {
    const { chart, pg } = archivingApp({ serverName: 'pg-v2' });
    new PostgresCluster(chart, 'restored', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromCluster(pg, {
        sourceName: 'origin',
        database: 'shop',
        owner: 'shop',
        secretName: 'shop-owner',
        recoveryTarget: RecoveryTarget.time(new Date(Date.UTC(2025, 0, 1, 8, 30))),
      }),
    });
    const spec = clusterNamed(chart, 'restored').spec;
    expect(spec.bootstrap).toEqual({
      recovery: { source: 'origin', database: 'shop', owner: 'shop', secret: { name: 'shop-owner' }, recoveryTarget: { targetTime: '2025-01-01T08:30:00Z' } },
    });
    expect(spec.externalClusters[0].plugin.parameters).toEqual({ serverName: 'pg-v2', barmanObjectName: 'store' });
  });

  test('a source that archives no WAL is refused, with the fix', () => {
    const pg = new PostgresCluster(chartIn('db', 'apps'), 'pg', { storage });
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg),
      `${where}: source 'apps/pg' archives no WAL: none of its plugins is a WAL archiver, so no archive holds its backups' WAL and there is nothing to recover from; ` +
        'make it archive first: call addPlugin(plugin, { isWalArchiver: true, objectStore }) on apps/pg before deriving a recovery from it',
    );
  });

  test('a source whose plugin archives without being declared is refused: the recovery follows a declared archiver', () => {
    const chart = chartIn('db', 'apps');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    // The instance manager offers WAL to every enabled plugin, so this one archives; undeclared.
    pg.addPlugin(BARMAN, { objectStore: ObjectStore.fromObjectStoreName('store') });
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg),
      `${where}: source 'apps/pg' declares no WAL archiver: plugin '${BARMAN_NAME}' may archive into its store, but a segment it cannot take while its sidecar is missing is lost without an error (CNPGI123), so the recovery is derived only from a declared archiver; ` +
        'declare it: call addPlugin(plugin, { isWalArchiver: true, objectStore }) on apps/pg',
    );
  });

  test('a disabled archiver archives nothing', () => {
    const chart = chartIn('db', 'apps');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { enabled: false, isWalArchiver: true, objectStore: ObjectStore.fromObjectStoreName('store') });
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg),
      `${where}: source 'apps/pg' archives no WAL: its WAL archiver '${BARMAN_NAME}' is disabled, so no archive holds its backups' WAL and there is nothing to recover from; ` +
        'make it archive first: call addPlugin(plugin, { isWalArchiver: true, objectStore }) on apps/pg before deriving a recovery from it',
    );
  });

  test('an archiver without an objectStore, a Cluster managed elsewhere, and not a Cluster', () => {
    const chart = chartIn('db', 'apps');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg),
      `${where}: source 'apps/pg' archives through plugin '${BARMAN_NAME}' without an objectStore, so the archive to read is not known; ` +
        'link the store where it archives (addPlugin(plugin, { isWalArchiver: true, objectStore })), or describe the archive with ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName, objectStore, parameters })',
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(PostgresCluster.fromClusterName('pg')),
      `${where}: source 'pg' is a Cluster managed elsewhere: nothing here says which plugin archives its WAL, into which store, under which name; ` +
        'pass the PostgresCluster construct of this app, or describe the archive with ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName, objectStore, parameters })',
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(js('pg')),
      `${where}: source 'pg' must be a PostgresCluster, not a string; pass the PostgresCluster construct whose archive to read`,
    );
  });

  test('a store that does not say how its archive is read (from JavaScript)', () => {
    const chart = chartIn('db', 'apps');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, objectStore: js({ name: 'vault', clusterParameters: () => ({ barmanObjectName: 'vault' }) }) });
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg),
      `${where}: source 'apps/pg' archives into object store 'vault', which does not say how its archive is read (no archiveParameters()); ` +
        'implement IObjectStore.archiveParameters(), or describe the archive with ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName, objectStore, parameters })',
    );
  });

  test('any plugin: the store names the parameters, the library names none', () => {
    const chart = chartIn('db', 'apps');
    const store: IObjectStore = {
      name: 'vault',
      clusterParameters: () => ({ storeName: 'vault' }),
      archiveParameters: (cluster, params) => ({ archive: params.prefix === undefined ? cluster : `${params.prefix}/${cluster}` }),
    };
    const backup = Plugin.fromPluginName('backup.example.com');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(Plugin.fromPluginName('cnpg-i-hello-world.cloudnative-pg.io'));
    pg.addPlugin(backup, { isWalArchiver: true, objectStore: store, parameters: { prefix: 'eu' } });
    new PostgresCluster(chart, 'restored', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(pg) });
    expect(clusterNamed(chart, 'restored').spec.externalClusters).toEqual([
      { name: 'pg', plugin: { name: 'backup.example.com', parameters: { archive: 'eu/pg', storeName: 'vault' } } },
    ]);
  });

  test("the recovering Cluster must live in the store's namespace, which is the source's when the store does not say", () => {
    const { pg } = archivingApp();
    expectValidationError(
      () => new PostgresCluster(chartIn('other', 'elsewhere'), 'restored', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(pg) }),
      "elsewhere/restored: externalClusters[pg].objectStore 'store' is in namespace 'db', but Barman Cloud looks for it in the Cluster's namespace 'other'; create the ObjectStore in the Cluster's chart or namespace",
    );
    const chart = chartIn('db', 'apps');
    const ref = new PostgresCluster(chart, 'ref', { storage });
    ref.addPlugin(BARMAN, { isWalArchiver: true, objectStore: ObjectStore.fromObjectStoreName('store') });
    expectValidationError(
      () => new PostgresCluster(chartIn('other', 'elsewhere'), 'restored', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(ref) }),
      "elsewhere/restored: externalClusters[ref].objectStore 'store' is in namespace 'db', but Barman Cloud looks for it in the Cluster's namespace 'other'; create the ObjectStore in the Cluster's chart or namespace",
    );
  });

  test("the recovered Cluster may archive into the same store under its own name, not under the source's", () => {
    const { chart, pg, store } = archivingApp();
    const restored = new PostgresCluster(chart, 'restored', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(pg) });
    restored.addPlugin(BARMAN, { isWalArchiver: true, objectStore: store });
    expect(clusterNamed(chart, 'restored').spec.plugins[0].parameters).toEqual({ barmanObjectName: 'store' });
    const again = archivingApp();
    const clash = new PostgresCluster(again.chart, 'restored', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(again.pg) });
    clash.addPlugin(BARMAN, { isWalArchiver: true, objectStore: again.store, parameters: { serverName: 'pg' } });
    expect(synthErrors(again.chart).join('\n')).toContain(
      "Cluster 'restored' recovers from ObjectStore 'store' server 'pg' and archives into the same ObjectStore and server name",
    );
  });

  test('the options are checked', () => {
    const { pg } = archivingApp();
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg, { sourceName: '..' }),
      `${where}: sourceName '..' is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it; use a plain name such as 'origin'`,
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg, js({ serverName: 'pg' })),
      `${where}: options.serverName 'pg' is not a declared key of options; remove it; options takes database, owner, recoveryTarget, secretName, sourceName`,
    );
    expectValidationError(
      () => ClusterBootstrap.recoveryFromCluster(pg, { recoveryTarget: RecoveryTarget.xid(7) }),
      `${where}: options.recoveryTarget {"targetXid":"7"} is a transaction id target without backupId: the operator picks a backup from the catalog by time or LSN only, and the Cluster webhook refuses it ("BackupID is missing"); name the backup to start from, e.g. RecoveryTarget.xid(1234, { backupId: '20240501T120000' }), or use a time or LSN target`,
    );
  });
});

describe('ClusterBootstrap.replicaOfCluster', () => {
  const where = 'ClusterBootstrap.replicaOfCluster';

  test('a replica cluster that follows the source through its archive', () => {
    const { chart, pg } = archivingApp();
    new PostgresCluster(chart, 'replica', { storage, bootstrap: ClusterBootstrap.replicaOfCluster(pg) });
    const spec = clusterNamed(chart, 'replica').spec;
    expect(spec.bootstrap).toEqual({ recovery: { source: 'pg' } });
    expect(spec.replica).toEqual({ enabled: true, source: 'pg' });
    expect(spec.externalClusters).toEqual([{ name: 'pg', plugin: { name: BARMAN_NAME, parameters: { serverName: 'pg', barmanObjectName: 'store' } } }]);
  });

  test('delayed, streaming too, under another name', () => {
    const { chart, pg } = archivingApp();
    new PostgresCluster(chart, 'replica', {
      storage,
      bootstrap: ClusterBootstrap.replicaOfCluster(pg, {
        sourceName: 'origin',
        minApplyDelay: Duration.hours(1),
        connection: { connectionParameters: { host: 'pg-rw', user: 'streaming_replica' }, sslKey: { name: 'pg-replication', key: 'tls.key' } },
      }),
    });
    const spec = clusterNamed(chart, 'replica').spec;
    expect(spec.replica).toEqual({ enabled: true, source: 'origin', minApplyDelay: '1h' });
    expect(spec.externalClusters).toEqual([
      {
        name: 'origin',
        connectionParameters: { host: 'pg-rw', user: 'streaming_replica' },
        sslKey: { name: 'pg-replication', key: 'tls.key' },
        plugin: { name: BARMAN_NAME, parameters: { serverName: 'pg', barmanObjectName: 'store' } },
      },
    ]);
  });

  test('a source that archives no WAL is refused', () => {
    const pg = new PostgresCluster(chartIn('db', 'apps'), 'pg', { storage });
    expectValidationError(
      () => ClusterBootstrap.replicaOfCluster(pg),
      `${where}: source 'apps/pg' archives no WAL: none of its plugins is a WAL archiver, so no archive holds its backups' WAL and there is nothing to recover from; ` +
        'make it archive first: call addPlugin(plugin, { isWalArchiver: true, objectStore }) on apps/pg before deriving a recovery from it',
    );
  });

  test('the replica prop beside it is refused; beside recoveryFromCluster it writes the same replica', () => {
    const { chart, pg } = archivingApp();
    expectValidationError(
      () => new PostgresCluster(chart, 'replica', { storage, bootstrap: ClusterBootstrap.replicaOfCluster(pg), replica: { source: 'pg' } }),
      'apps/replica: replica {"source":"pg"} is given together with ClusterBootstrap.replicaOfCluster(), which writes spec.replica; ' +
        'leave the replica prop out (replicaOfCluster takes minApplyDelay), or bootstrap with recoveryFromCluster() and keep the replica prop',
    );
    new PostgresCluster(chart, 'by-hand', { storage, bootstrap: ClusterBootstrap.recoveryFromCluster(pg), replica: { source: 'pg', enabled: true } });
    new PostgresCluster(chart, 'derived', { storage, bootstrap: ClusterBootstrap.replicaOfCluster(pg) });
    expect(clusterNamed(chart, 'by-hand').spec).toEqual(clusterNamed(chart, 'derived').spec);
  });

  test('the options are checked', () => {
    const { pg } = archivingApp();
    expectValidationError(
      () => ClusterBootstrap.replicaOfCluster(pg, js({ enabled: false })),
      `${where}: options.enabled false is not a declared key of options; remove it; options takes connection, minApplyDelay, sourceName`,
    );
  });
});
