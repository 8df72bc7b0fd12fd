import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart, Duration, Size, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  CnpgOperator,
  HelloWorldPlugin,
  IPlugin,
  IPluginCluster,
  ObjectStore,
  ObjectStoreCredentials,
  Plugin,
  PluginBackup,
  PluginClusterEntry,
  PluginManifest,
  PluginScheduledBackup,
  PostgresCluster,
  ScaleToZeroPlugin,
  SidecarPlugin,
} from '../../src';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';

const storage = { size: Size.gibibytes(1) };
const OPERATOR_FIXTURE = path.join(__dirname, '..', 'fixtures', 'operator', 'operator.yaml');
const S2Z = 'cnpg-i-scale-to-zero.xata.io';
const BARMAN_NAME = 'barman-cloud.cloudnative-pg.io';

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-cnpg-i-plugin-binding-'));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** An app with a system chart and a `db` chart holding Cluster `pg`. */
function app(): { app: App; system: Chart; db: Chart; pg: PostgresCluster } {
  const a = Testing.app();
  const system = new Chart(a, 'system', { namespace: 'cnpg-system' });
  const db = new Chart(a, 'db', { namespace: 'db' });
  const pg = new PostgresCluster(db, 'pg', { storage });
  return { app: a, system, db, pg };
}

function synthAll(a: App): unknown[] {
  return a.charts.flatMap((c) => Testing.synth(c));
}

function clusterOf(objects: unknown[]): any {
  return (objects as any[]).find((o) => o.kind === 'Cluster');
}

/** A release manifest of a plugin named `pluginName`: its discoverable Service only. */
function manifestOf(pluginName: string): string {
  const file = path.join(work, `${pluginName}.yaml`);
  fs.writeFileSync(
    file,
    YAML.stringify({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'plugin',
        namespace: 'cnpg-system',
        labels: { app: 'plugin', 'cnpg.io/pluginName': pluginName },
        annotations: { 'cnpg.io/pluginPort': '9090', 'cnpg.io/pluginClientSecret': 'plugin-client-tls', 'cnpg.io/pluginServerSecret': 'plugin-server-tls' },
      },
      spec: { selector: { app: 'plugin' }, ports: [{ port: 9090, targetPort: 9090, protocol: 'TCP' }] },
    }),
  );
  return file;
}

