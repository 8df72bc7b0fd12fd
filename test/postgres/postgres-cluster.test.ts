import { ApiObject, App, Chart, Duration, Size, Testing } from 'cdk8s';
import { Cpu } from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Plugin } from '../../src/plugins/plugin';
import {
  ClusterBootstrap, ClusterSpecPassthrough, ImageCatalogKind, PostgresCluster, PostgresClusterProps,
} from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';

const BARMAN = 'barman-cloud.cloudnative-pg.io';
const storage = { size: Size.gibibytes(10) };

function cluster(props: Partial<PostgresClusterProps> = {}, chart: Chart = Testing.chart()): PostgresCluster {
  return new PostgresCluster(chart, 'pg', { storage, ...props });
}

function specOf(pg: PostgresCluster): any {
  return only(synth(pg.node.scope as Chart), 'Cluster').spec;
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
    pg.addExternalCluster('origin', { plugin: BARMAN });
    const spec = specOf(pg);
    // instances: 1, written explicitly; storage with only the size.
    expect(spec.instances).toBe(1);
    expect(spec.storage).toEqual({ size: '10Gi' });
    // enabled: true and isWALArchiver: false, written explicitly; no parameters.
    expect(spec.plugins).toEqual([{ name: BARMAN, enabled: true, isWALArchiver: false }]);
    // External cluster plugins carry only name (and parameters when given).
    expect(spec.externalClusters).toEqual([{ name: 'origin', plugin: { name: BARMAN } }]);
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
    expectValidationError(() => app.synth(),
      "one/orders: metadata.name 'orders' is also the name of the Cluster of two/Team/orders in namespace 'apps'; one would silently replace the other; "
      + 'give one of the constructs another id, or pin a distinct metadata.name on one of them');
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
    cluster({
      instances: 3,
      storage: { size: Size.gibibytes(20), storageClass: 'fast', resizeInUseVolumes: false, pvcTemplate: { accessModes: ['ReadWriteOnce'] } },
      walStorage: { size: Size.mebibytes(1536) },
      imageCatalog: { name: 'postgresql', major: 17 },
      postgresql: { parameters: { max_connections: '200', shared_buffers: '256MB' } },
      monitoring: { enablePodMonitor: true },
      resources: { cpu: { request: Cpu.millis(500), limit: Cpu.units(2) }, memory: { request: Size.gibibytes(1), limit: Size.gibibytes(1) } },
      affinity: { enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname' },
      spec: {
        enableSuperuserAccess: false,
        postgresql: { pgHba: ['hostssl all all 10.0.0.0/8 scram-sha-256'] },
        monitoring: { disableDefaultQueries: true },
      },
    }, chart);
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

  test('imageName and a ClusterImageCatalog', () => {
    expect(specOf(cluster({ imageName: 'ghcr.io/cloudnative-pg/postgresql:17.5' })).imageName).toBe('ghcr.io/cloudnative-pg/postgresql:17.5');
    expect(specOf(cluster({ imageCatalog: { name: 'pg', major: 16, kind: ImageCatalogKind.CLUSTER_IMAGE_CATALOG } })).imageCatalogRef)
      .toEqual({ apiGroup: 'postgresql.cnpg.io', kind: 'ClusterImageCatalog', name: 'pg', major: 16 });
  });

  test('replica of an external cluster reached through a plugin and a connection', () => {
    const chart = Testing.chart();
    const pg = cluster({
      bootstrap: ClusterBootstrap.fromSpec({ recovery: { source: 'origin' } }),
      replica: { source: 'origin', minApplyDelay: Duration.hours(1) },
    }, chart);
    pg.addExternalCluster('origin', {
      plugin: Plugin.fromPluginName(BARMAN),
      parameters: { barmanObjectName: 'store', serverName: 'origin' },
      connectionParameters: { host: 'origin-rw.other.svc', user: 'streaming_replica', dbname: 'postgres', sslmode: 'verify-full' },
      sslCert: { name: 'origin-replication', key: 'tls.crt' },
      sslKey: { name: 'origin-replication', key: 'tls.key' },
      sslRootCert: { name: 'origin-ca', key: 'ca.crt' },
    });
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const spec = only(out, 'Cluster').spec;
    expect(spec.replica).toEqual({ source: 'origin', minApplyDelay: '3600s' });
    expect(spec.externalClusters[0].plugin).toEqual({ name: BARMAN, parameters: { barmanObjectName: 'store', serverName: 'origin' } });
  });

  test('replica options are written as given', () => {
    const pg = cluster({ replica: { source: 'b', primary: 'a', self: 'b', promotionToken: 'tok', minApplyDelay: Duration.millis(1500) } });
    pg.addExternalCluster('a', { connectionParameters: { host: 'a' } });
    pg.addExternalCluster('b', { connectionParameters: { host: 'b' } });
    expect(specOf(pg).replica).toEqual({ source: 'b', primary: 'a', self: 'b', promotionToken: 'tok', minApplyDelay: '1500ms' });
    const manual = cluster({ replica: { source: 'b', enabled: true } });
    manual.addExternalCluster('b', { connectionParameters: { host: 'b' } });
    expect(specOf(manual).replica).toEqual({ source: 'b', enabled: true });
  });

  test('replica.enabled together with replica.primary is refused, as the Cluster webhook does', () => {
    const pg = cluster({ replica: { source: 'b', enabled: true, primary: 'a', self: 'b' } });
    pg.addExternalCluster('a', { connectionParameters: { host: 'a' } });
    pg.addExternalCluster('b', { connectionParameters: { host: 'b' } });
    expectValidationError(() => specOf(pg),
      'test/pg: spec.replica.enabled true is set together with spec.replica.primary; the Cluster webhook forbids it (primary selects the automatic mode, enabled the manual one); remove spec.replica.enabled, or remove spec.replica.primary and spec.replica.self');
  });

  test.each(['.', '..', '/plugins', 'a\\b'])('an external cluster named %s is refused at addExternalCluster (a path component for the operator)', (name) => {
    expectValidationError(() => cluster().addExternalCluster(name, { connectionParameters: { host: 'a' } }),
      `test/pg: externalClusters '${name}' is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it; use a plain name such as 'origin'`);
  });

  test('replica.primary and replica.self must name external clusters', () => {
    const pg = cluster({ replica: { source: 'a', primary: 'x' } });
    pg.addExternalCluster('a', { connectionParameters: { host: 'a' } });
    expectValidationError(() => specOf(pg),
      "test/pg: spec.replica.primary 'x' replica primary 'x' names no entry of spec.externalClusters (defined: 'a'); the Cluster webhook refuses the Cluster; add an externalClusters entry named 'x', or set spec.replica.primary to one of the defined names");
  });

  test('an external cluster with a password Secret and an in-tree object store', () => {
    const pg = cluster();
    pg.addExternalCluster('legacy', {
      connectionParameters: { host: 'legacy', user: 'postgres' },
      password: { name: 'legacy-superuser', key: 'password' },
    });
    pg.addExternalCluster('archive', { barmanObjectStore: { destinationPath: 's3://old/' } });
    expect(specOf(pg).externalClusters).toEqual([
      { name: 'legacy', connectionParameters: { host: 'legacy', user: 'postgres' }, password: { name: 'legacy-superuser', key: 'password' } },
      { name: 'archive', barmanObjectStore: { destinationPath: 's3://old/' } },
    ]);
    expect(pg.externalClusterNames).toEqual(['legacy', 'archive']);
  });

  test('synth surfaces a CnpgIValidationError from App.synth(), synthYaml() and Testing.synth()', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    new PostgresCluster(chart, 'pg', { storage, bootstrap: ClusterBootstrap.fromSpec({ recovery: { source: 'origin' } }) });
    const message = "c/pg: bootstrap.recovery.source 'origin' names no external cluster; add it with addExternalCluster('origin', ...)";
    expectValidationError(() => Testing.synth(chart), message);
    expectValidationError(() => app.synthYaml(), message);
    expectValidationError(() => app.synth(), message);
  });
});

