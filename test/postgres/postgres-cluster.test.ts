import { ApiObject, App, Chart, Duration, Size, Testing } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { ClusterSpecEphemeralVolumesSizeLimitShm, ClusterSpecStoragePvcTemplateResourcesRequests } from '../../imports/postgresql.cnpg.io';
import { Plugin } from '../../src/plugins/plugin';
import {
  ClusterBootstrap,
  ClusterImage,
  ClusterSpecPassthrough,
  ExternalClusterSource,
  ImageCatalogKind,
  IObjectStore,
  IPostgresCluster,
  PostgresCluster,
  PostgresClusterProps,
} from '../../src/postgres';
import { ObjectStore, ObjectStoreCredentials } from '../../src/presets/object-store';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
const HELLO = Plugin.fromPluginName('cnpg-i-hello-world.cloudnative-pg.io');
const storage = { size: Size.gibibytes(10) };
const conn = (host: string) => ExternalClusterSource.fromConnection({ connectionParameters: { host } });

function cluster(props: Partial<PostgresClusterProps> = {}, chart: Chart = Testing.chart()): PostgresCluster {
  return new PostgresCluster(chart, 'pg', { storage, ...props });
}

function specOf(pg: PostgresCluster): any {
  return only(synth(pg.node.scope as Chart), 'Cluster').spec;
}

function errorsOf(pg: PostgresCluster): string[] {
  return synthErrors(pg.node.scope as Chart);
}

// Lets tests pass what a JavaScript caller could pass.
const js = (v: unknown): any => v;