describe('addPlugin lets the plugin write what enabling it takes', () => {
  test('ScaleToZeroPlugin: addPlugin gives the output of enable (annotations, Role, RoleBinding)', () => {
    const viaAdd = app();
    viaAdd.pg.addPlugin(new ScaleToZeroPlugin(viaAdd.system, 'scale-to-zero'));
    const viaEnable = app();
    new ScaleToZeroPlugin(viaEnable.system, 'scale-to-zero').enable(viaEnable.pg);
    const added = synthAll(viaAdd.app);
    expect(added).toEqual(synthAll(viaEnable.app));
    expect(clusterOf(added).metadata.annotations).toEqual({
      'xata.io/scale-to-zero-enabled': 'true',
      'xata.io/scale-to-zero-inactivity-minutes': '30',
    });
    expect((added as any[]).filter((o) => o.metadata.namespace === 'db').map((o) => o.kind)).toEqual(['Cluster', 'Role', 'RoleBinding']);
  });

  test('ScaleToZeroPlugin: enable keeps its inactivity; a disabled entry gets no annotations and no Role', () => {
    const { app: a, system, pg } = app();
    const s2z = new ScaleToZeroPlugin(system, 'scale-to-zero');
    s2z.enable(pg, { inactivity: Duration.minutes(10) });
    expect(clusterOf(synthAll(a)).metadata.annotations['xata.io/scale-to-zero-inactivity-minutes']).toBe('10');

    const off = app();
    off.pg.addPlugin(new ScaleToZeroPlugin(off.system, 'scale-to-zero'), { enabled: false });
    const objects = synthAll(off.app) as any[];
    expect(clusterOf(objects).metadata.annotations).toBeUndefined();
    expect(clusterOf(objects).spec.plugins).toEqual([{ name: S2Z, enabled: false, isWALArchiver: false }]);
    expect(objects.filter((o) => o.kind === 'Role' && o.metadata.namespace === 'db')).toEqual([]);
  });

  test('ScaleToZeroPlugin: adding it twice (enable after addPlugin) is refused before anything is written', () => {
    const { system, pg } = app();
    const s2z = new ScaleToZeroPlugin(system, 'scale-to-zero');
    pg.addPlugin(s2z);
    expectValidationError(() => s2z.enable(pg), `db/pg: plugins[${S2Z}] '${S2Z}' is added twice; add each plugin once, with all its parameters`);
  });

  test('ScaleToZeroPlugin.bindToCluster refuses a Cluster that is not a PostgresCluster', () => {
    const { system, db } = app();
    const s2z = new ScaleToZeroPlugin(system, 'scale-to-zero');
    const other = { name: 'x', apiObject: undefined, node: db.node } as unknown as IPluginCluster;
    expectValidationError(
      () => s2z.bindToCluster(other, { enabled: true, isWalArchiver: false }),
      'system/scale-to-zero: cluster an object that cannot be written as JSON (it contains itself or a BigInt) must be a PostgresCluster, not an object; pass the PostgresCluster construct; a Cluster managed elsewhere needs the plugin entry and annotations written there',
    );
  });

  const missingAnnotation = (how: string) =>
    `[db/pg] plugins[${S2Z}] '${S2Z}' is enabled, but the annotation xata.io/scale-to-zero-enabled is missing: the plugin injects its sidecar, which hibernates the Cluster only when the annotation is exactly "true", so this Cluster is never hibernated; deploy the plugin with ScaleToZeroPlugin and add it with cluster.addPlugin(scaleToZero) or scaleToZero.enable(cluster, { inactivity }), which write the annotations and the sidecar's Role; or set the annotation xata.io/scale-to-zero-enabled: "true", or remove the plugin from spec.plugins in the Cluster's metadata.annotations${how}`;

  test.each<[string, (system: Chart) => IPlugin]>([
    ['Plugin.fromPluginName', () => Plugin.fromPluginName(S2Z)],
    ['a PluginManifest', (system) => new PluginManifest(system, 'manifest', { path: manifestOf(S2Z) })],
    [
      'a SidecarPlugin',
      (system) =>
        new SidecarPlugin(system, 'sidecar', {
          operator: CnpgOperator.fromManifest(system, 'operator', { path: OPERATOR_FIXTURE }),
          pluginName: S2Z,
          image: 'ghcr.io/xataio/cnpg-i-scale-to-zero:v0.1.9',
          args: ['plugin'],
        }),
    ],
  ])('Scale-to-Zero through %s without the annotation its sidecar reads is refused at synth', (_how, make) => {
    const { db, system, pg } = app();
    pg.addPlugin(make(system));
    expect(synthErrors(db)).toEqual([missingAnnotation('')]);
  });

  test('Scale-to-Zero through a plugin reference passes with the annotation, "true" or another value (a choice)', () => {
    for (const value of ['true', 'false']) {
      const a = Testing.app();
      const db = new Chart(a, 'db', { namespace: 'db' });
      const pg = new PostgresCluster(db, 'pg', { storage, metadata: { annotations: { 'xata.io/scale-to-zero-enabled': value } } });
      pg.addPlugin(Plugin.fromPluginName(S2Z));
      expect(synthErrors(db)).toEqual([]);
    }
    // disabled: no sidecar, nothing to read the annotation
    const { db, pg } = app();
    pg.addPlugin(Plugin.fromPluginName(S2Z), { enabled: false });
    expect(synthErrors(db)).toEqual([]);
  });

  test('BarmanCloudPlugin: an entry that names no ObjectStore is refused at synth with the option to pass', () => {
    const { db, system, pg } = app();
    pg.addPlugin(new BarmanCloudPlugin(system, 'barman'), { isWalArchiver: true });
    expect(synthErrors(db)).toEqual([
      `[db/pg] plugins[${BARMAN_NAME}].parameters.barmanObjectName is missing; Barman Cloud's configuration check fails, its lifecycle hook injects no sidecar, and WAL archiving through the plugin fails; pass the ObjectStore: cluster.addPlugin(barman, { objectStore: store, isWalArchiver: true }) (or parameters: { barmanObjectName: '<ObjectStore name>' }); a Cluster that only recovers names it in its recovery source (ExternalClusterSource.fromPlugin(barman, { objectStore }))`,
    ]);
  });

  test('BarmanCloudPlugin: an ObjectStore, a barmanObjectName parameter or a disabled entry pass, and write the entry only', () => {
    const withStore = app();
    const barman = new BarmanCloudPlugin(withStore.system, 'barman');
    const store = new ObjectStore(withStore.db, 'store', {
      destinationPath: 's3://backups/db',
      credentials: ObjectStoreCredentials.s3AccessKeys({
        accessKeyId: { name: 'backup-credentials', key: 'ACCESS_KEY_ID' },
        secretAccessKey: { name: 'backup-credentials', key: 'ACCESS_SECRET_KEY' },
      }),
    });
    withStore.pg.addPlugin(barman, { isWalArchiver: true, objectStore: store });
    const cluster = clusterOf(Testing.synth(withStore.db));
    expect(cluster.spec.plugins).toEqual([{ name: BARMAN_NAME, enabled: true, isWALArchiver: true, parameters: { barmanObjectName: store.name } }]);
    expect(cluster.metadata.annotations).toBeUndefined();

    const byParameter = app();
    byParameter.pg.addPlugin(new BarmanCloudPlugin(byParameter.system, 'barman'), { parameters: { barmanObjectName: 'elsewhere' } });
    expect(synthErrors(byParameter.db)).toEqual([]);

    const disabled = app();
    disabled.pg.addPlugin(new BarmanCloudPlugin(disabled.system, 'barman'), { enabled: false });
    expect(synthErrors(disabled.db)).toEqual([]);
  });

  test('HelloWorldPlugin and a PluginManifest of another plugin need the entry only', () => {
    const { app: a, system, pg } = app();
    pg.addPlugin(new HelloWorldPlugin(system, 'hello'), { parameters: HelloWorldPlugin.parameters({ labels: { team: 'db' } }) });
    pg.addPlugin(new PluginManifest(system, 'manifest', { path: manifestOf('backup.example.com') }));
    const objects = synthAll(a) as any[];
    expect(clusterOf(objects).spec.plugins).toEqual([
      { name: 'cnpg-i-hello-world.cloudnative-pg.io', enabled: true, isWALArchiver: false, parameters: { labels: '{"team":"db"}' } },
      { name: 'backup.example.com', enabled: true, isWALArchiver: false },
    ]);
    expect(clusterOf(objects).metadata.annotations).toBeUndefined();
    expect(objects.filter((o) => o.metadata.namespace === 'db').map((o) => o.kind)).toEqual(['Cluster']);
  });

  test('a plugin of the user binds itself: bindToCluster gets the Cluster and a copy of the entry; its error refuses the entry', () => {
    const { db, pg } = app();
    const seen: PluginClusterEntry[] = [];
    const own: IPlugin = {
      pluginName: 'audit.example.com',
      bindToCluster(cluster: IPluginCluster, entry: PluginClusterEntry) {
        seen.push(entry);
        cluster.apiObject.metadata.addAnnotation('audit.example.com/enabled', cluster.name);
      },
    };
    pg.addPlugin(own, { parameters: { level: 'full' } });
    expect(seen).toEqual([{ enabled: true, isWalArchiver: false, parameters: { level: 'full' } }]);
    const cluster = clusterOf(Testing.synth(db));
    expect(cluster.metadata.annotations).toEqual({ 'audit.example.com/enabled': 'pg' });

    const refusing: IPlugin = {
      pluginName: 'strict.example.com',
      bindToCluster() {
        throw new Error('use strict.enable(cluster)');
      },
    };
    expect(() => pg.addPlugin(refusing)).toThrow('use strict.enable(cluster)');
    expect(pg.plugins.map((p) => p.pluginName)).toEqual(['audit.example.com']);
  });
});