describe('PostgresCluster.addPlugin', () => {
  test('renders the exact JSON keys, in order of addition, at synth', () => {
    const chart = Testing.chart();
    const pg = cluster({}, chart);
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store', serverName: 'pg' } });
    const before = synth(chart);
    pg.addPlugin('cnpg-i-hello-world.cloudnative-pg.io', { enabled: false, parameters: { labels: '{"a":"b"}' } });
    expect(only(before, 'Cluster').spec.plugins).toHaveLength(1);
    const plugins = only(synth(chart), 'Cluster').spec.plugins;
    expect(plugins).toEqual([
      { name: BARMAN, enabled: true, isWALArchiver: true, parameters: { barmanObjectName: 'store', serverName: 'pg' } },
      { name: 'cnpg-i-hello-world.cloudnative-pg.io', enabled: false, isWALArchiver: false, parameters: { labels: '{"a":"b"}' } },
    ]);
    expect(Object.keys(plugins[0]).sort()).toEqual(['enabled', 'isWALArchiver', 'name', 'parameters']);
  });

  test('Plugin.fromPluginName, an IPlugin object and a plain string render the same name', () => {
    const a = cluster();
    a.addPlugin(Plugin.fromPluginName('x.example.com'));
    const b = cluster();
    b.addPlugin('x.example.com');
    const c = cluster();
    c.addPlugin({ pluginName: 'x.example.com' });
    expect(specOf(a).plugins).toEqual(specOf(b).plugins);
    expect(specOf(c).plugins).toEqual(specOf(b).plugins);
    expect(specOf(b).plugins[0].name).toBe('x.example.com');
  });

  test('plugins returns copies', () => {
    const pg = cluster();
    pg.addPlugin(BARMAN, { parameters: { barmanObjectName: 'store' } });
    const got = pg.plugins;
    expect(got).toEqual([{ pluginName: BARMAN, enabled: true, isWalArchiver: false, parameters: { barmanObjectName: 'store' } }]);
    (got[0].parameters as Record<string, string>).barmanObjectName = 'changed';
    got.pop();
    expect(pg.plugins[0].parameters).toEqual({ barmanObjectName: 'store' });
  });

  test('a disabled second WAL archiver is allowed', () => {
    const pg = cluster();
    pg.addPlugin('a.example.com', { isWalArchiver: true });
    pg.addPlugin('b.example.com', { isWalArchiver: true, enabled: false });
    expect(specOf(pg).plugins.map((p: any) => p.isWALArchiver)).toEqual([true, true]);
  });

  test('two enabled WAL archivers', () => {
    const pg = cluster();
    pg.addPlugin('a.example.com', { isWalArchiver: true });
    expectValidationError(() => pg.addPlugin('b.example.com', { isWalArchiver: true }),
      "test/pg: plugins 'a.example.com' and 'b.example.com' both set isWalArchiver; CloudNativePG allows one WAL archiver per Cluster");
  });

  test('a WAL archiver beside spec.backup.barmanObjectStore', () => {
    const spec: ClusterSpecPassthrough = { backup: { barmanObjectStore: { destinationPath: 's3://b/' } } };
    const pg = cluster({ spec });
    pg.addPlugin('b.example.com');
    expectValidationError(() => pg.addPlugin('a.example.com', { isWalArchiver: true }),
      "test/pg: plugins 'a.example.com' sets isWalArchiver while spec.backup.barmanObjectStore is set; "
      + 'CloudNativePG allows one way of archiving WAL per Cluster: remove spec.backup.barmanObjectStore or set isWalArchiver: false');
  });

  test('a plugin added twice', () => {
    const pg = cluster();
    pg.addPlugin(BARMAN);
    expectValidationError(() => pg.addPlugin(Plugin.fromPluginName(BARMAN)),
      `test/pg: plugins '${BARMAN}' is already added; add each plugin once, with all its parameters`);
  });

  test('bad plugin names', () => {
    const pg = cluster();
    expectValidationError(() => pg.addPlugin(''),
      "test/pg: plugin '' must not be empty; use a lower-case DNS subdomain of at most 63 characters, such as 'backup.example.com'");
    expectValidationError(() => pg.addPlugin({ pluginName: 'X.example.com' }),
      "test/pg: plugin.pluginName 'X.example.com' has upper-case letters; use 'x.example.com'");
    expectValidationError(() => pg.addPlugin(js(null)),
      "test/pg: plugin null must be a plugin or a plugin name, not null; pass a plugin construct, Plugin.fromPluginName('backup.example.com') or 'backup.example.com'");
  });

  test('non-string parameters from JavaScript name the key', () => {
    const pg = cluster();
    expectValidationError(() => pg.addPlugin(BARMAN, { parameters: js({ barmanObjectName: 'store', retries: 3 }) }),
      "test/pg: parameters.retries 3 must be a string, not a number; write it as a string, e.g. '3'");
  });

  test('non-boolean switches from JavaScript', () => {
    const pg = cluster();
    expectValidationError(() => pg.addPlugin(BARMAN, { isWalArchiver: js('true') }),
      "test/pg: isWalArchiver 'true' must be a boolean, not a string; pass true or false");
    expectValidationError(() => pg.addPlugin(BARMAN, js('x')),
      "test/pg: options 'x' must be an object, not a string; pass { isWalArchiver: true, parameters: { ... } }");
  });
});