describe('PostgresCluster', () => {
  test('minimal Cluster', () => {
    const chart = Testing.chart();
    cluster({}, chart);
    expect(synth(chart)).toMatchSnapshot();
  });

  test('every documented default appears in the output as documented', () => {
    const pg = cluster();
    pg.addPlugin(BARMAN);
    pg.addExternalCluster('origin', ExternalClusterSource.fromPlugin(BARMAN));
    const spec = specOf(pg);
    // instances: 1, written explicitly; storage with only the size.
    expect(spec.instances).toBe(1);
    expect(spec.storage).toEqual({ size: '10Gi' });
    // enabled: true and isWALArchiver: false, written explicitly; no parameters.
    expect(spec.plugins).toEqual([{ name: BARMAN.pluginName, enabled: true, isWALArchiver: false }]);
    // External cluster plugins carry only name (and parameters when given).
    expect(spec.externalClusters).toEqual([{ name: 'origin', plugin: { name: BARMAN.pluginName } }]);
    // "not written" defaults.
    for (const key of ['walStorage', 'imageName', 'imageCatalogRef', 'postgresql', 'bootstrap', 'replica', 'monitoring', 'resources', 'affinity']) {
      expect(spec).not.toHaveProperty(key);
    }
  });

  test('the default name is the construct id, whatever the chart and the parents', () => {
    const chart = new Chart(Testing.app(), 'a-chart-with-quite-a-long-name-for-its-clusters');
    const pg = new PostgresCluster(new Construct(chart, 'Databases'), 'and-a-long-construct-id-as-well', { storage });
    expect(pg.name).toBe('and-a-long-construct-id-as-well');
    expect(only(synth(chart), 'Cluster').metadata.name).toBe(pg.name);
  });

  test('a chart id starting with a digit or holding dots does not matter to the name', () => {
    const chart = new Chart(Testing.app(), '1st.chart_x', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'orders', { storage });
    expect(only(synth(chart), 'Cluster').metadata).toEqual({ name: 'orders', namespace: 'db' });
    expect(pg.name).toBe('orders');
  });

  test('moving a Cluster under another parent construct keeps its name (and so its PVCs and Services)', () => {
    const before = new Chart(Testing.app(), 'databases', { namespace: 'apps' });
    new PostgresCluster(before, 'orders', { storage });
    const after = new Chart(Testing.app(), 'platform', { namespace: 'apps' });
    new PostgresCluster(new Construct(new Construct(after, 'Team'), 'Billing'), 'orders', { storage });
    const a = only(synth(before), 'Cluster');
    const b = only(synth(after), 'Cluster');
    expect(a.metadata).toEqual({ name: 'orders', namespace: 'apps' });
    expect(b.metadata).toEqual(a.metadata);
  });

  test('two Clusters that would share a name in one namespace: an error naming both paths, at synth', () => {
    const app = Testing.app();
    const one = new Chart(app, 'one', { namespace: 'apps' });
    const two = new Chart(app, 'two', { namespace: 'apps' });
    new PostgresCluster(one, 'orders', { storage });
    new PostgresCluster(new Construct(two, 'Team'), 'orders', { storage });
    expect(() => app.synth()).toThrow(
      "[one/orders] metadata.name 'orders' is also the name of the Cluster of two/Team/orders in namespace 'apps'; one would silently replace the other; " +
        'give one of the constructs another id, or pin a distinct metadata.name on one of them',
    );
  });

  test('the same id in two namespaces, or a pinned name that differs, is fine', () => {
    const app = Testing.app();
    new PostgresCluster(new Chart(app, 'one', { namespace: 'a' }), 'orders', { storage });
    const two = new Chart(app, 'two', { namespace: 'b' });
    new PostgresCluster(two, 'orders', { storage });
    new PostgresCluster(new Construct(two, 'Other'), 'orders', { storage, metadata: { name: 'orders-2' } });
    expect(() => app.synth()).not.toThrow();
  });

  test('metadata is written, the namespace follows the chart', () => {
    const chart = chartIn('databases', 'apps');
    const pg = new PostgresCluster(chart, 'pg', { storage, metadata: { name: 'pg-main', labels: { team: 'a' } } });
    expect(pg.name).toBe('pg-main');
    expect(pg.namespace).toBe('databases');
    expect(only(synth(chart), 'Cluster').metadata).toEqual({ name: 'pg-main', namespace: 'databases', labels: { team: 'a' } });
    expect(pg.apiObject).toBeInstanceOf(ApiObject);
    expect(pg.node.defaultChild).toBe(pg.apiObject);
  });

  test('Cluster with every typed prop', () => {
    const chart = Testing.chart();
    cluster(
      {
        instances: 3,
        storage: { size: Size.gibibytes(20), storageClass: 'fast', resizeInUseVolumes: false, pvcTemplate: { accessModes: ['ReadWriteOnce'] } },
        walStorage: { size: Size.mebibytes(1536) },
        image: ClusterImage.fromCatalog({ name: 'postgresql', major: 17 }),
        postgresql: { parameters: { max_connections: '200', shared_buffers: '256MB' } },
        monitoring: { enablePodMonitor: true },
        resources: { cpu: { request: Cpu.millis(500), limit: Cpu.units(2) }, memory: { request: Size.gibibytes(1), limit: Size.gibibytes(1) } },
        affinity: { enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname' },
        spec: {
          enableSuperuserAccess: false,
          postgresql: { pgHba: ['hostssl all all 10.0.0.0/8 scram-sha-256'] },
          monitoring: { disableDefaultQueries: true },
        },
      },
      chart,
    );
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const spec = only(out, 'Cluster').spec;
    expect(spec.walStorage).toEqual({ size: '1536Mi' });
    expect(spec.imageCatalogRef).toEqual({ apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'postgresql', major: 17 });
    // Typed props and passthrough fields of the same section are merged.
    expect(spec.postgresql).toEqual({
      parameters: { max_connections: '200', shared_buffers: '256MB' },
      pg_hba: ['hostssl all all 10.0.0.0/8 scram-sha-256'],
    });
    expect(spec.monitoring).toEqual({ enablePodMonitor: true, disableDefaultQueries: true });
    expect(spec.resources).toEqual({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } });
    expect(spec.enableSuperuserAccess).toBe(false);
  });

  test.each([
    [Size.gibibytes(10), '10Gi'],
    [Size.tebibytes(1), '1Ti'],
    [Size.mebibytes(1536), '1536Mi'],
    [Size.mebibytes(512), '512Mi'],
    [Size.kibibytes(1000), '1000Ki'],
    [Size.gibibytes(1024), '1Ti'],
  ])('storage size %p is written as %p', (size, quantity) => {
    expect(specOf(cluster({ storage: { size } })).storage.size).toBe(quantity);
  });

  test('the image by name or from a ClusterImageCatalog', () => {
    expect(specOf(cluster({ image: ClusterImage.fromName('ghcr.io/cloudnative-pg/postgresql:17.5') })).imageName).toBe(
      'ghcr.io/cloudnative-pg/postgresql:17.5',
    );
    expect(
      specOf(cluster({ image: ClusterImage.fromCatalog({ name: 'pg', major: 16, kind: ImageCatalogKind.CLUSTER_IMAGE_CATALOG }) })).imageCatalogRef,
    ).toEqual({ apiGroup: 'postgresql.cnpg.io', kind: 'ClusterImageCatalog', name: 'pg', major: 16 });
  });

  test('replica of an external cluster reached through a plugin and a connection', () => {
    const chart = Testing.chart();
    const pg = cluster(
      {
        bootstrap: ClusterBootstrap.fromSpec({ recovery: { source: 'origin' } }),
        replica: { source: 'origin', minApplyDelay: Duration.hours(1) },
      },
      chart,
    );
    pg.addExternalCluster(
      'origin',
      ExternalClusterSource.fromPlugin(BARMAN, {
        parameters: { barmanObjectName: 'store', serverName: 'origin' },
        connection: {
          connectionParameters: { host: 'origin-rw.other.svc', user: 'streaming_replica', dbname: 'postgres', sslmode: 'verify-full' },
          sslCert: { name: 'origin-replication', key: 'tls.crt' },
          sslKey: { name: 'origin-replication', key: 'tls.key' },
          sslRootCert: { name: 'origin-ca', key: 'ca.crt' },
        },
      }),
    );
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const spec = only(out, 'Cluster').spec;
    // A Go duration, the one rendering of a Duration everywhere.
    expect(spec.replica).toEqual({ source: 'origin', minApplyDelay: '1h' });
    expect(spec.externalClusters[0].plugin).toEqual({ name: BARMAN.pluginName, parameters: { barmanObjectName: 'store', serverName: 'origin' } });
  });

  test('replica options are written as given', () => {
    // A replica cluster is created from pg_basebackup or recovery (validateReplicaMode).
    const bootstrap = ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'b' } });
    // a promotion token is for the cluster being promoted: it names itself the primary, and the
    // token is the demoted cluster's pg_controldata summary (validatePromotionToken)
    const tok = Buffer.from(
      JSON.stringify({
        latestCheckpointTimelineID: '3',
        redoWalFile: '0000000300000000000000F3',
        databaseSystemIdentifier: '7385418232066089017',
        latestCheckpointREDOLocation: '0/F3000028',
        timeOfLatestCheckpoint: 'Mon 06 May 2024 10:11:12 AM UTC',
        operatorVersion: '1.30.0',
      }),
    ).toString('base64');
    const pg = cluster({ bootstrap, replica: { source: 'a', primary: 'b', self: 'b', promotionToken: tok } });
    pg.addExternalCluster('a', conn('a'));
    pg.addExternalCluster('b', conn('b'));
    expect(specOf(pg).replica).toEqual({ source: 'a', primary: 'b', self: 'b', promotionToken: tok });
    const delayed = cluster({ bootstrap, replica: { source: 'b', primary: 'a', self: 'b', minApplyDelay: Duration.millis(1500) } });
    delayed.addExternalCluster('a', conn('a'));
    delayed.addExternalCluster('b', conn('b'));
    expect(specOf(delayed).replica).toEqual({ source: 'b', primary: 'a', self: 'b', minApplyDelay: '1s500ms' });
    // both at once is refused at synth, as the Cluster webhook refuses it (validatePromotionToken, CNPGI342)
    const both = cluster({ bootstrap, replica: { source: 'a', primary: 'b', self: 'b', promotionToken: tok, minApplyDelay: Duration.millis(1500) } });
    both.addExternalCluster('a', conn('a'));
    both.addExternalCluster('b', conn('b'));
    expect(errorsOf(both)).toEqual([
      `[test/pg] replica.minApplyDelay '1s500ms' the Cluster webhook refuses minApplyDelay beside a promotion token ("minApplyDelay cannot be applied with a promotion token"): the promotion waits for the standby to replay the WAL up to the token, which the delay holds back; remove spec.replica.minApplyDelay for the promotion`,
    ]);
    const manual = cluster({ bootstrap, replica: { source: 'b', enabled: true } });
    manual.addExternalCluster('b', conn('b'));
    expect(specOf(manual).replica).toEqual({ source: 'b', enabled: true });
  });

  test('replica.enabled together with replica.primary is refused, as the Cluster webhook does', () => {
    const pg = cluster({ replica: { source: 'b', enabled: true, primary: 'a', self: 'b' } });
    pg.addExternalCluster('a', conn('a'));
    pg.addExternalCluster('b', conn('b'));
    expect(errorsOf(pg)).toEqual([
      '[test/pg] replica.enabled true is set together with spec.replica.primary; the Cluster webhook forbids it (primary selects the automatic mode, enabled the manual one); remove spec.replica.enabled, or remove spec.replica.primary and spec.replica.self',
    ]);
  });

  test.each(['.', '..', '/plugins', 'a\\b'])('an external cluster named %s is refused at addExternalCluster (a path component for the operator)', (name) => {
    expectValidationError(
      () => cluster().addExternalCluster(name, conn('a')),
      `test/pg: externalClusters '${name}' is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it; use a plain name such as 'origin'`,
    );
  });

  test('replica.primary and replica.self must name external clusters', () => {
    const pg = cluster({ bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'a' } }), replica: { source: 'a', primary: 'x' } });
    pg.addExternalCluster('a', conn('a'));
    expect(errorsOf(pg)).toEqual([
      "[test/pg] replica.primary 'x' replica primary 'x' names no entry of spec.externalClusters (defined: 'a'); the Cluster webhook refuses the Cluster; add an externalClusters entry named 'x', or set spec.replica.primary to one of the defined names",
    ]);
  });

  test('an external cluster with a password Secret and an in-tree object store', () => {
    const pg = cluster();
    pg.addExternalCluster(
      'legacy',
      ExternalClusterSource.fromConnection({
        connectionParameters: { host: 'legacy', user: 'postgres' },
        password: { name: 'legacy-superuser', key: 'password' },
      }),
    );
    pg.addExternalCluster('archive', ExternalClusterSource.fromBarmanObjectStore({ destinationPath: 's3://old/' }));
    expect(specOf(pg).externalClusters).toEqual([
      { name: 'legacy', connectionParameters: { host: 'legacy', user: 'postgres' }, password: { name: 'legacy-superuser', key: 'password' } },
      { name: 'archive', barmanObjectStore: { destinationPath: 's3://old/' } },
    ]);
    expect(pg.externalClusterNames).toEqual(['legacy', 'archive']);
  });

  test('every error of the app is reported by one synth, from App.synth(), synthYaml() and Testing.synth()', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new PostgresCluster(chart, 'pg', { storage, bootstrap: ClusterBootstrap.fromSpec({ recovery: { source: 'origin' } }) });
    new PostgresCluster(chart, 'other', { storage, instances: 0 });
    const message = [
      'Validation failed with the following errors:',
      "  [c/pg] bootstrap.recovery.source 'origin' recovery source 'origin' names no entry of spec.externalClusters (defined: none); the Cluster webhook refuses the Cluster; add an externalClusters entry named 'origin', or set spec.bootstrap.recovery.source to one of the defined names",
      "  [c/other] Cluster 'other' spec.instances: must be >= 1; value 0; allowed >= 1",
    ].join('\n');
    expect(() => Testing.synth(chart)).toThrow(message);
    expect(() => app.synthYaml()).toThrow(message);
    expect(() => app.synth()).toThrow(message);
  });
});