describe('references by name are checked against the Clusters of the app', () => {
  function orders(): { app: App; db: Chart } {
    const a = Testing.app();
    const db = new Chart(a, 'db', { namespace: 'db' });
    new PostgresCluster(db, 'orders', { storage }).addPlugin(Plugin.fromPluginName(BARMAN_NAME), { parameters: { barmanObjectName: 'store' } });
    return { app: a, db };
  }
  const BARMAN = Plugin.fromPluginName(BARMAN_NAME);
  const schedule = BackupSchedule.expression('0 0 0 * * *');
  const refusal = (id: string) =>
    `[db/${id}] cluster 'ordres' names no PostgresCluster of this app in namespace 'db', where the app has Cluster 'orders' (did you mean 'orders'?): the operator looks the Cluster up by name in this namespace and waits until one exists; pass the PostgresCluster construct of 'orders', or PostgresCluster.fromClusterName('ordres', { external: true }) for a Cluster managed outside this program`;

  test('a PluginScheduledBackup of a misspelt Cluster is refused with the nearest name', () => {
    const { db } = orders();
    new PluginScheduledBackup(db, 'nightly', { cluster: PostgresCluster.fromClusterName('ordres'), plugin: BARMAN, schedule });
    expect(synthErrors(db)).toEqual([refusal('nightly')]);
  });

  test('a PluginBackup too, also when the Cluster is declared after the reference', () => {
    const a = Testing.app();
    const db = new Chart(a, 'db', { namespace: 'db' });
    new PluginBackup(db, 'once', { cluster: PostgresCluster.fromClusterName('ordres', 'db'), plugin: BARMAN });
    new PostgresCluster(db, 'orders', { storage });
    expect(synthErrors(db)).toEqual([refusal('once')]);
  });

  test('near misses pass: a name far from every Cluster, the exact name, a Cluster in another namespace, a reference declared external', () => {
    const { app: a, db } = orders();
    new PluginScheduledBackup(db, 'legacy', { cluster: PostgresCluster.fromClusterName('billing-legacy'), plugin: BARMAN, schedule });
    new PluginScheduledBackup(db, 'exact', { cluster: PostgresCluster.fromClusterName('orders'), plugin: BARMAN, schedule });
    new PluginScheduledBackup(db, 'external', { cluster: PostgresCluster.fromClusterName('ordres', { external: true }), plugin: BARMAN, schedule });
    new PluginScheduledBackup(db, 'external-ns', {
      cluster: PostgresCluster.fromClusterName('ordres', { namespace: 'db', external: true }),
      plugin: BARMAN,
      schedule,
    });
    const other = new Chart(a, 'other', { namespace: 'other' });
    new PluginScheduledBackup(other, 'nightly', { cluster: PostgresCluster.fromClusterName('ordres'), plugin: BARMAN, schedule });
    expect(synthErrors(db)).toEqual([]);
    expect(synthErrors(other)).toEqual([]);
    const written = Testing.synth(db).filter((o: any) => o.kind === 'ScheduledBackup');
    expect(written.map((o: any) => [o.metadata.name, o.metadata.namespace, o.spec.cluster.name])).toEqual([
      ['billing-legacy-legacy', 'db', 'billing-legacy'],
      ['orders-exact', 'db', 'orders'],
      ['ordres-external', 'db', 'ordres'],
      ['ordres-external-ns', 'db', 'ordres'],
    ]);
  });

  test('fromClusterName options: the string form is the namespace; unknown keys and a wrong external are refused', () => {
    expect(PostgresCluster.fromClusterName('orders', 'db')).toEqual({ name: 'orders', namespace: 'db' });
    expect(PostgresCluster.fromClusterName('orders', { namespace: 'db' })).toEqual({ name: 'orders', namespace: 'db' });
    expect(PostgresCluster.fromClusterName('orders', { external: true })).toEqual({ name: 'orders' });
    expectValidationError(
      () => PostgresCluster.fromClusterName('orders', { externel: true } as any),
      "PostgresCluster.fromClusterName: options.externel true is not a declared key of options; did you mean 'external'?",
    );
    expectValidationError(
      () => PostgresCluster.fromClusterName('orders', { external: 'yes' } as any),
      "PostgresCluster.fromClusterName: external 'yes' must be a boolean, not a string; pass true or false",
    );
  });
});