describe('PostgresCluster.addExternalCluster', () => {
  test('needs a plugin, connectionParameters or barmanObjectStore', () => {
    expectValidationError(() => cluster().addExternalCluster('origin', {}),
      "test/pg: externalClusters 'origin' has no connectionParameters, plugin or barmanObjectStore; set one of them so CloudNativePG can reach that cluster");
  });

  test('names are unique and not empty', () => {
    const pg = cluster();
    pg.addExternalCluster('origin', { plugin: BARMAN });
    expectValidationError(() => pg.addExternalCluster('origin', { connectionParameters: { host: 'h' } }),
      "test/pg: externalClusters 'origin' is already added; give each external cluster a unique name");
    expectValidationError(() => pg.addExternalCluster(' ', { plugin: BARMAN }),
      "test/pg: externalClusters ' ' must not be empty; name the external cluster, e.g. 'origin'");
  });

  test('parameters without a plugin', () => {
    expectValidationError(() => cluster().addExternalCluster('origin', { parameters: { serverName: 'pg' }, connectionParameters: { host: 'h' } }),
      'test/pg: externalClusters[origin].parameters {"serverName":"pg"} are plugin parameters but no plugin is set; '
      + 'set plugin, or put libpq settings in connectionParameters');
  });

  test('a password in connectionParameters is refused without echoing it', () => {
    expectValidationError(() => cluster().addExternalCluster('origin', { connectionParameters: { host: 'h', Password: 'hunter2' } }),
      "test/pg: externalClusters[origin].connectionParameters.Password '<redacted>' would put a secret in the manifest; "
      + 'store it in a Secret and reference it with password: { name, key }');
  });

  test('a Secret reference needs a key', () => {
    expectValidationError(() => cluster().addExternalCluster('origin', { connectionParameters: { host: 'h' }, password: js({ name: 's' }) }),
      "test/pg: externalClusters[origin].password.key undefined must be a string, not undefined; name a key of that Secret");
  });

  test('the plugin parameters are strings', () => {
    expectValidationError(() => cluster().addExternalCluster('origin', { plugin: BARMAN, parameters: js({ port: true }) }),
      "test/pg: externalClusters[origin].parameters.port true must be a string, not a boolean; write it as a string, e.g. 'true'");
  });
});