describe('PostgresCluster.fromClusterName', () => {
  test('a Cluster managed elsewhere, by name and namespace', () => {
    const ref: IPostgresCluster = PostgresCluster.fromClusterName('orders', 'db');
    expect(ref).toEqual({ name: 'orders', namespace: 'db' });
    expect(PostgresCluster.fromClusterName('orders')).toEqual({ name: 'orders' });
  });

  test.each(['Orders', '1st', 'a.b', 'x'.repeat(51), ''])('refuses %p, which cannot be a Cluster name', (name) => {
    expectValidationError(
      () => PostgresCluster.fromClusterName(name),
      `PostgresCluster.fromClusterName: name '${name}' is not a Cluster name: it must be a DNS-1035 label of at most 50 characters (lower-case letters, digits and '-', a letter first); pass the metadata.name of the Cluster`,
    );
  });
});

describe('PostgresCluster.addPlugin', () => {
  test('renders the exact JSON keys, in order of addition, at synth', () => {
    const chart = Testing.chart();
    const pg = cluster({}, chart);
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store', serverName: 'pg' } });
    const before = synth(chart);
    pg.addPlugin(HELLO, { enabled: false, parameters: { labels: '{"a":"b"}' } });
    expect(only(before, 'Cluster').spec.plugins).toHaveLength(1);
    const plugins = only(synth(chart), 'Cluster').spec.plugins;
    expect(plugins).toEqual([
      { name: BARMAN.pluginName, enabled: true, isWALArchiver: true, parameters: { barmanObjectName: 'store', serverName: 'pg' } },
      { name: HELLO.pluginName, enabled: false, isWALArchiver: false, parameters: { labels: '{"a":"b"}' } },
    ]);
    expect(Object.keys(plugins[0]).sort()).toEqual(['enabled', 'isWALArchiver', 'name', 'parameters']);
  });

  test('Plugin.fromPluginName and an IPlugin object render the same name; a plain string is refused', () => {
    const a = cluster();
    a.addPlugin(Plugin.fromPluginName('x.example.com'));
    const b = cluster();
    b.addPlugin({ pluginName: 'x.example.com' });
    expect(specOf(a).plugins).toEqual(specOf(b).plugins);
    expectValidationError(
      () => cluster().addPlugin(js('x.example.com')),
      "test/pg: plugin 'x.example.com' must be an IPlugin, not a string; pass a plugin construct, or Plugin.fromPluginName('backup.example.com') for a plugin installed elsewhere",
    );
  });

  test('an unknown option key is refused with the nearest declared key (the CRD spelling isWALArchiver)', () => {
    expectValidationError(
      () => cluster().addPlugin(BARMAN, js({ isWALArchiver: true })),
      `test/pg: plugins[${BARMAN.pluginName}].isWALArchiver true is not a declared key of plugins[${BARMAN.pluginName}]; did you mean 'isWalArchiver'?`,
    );
  });

  test('objectStore writes barmanObjectName from the ObjectStore', () => {
    const chart = chartIn('db', 'apps');
    const store = new ObjectStore(chart, 'store', { destinationPath: 's3://b/p', credentials: ObjectStoreCredentials.s3IamRole() });
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, objectStore: store, parameters: { serverName: 'pg-v2' } });
    expect(only(synth(chart), 'Cluster').spec.plugins[0].parameters).toEqual({ barmanObjectName: 'store', serverName: 'pg-v2' });
    const other = new PostgresCluster(chart, 'other', { storage });
    other.addPlugin(BARMAN, { objectStore: ObjectStore.fromObjectStoreName('shared', 'db') });
    expect(other.plugins[0].parameters).toEqual({ barmanObjectName: 'shared' });
  });

  test('an ObjectStore of another namespace, or together with parameters.barmanObjectName, is refused', () => {
    const app = Testing.app();
    const store = new ObjectStore(new Chart(app, 'stores', { namespace: 'backups' }), 'store', {
      destinationPath: 's3://b/p',
      credentials: ObjectStoreCredentials.s3IamRole(),
    });
    const pg = new PostgresCluster(new Chart(app, 'apps', { namespace: 'db' }), 'pg', { storage });
    expectValidationError(
      () => pg.addPlugin(BARMAN, { objectStore: store }),
      `apps/pg: plugins[${BARMAN.pluginName}].objectStore 'store' is in namespace 'backups', but Barman Cloud looks for it in the Cluster's namespace 'db'; create the ObjectStore in the Cluster's chart or namespace`,
    );
    expectValidationError(
      () => pg.addPlugin(BARMAN, { objectStore: ObjectStore.fromObjectStoreName('s', 'db'), parameters: { barmanObjectName: 's' } }),
      `apps/pg: plugins[${BARMAN.pluginName}].objectStore 's' is given together with parameters.barmanObjectName; give the ObjectStore only: its name is the parameter`,
    );
  });

  test('the Cluster adds the parameters the store names, whatever the store (it knows no plugin parameter itself)', () => {
    const chart = chartIn('db', 'apps');
    const store: IObjectStore = {
      name: 'vault',
      namespace: 'db',
      clusterParameters: () => ({ storeName: 'vault' }),
      archiveParameters: (cluster) => ({ archive: cluster }),
    };
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(Plugin.fromPluginName('backup.example.com'), { objectStore: store, parameters: { retention: '7d' } });
    expect(pg.plugins[0].parameters).toEqual({ retention: '7d', storeName: 'vault' });
    expectValidationError(
      () =>
        pg.addExternalCluster(
          'x',
          ExternalClusterSource.fromPlugin(Plugin.fromPluginName('backup.example.com'), { objectStore: store, parameters: { storeName: 'v' } }),
        ),
      "apps/pg: externalClusters[x].objectStore 'vault' is given together with parameters.storeName; give the ObjectStore only: its name is the parameter",
    );
    expectValidationError(
      () => pg.addPlugin(BARMAN, { objectStore: js({ name: 'store' }) }),
      `apps/pg: plugins[${BARMAN.pluginName}].objectStore 'store' must be an ObjectStore or ObjectStore.fromObjectStoreName(...), not an object; pass the ObjectStore construct`,
    );
  });

  test('plugins returns copies of plain structs', () => {
    const pg = cluster();
    pg.addPlugin(BARMAN, { parameters: { barmanObjectName: 'store' } });
    const got = pg.plugins;
    expect(got).toEqual([{ pluginName: BARMAN.pluginName, enabled: true, isWalArchiver: false, parameters: { barmanObjectName: 'store' } }]);
    (got[0].parameters as Record<string, string>).barmanObjectName = 'changed';
    got.pop();
    expect(pg.plugins[0].parameters).toEqual({ barmanObjectName: 'store' });
  });

  test('a disabled second WAL archiver is allowed', () => {
    const pg = cluster();
    pg.addPlugin(Plugin.fromPluginName('a.example.com'), { isWalArchiver: true });
    pg.addPlugin(Plugin.fromPluginName('b.example.com'), { isWalArchiver: true, enabled: false });
    expect(specOf(pg).plugins.map((p: any) => p.isWALArchiver)).toEqual([true, true]);
  });

  test('two enabled WAL archivers', () => {
    const pg = cluster();
    pg.addPlugin(Plugin.fromPluginName('a.example.com'), { isWalArchiver: true });
    expectValidationError(
      () => pg.addPlugin(Plugin.fromPluginName('b.example.com'), { isWalArchiver: true }),
      "test/pg: plugins[b.example.com].isWalArchiver true is already set by plugin 'a.example.com'; CloudNativePG allows one WAL archiver per Cluster",
    );
  });

  test('a WAL archiver beside spec.backup.barmanObjectStore', () => {
    const spec: ClusterSpecPassthrough = { backup: { barmanObjectStore: { destinationPath: 's3://b/' } } };
    const pg = cluster({ spec });
    pg.addPlugin(Plugin.fromPluginName('b.example.com'));
    expectValidationError(
      () => pg.addPlugin(Plugin.fromPluginName('a.example.com'), { isWalArchiver: true }),
      'test/pg: plugins[a.example.com].isWalArchiver true is set while spec.backup.barmanObjectStore is set; ' +
        'CloudNativePG allows one way of archiving WAL per Cluster: remove spec.backup.barmanObjectStore or set isWalArchiver: false',
    );
  });

  test('a plugin added twice', () => {
    const pg = cluster();
    pg.addPlugin(BARMAN);
    expectValidationError(
      () => pg.addPlugin(Plugin.fromPluginName(BARMAN.pluginName)),
      `test/pg: plugins[${BARMAN.pluginName}] '${BARMAN.pluginName}' is added twice; add each plugin once, with all its parameters`,
    );
  });

  test('bad plugin names', () => {
    const pg = cluster();
    expectValidationError(
      () => pg.addPlugin({ pluginName: 'X.example.com' }),
      "test/pg: plugin.pluginName 'X.example.com' is not a lower-case DNS subdomain (RFC 1123); use 'x.example.com'",
    );
    expectValidationError(
      () => pg.addPlugin(js(null)),
      "test/pg: plugin null must be an IPlugin, not null; pass a plugin construct, or Plugin.fromPluginName('backup.example.com') for a plugin installed elsewhere",
    );
  });

  test('non-string parameters from JavaScript name the key', () => {
    expectValidationError(
      () => cluster().addPlugin(BARMAN, { parameters: js({ barmanObjectName: 'store', retries: 3 }) }),
      `test/pg: plugins[${BARMAN.pluginName}].parameters.retries 3 must be a string, not a number; write it as a string, e.g. '3'`,
    );
  });

  test('non-boolean switches from JavaScript are refused by the schema at synth', () => {
    const pg = cluster();
    pg.addPlugin(BARMAN, { isWalArchiver: js('true') });
    expect(errorsOf(pg)).toEqual(["[test/pg] Cluster 'pg' spec.plugins[0].isWALArchiver: must be a boolean; value 'true'; allowed a boolean"]);
    expectValidationError(
      () => cluster().addPlugin(BARMAN, js('x')),
      `test/pg: plugins[${BARMAN.pluginName}] 'x' must be an object, not a string; pass an object with any of enabled, isWalArchiver, objectStore, parameters, or leave it out`,
    );
  });
});

describe('PostgresCluster.addExternalCluster', () => {
  test('takes an ExternalClusterSource', () => {
    expectValidationError(
      () => cluster().addExternalCluster('origin', js({ plugin: BARMAN })),
      'test/pg: externalClusters[origin] {"plugin":{"pluginName":"barman-cloud.cloudnative-pg.io"}} must be an ExternalClusterSource, not an object; use ExternalClusterSource.fromPlugin(plugin), ExternalClusterSource.fromConnection({ connectionParameters }) or ExternalClusterSource.fromBarmanObjectStore({ ... })',
    );
  });

  test('names are unique and not empty', () => {
    const pg = cluster();
    pg.addExternalCluster('origin', ExternalClusterSource.fromPlugin(BARMAN));
    expectValidationError(
      () => pg.addExternalCluster('origin', conn('h')),
      "test/pg: externalClusters 'origin' is added twice; give each external cluster a unique name",
    );
    expectValidationError(
      () => pg.addExternalCluster('', ExternalClusterSource.fromPlugin(BARMAN)),
      "test/pg: externalClusters '' must be a non-empty string, not a string; use a plain name such as 'origin'",
    );
  });

  test('a plugin source links an ObjectStore of the Cluster namespace', () => {
    const chart = chartIn('db', 'apps');
    const store = new ObjectStore(chart, 'store', { destinationPath: 's3://b/p', credentials: ObjectStoreCredentials.s3IamRole() });
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addExternalCluster('origin', ExternalClusterSource.fromPlugin(BARMAN, { objectStore: store, parameters: { serverName: 'origin' } }));
    expect(only(synth(chart), 'Cluster').spec.externalClusters).toEqual([
      { name: 'origin', plugin: { name: BARMAN.pluginName, parameters: { barmanObjectName: 'store', serverName: 'origin' } } },
    ]);
    expectValidationError(
      () => pg.addExternalCluster('x', ExternalClusterSource.fromPlugin(BARMAN, { objectStore: ObjectStore.fromObjectStoreName('s', 'other') })),
      "apps/pg: externalClusters[x].objectStore 's' is in namespace 'other', but Barman Cloud looks for it in the Cluster's namespace 'db'; create the ObjectStore in the Cluster's chart or namespace",
    );
  });
});