describe('PostgresCluster sources are checked at synth', () => {
  test('a replica source that names no external cluster', () => {
    const pg = cluster({ replica: { source: 'origin' } });
    pg.addExternalCluster('other', { connectionParameters: { host: 'h' } });
    expectValidationError(() => specOf(pg),
      "test/pg: replica.source 'origin' names no external cluster; add it with addExternalCluster('origin', ...); the external clusters are 'other'");
  });

  test('a pg_basebackup source that names no external cluster', () => {
    const pg = cluster({ bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'origin' } }) });
    expectValidationError(() => specOf(pg),
      "test/pg: bootstrap.pgBasebackup.source 'origin' names no external cluster; add it with addExternalCluster('origin', ...)");
  });

  test('an external cluster added after construction satisfies the source', () => {
    const pg = cluster({ bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'origin' } }) });
    pg.addExternalCluster('origin', { connectionParameters: { host: 'origin-rw' } });
    expect(specOf(pg).bootstrap).toEqual({ pg_basebackup: { source: 'origin' } });
  });
});

describe('PostgresCluster props validation', () => {
  test('props must be an object', () => {
    expectValidationError(() => new PostgresCluster(Testing.chart(), 'pg', js(undefined)),
      'test/pg: props undefined must be an object, not undefined; pass { storage: { size: Size.gibibytes(10) } }');
  });

  test('Cluster names', () => {
    const fix = "set metadata.name to lower-case letters, digits and '-', starting with a letter, e.g. 'pg-main'";
    expectValidationError(() => cluster({ metadata: { name: 'Pg' } }),
      `test/pg: metadata.name 'Pg' is not a DNS-1035 label of at most 50 characters, which CloudNativePG requires of Cluster names; ${fix}`);
    expectValidationError(() => cluster({ metadata: { name: 'p'.repeat(51) } }),
      `test/pg: metadata.name '${'p'.repeat(51)}' is not a DNS-1035 label of at most 50 characters, which CloudNativePG requires of Cluster names; ${fix}`);
    // The default name is the construct id: an id that cannot be a Cluster name is refused.
    const idFix = "give the construct an id such as 'orders-db', or pin the name with metadata: { name: 'orders-db' }";
    const rule = "a DNS-1035 label of at most 50 characters (lower-case letters, digits and '-', a letter first)";
    expectValidationError(() => new PostgresCluster(Testing.chart(), '1st', { storage }),
      `test/1st: id '1st' cannot make the Cluster name "1st": by default the name is the construct id, which must be ${rule}; ${idFix}`);
    expectValidationError(() => new PostgresCluster(Testing.chart(), 'Orders', { storage }),
      `test/Orders: id 'Orders' cannot make the Cluster name "Orders": by default the name is the construct id, which must be ${rule}; ${idFix}`);
    expectValidationError(() => new PostgresCluster(Testing.chart(), 'p'.repeat(51), { storage }),
      `test/${'p'.repeat(51)}: id '${'p'.repeat(51)}' cannot make the Cluster name "${'p'.repeat(51)}": by default the name is the construct id, which must be ${rule}; ${idFix}`);
    // A pinned name lifts the rule from the id.
    expect(new PostgresCluster(Testing.chart(), 'Orders', { storage, metadata: { name: 'orders' } }).name).toBe('orders');
  });

  test('instances', () => {
    expectValidationError(() => cluster({ instances: 0 }), 'test/pg: instances 0 is out of range; use a whole number 1 or more');
    expectValidationError(() => cluster({ instances: 1.5 }), 'test/pg: instances 1.5 is out of range; use a whole number 1 or more');
  });

  test('imageName and imageCatalog are mutually exclusive', () => {
    expectValidationError(() => cluster({ imageName: 'img:1', imageCatalog: { name: 'pg', major: 17 } }),
      "test/pg: imageName 'img:1' and imageCatalog are both set; CloudNativePG takes one image source; remove one of them");
  });

  test('image values', () => {
    expectValidationError(() => cluster({ imageName: '' }),
      "test/pg: imageName '' must not be empty; use an image reference such as 'ghcr.io/cloudnative-pg/postgresql:17.5'");
    expectValidationError(() => cluster({ imageCatalog: { name: 'pg', major: 0 } }),
      'test/pg: imageCatalog.major 0 is out of range; use a whole number 1 or more');
    expectValidationError(() => cluster({ imageCatalog: { name: 'pg', major: 17, kind: js('Catalog') } }),
      "test/pg: imageCatalog.kind 'Catalog' is not an ImageCatalogKind; use ImageCatalogKind.IMAGE_CATALOG or ImageCatalogKind.CLUSTER_IMAGE_CATALOG");
  });

  test('storage', () => {
    expectValidationError(() => new PostgresCluster(Testing.chart(), 'pg', js({})),
      'test/pg: storage undefined is required; pass { size: Size.gibibytes(10) }');
    expectValidationError(() => cluster({ storage: js(10) }),
      'test/pg: storage 10 must be an object, not a number; pass { size: Size.gibibytes(10) }');
    expectValidationError(() => cluster({ storage: js({ size: '10Gi' }) }),
      "test/pg: storage.size '10Gi' must be a cdk8s Size, not a string; use Size.gibibytes(10) or another Size factory");
    expectValidationError(() => cluster({ storage: { size: Size.kibibytes(0) } }),
      "test/pg: storage.size '0Ki' is not a positive whole number of kibibytes; use a size of at least Size.kibibytes(1), such as Size.gibibytes(10)");
  });

  test('postgresql parameters are strings', () => {
    expectValidationError(() => cluster({ postgresql: { parameters: js({ max_connections: 200 }) } }),
      "test/pg: postgresql.parameters.max_connections 200 must be a string, not a number; write it as a string, e.g. '200'");
  });

  test('monitoring switches are booleans', () => {
    expectValidationError(() => cluster({ monitoring: { enablePodMonitor: js(1) } }),
      'test/pg: monitoring.enablePodMonitor 1 must be a boolean, not a number; pass true or false');
  });

  test('bootstrap must be a ClusterBootstrap', () => {
    expectValidationError(() => cluster({ bootstrap: js({ initdb: {} }) }),
      'test/pg: bootstrap {"initdb":{}} must be a ClusterBootstrap, not an object; use ClusterBootstrap.initdb(), ClusterBootstrap.recoveryFromPlugin() or ClusterBootstrap.fromSpec()');
  });

  test('resources take cdk8s-plus Cpu and cdk8s Size', () => {
    expectValidationError(() => cluster({ resources: { cpu: { request: js('500m') } } }),
      "test/pg: resources.cpu.request '500m' must be a cdk8s-plus Cpu, not a string; use Cpu.millis(500) or Cpu.units(1)");
  });

  test('replica values', () => {
    expectValidationError(() => cluster({ replica: js({}) }),
      "test/pg: replica.source undefined must be a string, not undefined; name an external cluster added with addExternalCluster()");
    expectValidationError(() => cluster({ replica: { source: 'o', minApplyDelay: js('1h') } }),
      "test/pg: replica.minApplyDelay '1h' must be a cdk8s Duration, not a string; use Duration.hours(1)");
  });

  // TypeScript refuses the top-level keys at compile time; JavaScript callers get these errors.
  test.each<[string, unknown, string]>([
    ['instances', { instances: 3 }, 'test/pg: spec.instances 3 is managed by PostgresCluster; use the instances prop instead'],
    ['storage', { storage: { size: '1Gi' } }, 'test/pg: spec.storage {"size":"1Gi"} is managed by PostgresCluster; use the storage prop instead'],
    ['imageCatalogRef', { imageCatalogRef: { kind: 'ImageCatalog', name: 'a', major: 1 } },
      'test/pg: spec.imageCatalogRef {"kind":"ImageCatalog","name":"a","major":1} is managed by PostgresCluster; use the imageCatalog prop instead'],
    ['postgresql.parameters', { postgresql: { parameters: { a: 'b' } } },
      'test/pg: spec.postgresql.parameters {"a":"b"} is managed by PostgresCluster; use the postgresql.parameters prop instead'],
    ['monitoring.enablePodMonitor', { monitoring: { enablePodMonitor: true } },
      'test/pg: spec.monitoring.enablePodMonitor true is managed by PostgresCluster; use the monitoring.enablePodMonitor prop instead'],
    ['bootstrap', { bootstrap: { initdb: {} } },
      'test/pg: spec.bootstrap {"initdb":{}} is managed by PostgresCluster; use the bootstrap prop (ClusterBootstrap) instead'],
    ['plugins', { plugins: [{ name: 'a.example.com' }] },
      'test/pg: spec.plugins [{"name":"a.example.com"}] is managed by PostgresCluster; use addPlugin() instead'],
    ['externalClusters', { externalClusters: [{ name: 'o' }] },
      'test/pg: spec.externalClusters [{"name":"o"}] is managed by PostgresCluster; use addExternalCluster() instead'],
  ])('passthrough spec.%s is refused', (_key, spec, message) => {
    expectValidationError(() => cluster({ spec: js(spec) }), message);
  });

  test('TypeScript refuses managed keys in spec', () => {
    // @ts-expect-error plugins is not part of ClusterSpecPassthrough
    const spec: ClusterSpecPassthrough = { plugins: [] };
    expectValidationError(() => cluster({ spec }),
      'test/pg: spec.plugins [] is managed by PostgresCluster; use addPlugin() instead');
  });

  test('passthrough spec must be an object', () => {
    expectValidationError(() => cluster({ spec: js([]) }),
      'test/pg: spec [] must be an object, not an array; pass fields of the Cluster spec, e.g. { enableSuperuserAccess: false }');
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
});