describe('PostgresCluster sources are checked at synth', () => {
  test('a replica source that names no external cluster', () => {
    const pg = cluster({ bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'other' } }), replica: { source: 'origin' } });
    pg.addExternalCluster('other', conn('h'));
    expect(errorsOf(pg)).toEqual([
      "[test/pg] replica.source 'origin' replica source 'origin' names no entry of spec.externalClusters (defined: 'other'); the Cluster webhook refuses the Cluster; add an externalClusters entry named 'origin', or set spec.replica.source to one of the defined names",
    ]);
  });

  test('a pg_basebackup source that names no external cluster', () => {
    const pg = cluster({ bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'origin' } }) });
    expect(errorsOf(pg)).toEqual([
      "[test/pg] bootstrap.pg_basebackup.source 'origin' pg_basebackup source 'origin' names no entry of spec.externalClusters (defined: none); the Cluster webhook refuses the Cluster; add an externalClusters entry named 'origin', or set spec.bootstrap.pg_basebackup.source to one of the defined names",
    ]);
  });

  test('an external cluster added after construction satisfies the source', () => {
    const pg = cluster({ bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'origin' } }) });
    pg.addExternalCluster('origin', conn('origin-rw'));
    expect(specOf(pg).bootstrap).toEqual({ pg_basebackup: { source: 'origin' } });
  });
});

describe('PostgresCluster passthroughs write exactly what they are given, or refuse it', () => {
  test('a pvcTemplate quantity as a plain string, or as the generated class, is written', () => {
    const plain = cluster({ storage: { size: Size.gibibytes(1), pvcTemplate: js({ resources: { requests: { storage: '5Gi' } } }) } });
    expect(specOf(plain).storage).toEqual({ size: '1Gi', pvcTemplate: { resources: { requests: { storage: '5Gi' } } } });
    const typed = cluster({
      storage: {
        size: Size.gibibytes(1),
        pvcTemplate: { resources: { requests: { storage: ClusterSpecStoragePvcTemplateResourcesRequests.fromString('5Gi') } } },
      },
    });
    expect(specOf(typed).storage).toEqual(specOf(plain).storage);
  });

  test('a quantity that is Infinity or NaN is refused (JSON has no such number)', () => {
    for (const bad of [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(() => specOf(cluster({ storage: { size: Size.gibibytes(1), pvcTemplate: js({ resources: { requests: { storage: bad } } }) } }))).toThrow(
        /pvcTemplate\.resources\.requests\.storage .*is not plain JSON/,
      );
    }
  });

  test('spec.ephemeralVolumesSizeLimit.shm as a string or as the generated class is written', () => {
    expect(specOf(cluster({ spec: js({ ephemeralVolumesSizeLimit: { shm: '1Gi' } }) })).ephemeralVolumesSizeLimit).toEqual({ shm: '1Gi' });
    expect(
      specOf(cluster({ spec: { ephemeralVolumesSizeLimit: { shm: ClusterSpecEphemeralVolumesSizeLimitShm.fromString('1Gi') } } })).ephemeralVolumesSizeLimit,
    ).toEqual({ shm: '1Gi' });
  });

  test('TypeScript field names are written with the CRD spelling', () => {
    expect(specOf(cluster({ spec: { enablePdb: false } })).enablePDB).toBe(false);
  });

  test('a misspelt top-level field is refused with the nearest field', () => {
    expectValidationError(
      () => cluster({ spec: js({ enableSuperUserAccess: false }) }),
      "test/pg: spec.enableSuperUserAccess false is not a declared key of spec; did you mean 'enableSuperuserAccess'?",
    );
  });

  test('a nested field the bindings do not know is refused at synth, not dropped', () => {
    const fix =
      "would not be written: the Cluster CRD bindings have no such field here, or no such value; check the spelling and the type against the CRD (a quantity is a string such as '5Gi')";
    expect(errorsOf(cluster({ affinity: js({ enablePodAntiAffinity: true, topologykey: 'zone' }) }))).toEqual([`[test/pg] affinity.topologykey 'zone' ${fix}`]);
    expect(errorsOf(cluster({ spec: js({ postgresql: { pgHbaa: ['x'] } }) }))).toEqual([`[test/pg] spec.postgresql.pgHbaa ["x"] ${fix}`]);
    expect(errorsOf(cluster({ storage: { size: Size.gibibytes(1), pvcTemplate: js({ accesModes: ['ReadWriteOnce'] }) } }))).toEqual([
      `[test/pg] storage.pvcTemplate.accesModes ["ReadWriteOnce"] ${fix}`,
    ]);
  });

  test('a value the bindings would change is refused', () => {
    const pg = cluster({ spec: js({ postgresql: { parameters: undefined, pgHba: 'not a list' } }) });
    expect(errorsOf(pg)).toEqual([
      "[test/pg] spec.postgresql.pgHba 'not a list' cannot be written: the generated bindings expect another type here; check the type against the CRD (a list, an object, a string...)",
    ]);
    const date = cluster({ spec: js({ description: new Date(0) }) });
    expect(errorsOf(date)).toEqual([
      '[test/pg] spec.description "1970-01-01T00:00:00.000Z" is not plain JSON (Date); write strings, numbers, booleans, arrays and plain objects, as the CRD takes them',
    ]);
  });
});

describe('values the API server refuses are library errors', () => {
  test('initdb.icuLocale without localeProvider: icu (a CEL rule of the CRD)', () => {
    const pg = cluster({ bootstrap: ClusterBootstrap.initdb({ icuLocale: 'en-US' }) });
    expect(errorsOf(pg)).toEqual([
      "[test/pg] Cluster 'pg' spec.bootstrap.initdb: fails the CRD rule `!has(self.icuLocale) || self.localeProvider == 'icu'` (no such key: localeProvider), so the API server refuses the object; allowed what the rule allows",
    ]);
    expect(specOf(cluster({ bootstrap: ClusterBootstrap.initdb({ icuLocale: 'en-US', localeProvider: 'icu' }) })).bootstrap.initdb).toEqual({
      icuLocale: 'en-US',
      localeProvider: 'icu',
    });
  });

  test('duplicate finalizers and owner references without uid', () => {
    const pg = cluster({
      metadata: { finalizers: ['example.com/a', 'example.com/a'], ownerReferences: [js({ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' })] },
    });
    expect(errorsOf(pg)).toEqual([
      "[test/pg] Cluster 'pg' metadata.finalizers[1]: repeats item 0; finalizers are a set; value 'example.com/a'; allowed distinct finalizers",
      "[test/pg] Cluster 'pg' metadata.ownerReferences[0].uid: must not be empty; allowed a non-empty string",
    ]);
  });

  test('a resource request above its limit', () => {
    const pg = cluster({ resources: { memory: { request: Size.gibibytes(2), limit: Size.gibibytes(1) } } });
    expect(errorsOf(pg)).toEqual([
      `[test/pg] resources.requests.memory '2Gi' the Cluster webhook refuses the memory request '2Gi' above the limit '1Gi' ("Memory request is greater than the limit"); lower the memory request to at most '1Gi', or raise the limit`,
    ]);
  });
});

describe('PostgresCluster props validation', () => {
  test('props must be an object of declared keys', () => {
    expectValidationError(
      () => new PostgresCluster(Testing.chart(), 'pg', js(undefined)),
      'test/pg: props is missing: it must be an object; pass { storage: ... } (this key is required)',
    );
    expectValidationError(
      () => cluster(js({ imageName: 'x' })),
      "test/pg: props.imageName 'x' is not a declared key of props; remove it; props takes affinity, bootstrap, image, instances, metadata, monitoring, postgresql, replica, resources, spec, storage, walStorage",
    );
    expectValidationError(() => cluster(js({ instance: 3 })), "test/pg: props.instance 3 is not a declared key of props; did you mean 'instances'?");
  });

  test.each<[string, unknown, string]>([
    [
      'storage',
      { storage: { size: Size.gibibytes(1), storageclass: 'fast' } },
      "test/pg: storage.storageclass 'fast' is not a declared key of storage; did you mean 'storageClass'?",
    ],
    ['postgresql', { postgresql: { parameter: {} } }, "test/pg: postgresql.parameter {} is not a declared key of postgresql; did you mean 'parameters'?"],
    [
      'monitoring',
      { monitoring: { enablePodmonitor: true } },
      "test/pg: monitoring.enablePodmonitor true is not a declared key of monitoring; did you mean 'enablePodMonitor'?",
    ],
    ['resources', { resources: { cpus: {} } }, "test/pg: resources.cpus {} is not a declared key of resources; did you mean 'cpu'?"],
    [
      'resources.memory',
      { resources: { memory: { requests: 1 } } },
      "test/pg: resources.memory.requests 1 is not a declared key of resources.memory; did you mean 'request'?",
    ],
    [
      'replica',
      { replica: { source: 'a', promotiontoken: 't' } },
      "test/pg: replica.promotiontoken 't' is not a declared key of replica; did you mean 'promotionToken'?",
    ],
    ['metadata', { metadata: { label: {} } }, "test/pg: metadata.label {} is not a declared key of metadata; did you mean 'labels'?"],
  ])('an unknown key in %s is refused', (_name, props, message) => {
    expectValidationError(() => cluster(js(props)), message);
  });

  test('Cluster names', () => {
    const rule = "a DNS-1035 label of at most 50 characters (lower-case letters, digits and '-', a letter first)";
    // A pinned name is judged with the rest of the object at synth.
    expect(errorsOf(cluster({ metadata: { name: 'p'.repeat(51) } }))).toEqual([
      `[test/pg] metadata.name '${'p'.repeat(51)}' the Cluster webhook refuses the Cluster name '${'p'.repeat(51)}', 51 characters long ("the maximum length of a cluster name is 50 characters"): the operator derives the names of Pods, Services and volumes from it; shorten it to at most 50 characters`,
    ]);
    // The default name is the construct id: an id that cannot be a Cluster name is refused, about the id.
    const idFix = "give the construct an id such as 'orders-db', or pin the name with metadata: { name: 'orders-db' }";
    for (const id of ['1st', 'Orders', 'hello.barman18', 'pay_db', 'p'.repeat(51)]) {
      expectValidationError(
        () => new PostgresCluster(Testing.chart(), id, { storage }),
        `test/${id}: id '${id}' cannot make the Cluster name "${id}": by default the name is the construct id, which must be ${rule}; ${idFix}`,
      );
    }
    // A pinned name lifts the rule from the id.
    expect(new PostgresCluster(Testing.chart(), 'Orders', { storage, metadata: { name: 'orders' } }).name).toBe('orders');
  });

  test('instances are checked by the CRD schema at synth', () => {
    expect(errorsOf(cluster({ instances: 1.5 }))).toEqual(["[test/pg] Cluster 'pg' spec.instances: must be a whole number; value 1.5; allowed a whole number"]);
  });

  test('image and bootstrap take their classes', () => {
    expectValidationError(
      () => cluster({ image: js('img:1') }),
      "test/pg: image 'img:1' must be a ClusterImage, not a string; use ClusterImage.fromName('ghcr.io/cloudnative-pg/postgresql:17.5') or ClusterImage.fromCatalog({ name, major })",
    );
    expectValidationError(
      () => cluster({ bootstrap: js({ initdb: {} }) }),
      'test/pg: bootstrap {"initdb":{}} must be a ClusterBootstrap, not an object; use ClusterBootstrap.initdb(), ClusterBootstrap.recoveryFromCluster(cluster), ' +
        'ClusterBootstrap.replicaOfCluster(cluster), ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName }) or ClusterBootstrap.fromSpec({ ... })',
    );
  });

  test('storage', () => {
    expectValidationError(
      () => new PostgresCluster(Testing.chart(), 'pg', js({})),
      'test/pg: storage is missing: it must be an object; pass e.g. { size: Size.gibibytes(10) }',
    );
    expectValidationError(
      () => cluster({ storage: js({ size: '10Gi' }) }),
      "test/pg: storage.size '10Gi' must be a cdk8s Size, not a string; use Size.gibibytes(10)",
    );
    expectValidationError(
      () => cluster({ storage: { size: Size.kibibytes(0) } }),
      "test/pg: storage.size '0Ki' is not a positive whole number of bytes; use Size.gibibytes(10)",
    );
  });

  test('storage.size may be left out when pvcTemplate carries the storage request (as the webhook and the PVC builder allow)', () => {
    const pvcTemplate = { resources: { requests: { storage: '20Gi' } } };
    expect(specOf(cluster({ storage: { pvcTemplate: js(pvcTemplate) } })).storage).toEqual({ pvcTemplate });
    // the generated quantity class, as TypeScript writes it
    const typed = { resources: { requests: { storage: ClusterSpecStoragePvcTemplateResourcesRequests.fromString('5Gi') } } };
    expect(specOf(cluster({ storage, walStorage: { pvcTemplate: typed } })).walStorage).toEqual({
      pvcTemplate: { resources: { requests: { storage: '5Gi' } } },
    });
    // both given: size wins over the request, as CloudNativePG writes it over the template's
    expect(specOf(cluster({ storage: { size: Size.gibibytes(30), pvcTemplate: js(pvcTemplate) } })).storage).toEqual({ size: '30Gi', pvcTemplate });
    const fix = "use Size.gibibytes(10), or a storage request in pvcTemplate (resources: { requests: { storage: '10Gi' } })";
    expectValidationError(
      () => cluster({ storage: {} }),
      `test/pg: storage.size is missing, and pvcTemplate holds no storage request, so the Cluster webhook refuses the Cluster ("Size not configured"); ${fix}`,
    );
    expectValidationError(
      () => cluster({ storage: { pvcTemplate: { accessModes: ['ReadWriteOnce'] } } }),
      `test/pg: storage.size is missing, and pvcTemplate holds no storage request, so the Cluster webhook refuses the Cluster ("Size not configured"); ${fix}`,
    );
    expectValidationError(
      () => cluster({ walStorage: { pvcTemplate: js({ resources: { requests: { storage: '0Gi' } } }) } }),
      `test/pg: walStorage.size is missing, and the storage request of pvcTemplate is "0Gi", which the Cluster webhook counts as none ("Size not configured"); ${fix}`,
    );
  });

  test('a size inside pvcTemplate that is no quantity says what to write, not the pattern', () => {
    expect(errorsOf(cluster({ storage: { pvcTemplate: js({ resources: { requests: { storage: '20 GB' } } }) } }))).toEqual([
      "[test/pg] Cluster 'pg' spec.storage.pvcTemplate.resources.requests.storage: is not a Kubernetes quantity (a number, then a suffix such as Gi, Mi or k, without a space); value '20 GB'; allowed a quantity: write 20Gi",
    ]);
  });

  test('instances: 0 gives one line, the CRD minimum, and none about a maxSyncReplicas never set', () => {
    expect(errorsOf(cluster({ instances: 0 }))).toEqual(["[test/pg] Cluster 'pg' spec.instances: must be >= 1; value 0; allowed >= 1"]);
    // near miss: with one instance the webhook runs, and a maxSyncReplicas the user set is judged
    expect(errorsOf(cluster({ instances: 1, spec: { maxSyncReplicas: 1 } }))[0]).toContain('maxSyncReplicas 1 with 1 instance');
  });

  test('postgresql parameters are strings', () => {
    expectValidationError(
      () => cluster({ postgresql: { parameters: js({ max_connections: 200 }) } }),
      "test/pg: postgresql.parameters.max_connections 200 must be a string, not a number; write it as a string, e.g. '200'",
    );
  });

  test('resources take cdk8s-plus Cpu and cdk8s Size', () => {
    expectValidationError(
      () => cluster({ resources: { cpu: { request: js('500m') } } }),
      "test/pg: resources.cpu.request '500m' must be a cdk8s-plus Cpu, not a string; use Cpu.millis(500) or Cpu.units(1)",
    );
  });

  test('replica values', () => {
    expectValidationError(
      () => cluster({ replica: { source: 'o', minApplyDelay: js('1h') } }),
      "test/pg: replica.minApplyDelay '1h' must be a cdk8s Duration, not a string; use Duration.hours(1)",
    );
  });

  // TypeScript refuses these keys at compile time; JavaScript callers get these errors.
  test.each<[string, unknown, string]>([
    ['instances', { instances: 3 }, 'test/pg: spec.instances 3 is written by PostgresCluster; use the instances prop instead'],
    ['storage', { storage: { size: '1Gi' } }, 'test/pg: spec.storage {"size":"1Gi"} is written by PostgresCluster; use the storage prop instead'],
    [
      'imageCatalogRef',
      { imageCatalogRef: { kind: 'ImageCatalog', name: 'a', major: 1 } },
      'test/pg: spec.imageCatalogRef {"kind":"ImageCatalog","name":"a","major":1} is written by PostgresCluster; use the image prop (ClusterImage.fromCatalog) instead',
    ],
    [
      'postgresql.parameters',
      { postgresql: { parameters: { a: 'b' } } },
      'test/pg: spec.postgresql.parameters {"a":"b"} is written by PostgresCluster; use the postgresql.parameters prop instead',
    ],
    [
      'monitoring.enablePodMonitor',
      { monitoring: { enablePodMonitor: true } },
      'test/pg: spec.monitoring.enablePodMonitor true is written by PostgresCluster; use the monitoring.enablePodMonitor prop instead',
    ],
    [
      'bootstrap',
      { bootstrap: { initdb: {} } },
      'test/pg: spec.bootstrap {"initdb":{}} is written by PostgresCluster; use the bootstrap prop (ClusterBootstrap) instead',
    ],
    [
      'plugins',
      { plugins: [{ name: 'a.example.com' }] },
      'test/pg: spec.plugins [{"name":"a.example.com"}] is written by PostgresCluster; use addPlugin() instead',
    ],
    [
      'externalClusters',
      { externalClusters: [{ name: 'o' }] },
      'test/pg: spec.externalClusters [{"name":"o"}] is written by PostgresCluster; use addExternalCluster() instead',
    ],
  ])('passthrough spec.%s is refused', (_key, spec, message) => {
    expectValidationError(() => cluster({ spec: js(spec) }), message);
  });

  test('TypeScript refuses managed keys in spec', () => {
    // @ts-expect-error plugins is not part of ClusterSpecPassthrough
    const spec: ClusterSpecPassthrough = { plugins: [] };
    expectValidationError(() => cluster({ spec }), 'test/pg: spec.plugins [] is written by PostgresCluster; use addPlugin() instead');
  });

  test('passthrough spec must be an object', () => {
    expectValidationError(
      () => cluster({ spec: js([]) }),
      'test/pg: spec [] must be an object, not an array; pass an object with any of backup, certificates, description, enablePdb, enableSuperuserAccess, env, envFrom, ephemeralVolumeSource, ephemeralVolumesSizeLimit, failoverDelay, imagePullPolicy, imagePullSecrets, ..., or leave it out',
    );
  });
});

describe('PostgresCluster in an App', () => {
  test('App.synth writes the Cluster', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true });
    expect(() => app.synth()).not.toThrow();
    expect(app.synthYaml()).toContain('isWALArchiver: true');
    expect(App.of(chart)).toBe(app);
  });

  test('the spec is rendered once per synth, however many checks read it', () => {
    const chart = Testing.chart();
    const pg = cluster({}, chart);
    pg.addPlugin(BARMAN);
    const render = jest.spyOn(pg as any, 'renderSpec');
    const wrap = jest.spyOn(require('../../src/postgres/passthrough'), 'wrapValues');
    synth(chart);
    // The checks, the schema guard and the output read one rendering.
    expect(render).toHaveBeenCalledTimes(1);
    expect(wrap).toHaveBeenCalledTimes(1);
    pg.addPlugin(HELLO);
    synth(chart);
    expect(render).toHaveBeenCalledTimes(2);
    wrap.mockRestore();
  });
});
