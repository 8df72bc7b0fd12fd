import { App, Chart, Size, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { Plugin } from '../../src/plugins/plugin';
import { BackupTarget, PluginBackup, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const BARMAN_NAME = 'barman-cloud.cloudnative-pg.io';
const BARMAN = Plugin.fromPluginName(BARMAN_NAME);
const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;

function clusterWithBarman(chart: Chart = Testing.chart()): PostgresCluster {
  const pg = new PostgresCluster(chart, 'pg', { storage });
  pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
  return pg;
}

describe('PluginBackup', () => {
  test("an on-demand backup through the Cluster's WAL archiver", () => {
    const chart = chartIn('databases', 'apps');
    const pg = clusterWithBarman(chart);
    const backup = pg.addBackup('before-upgrade', { plugin: BARMAN });
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const b = only(out, 'Backup');
    expect(b.metadata).toEqual({ name: backup.name, namespace: 'databases' });
    expect(b.spec).toEqual({ cluster: { name: pg.name }, method: 'plugin', pluginConfiguration: { name: BARMAN_NAME } });
    expect(backup.clusterName).toBe(pg.name);
    expect(backup.pluginName).toBe(BARMAN_NAME);
    expect(backup.node.path).toBe('apps/pg/before-upgrade');
  });

  test('a name whose one part is longer than a DNS label: accepted, as the API server accepts it', () => {
    const chart = Testing.chart();
    const name = `pg-${'b'.repeat(79)}`;
    clusterWithBarman(chart).addBackup('b', { plugin: BARMAN, metadata: { name } });
    expect(name).toHaveLength(82);
    expect(only(synth(chart), 'Backup').metadata.name).toBe(name);
  });

  test('every documented default appears in the output as documented', () => {
    const chart = Testing.chart();
    clusterWithBarman(chart).addBackup('b', { plugin: BARMAN });
    const spec = only(synth(chart), 'Backup').spec;
    // method is always plugin; parameters, target and online are not written.
    expect(spec.method).toBe('plugin');
    expect(spec.pluginConfiguration).toEqual({ name: BARMAN_NAME });
    expect(spec).not.toHaveProperty('target');
    expect(spec).not.toHaveProperty('online');
  });

  test('options are written with their wire values', () => {
    const chart = Testing.chart();
    clusterWithBarman(chart).addBackup('b', {
      plugin: BARMAN,
      parameters: { barmanObjectName: 'other-store' },
      target: BackupTarget.PREFER_STANDBY,
      online: true,
      metadata: { name: 'pg-before-upgrade', labels: { reason: 'upgrade' } },
    });
    const b = only(synth(chart), 'Backup');
    expect(b.metadata).toEqual({ name: 'pg-before-upgrade', labels: { reason: 'upgrade' } });
    expect(b.spec).toEqual({
      cluster: { name: 'pg' },
      method: 'plugin',
      online: true,
      target: 'prefer-standby',
      pluginConfiguration: { name: BARMAN_NAME, parameters: { barmanObjectName: 'other-store' } },
    });
  });

  test('a plugin added after the backup is accepted (checked at synth)', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addBackup('b', { plugin: BARMAN });
    pg.addPlugin(BARMAN);
    expect(only(synth(chart), 'Backup').spec.pluginConfiguration.name).toBe(BARMAN_NAME);
  });

  test('a plugin the Cluster does not use', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addBackup('b', { plugin: BARMAN });
    expect(synthErrors(chart)).toEqual([
      `[test/pg/b] plugin '${BARMAN_NAME}' is not among the plugins of Cluster 'pg'; enable it with addPlugin('${BARMAN_NAME}') on test/pg, or back up through a plugin the Cluster enables`,
    ]);
  });

  // cloudnative-pg v1.30.0 pkg/postgres/configuration.go CreatePostgresqlConfiguration: archive_mode
  // off under cnpg.io/skipWalArchiving: enabled; plugin-barman-cloud v0.14.0 internal/cnpgi/restore/
  // restore.go ensureArchiveContainsLastCheckpointRedoWAL refuses such a backup (CNPGI120).
  test('a backup of a Cluster that archives no WAL, added before or after the annotation is read', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage, metadata: { annotations: { 'cnpg.io/skipWalArchiving': 'enabled' } } });
    pg.addBackup('b', { plugin: BARMAN });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    expect(synthErrors(chart)).toEqual([
      "[test/pg/b] cluster 'pg' names Cluster 'pg', which has cnpg.io/skipWalArchiving: enabled: archive_mode is off and no WAL is archived; the backup completes, but a restore needs the WAL from the backup's start to its end and Barman Cloud refuses a backup whose first WAL is not in the archive, so it cannot be restored; remove the cnpg.io/skipWalArchiving annotation from Cluster 'pg' (test/pg, metadata.annotations)",
    ]);
  });

  test('near misses: another annotation value, Barman Cloud archiving undeclared (a warning of the doctor), a Cluster managed elsewhere', () => {
    const other = Testing.chart();
    const pg = new PostgresCluster(other, 'pg', { storage, metadata: { annotations: { 'cnpg.io/skipWalArchiving': 'disabled' } } });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    pg.addBackup('b', { plugin: BARMAN });
    expect(synthErrors(other)).toEqual([]);
    const undeclared = Testing.chart();
    const pg2 = new PostgresCluster(undeclared, 'pg', { storage });
    pg2.addPlugin(BARMAN, { parameters: { barmanObjectName: 'store' } });
    pg2.addBackup('b', { plugin: BARMAN });
    expect(synthErrors(undeclared)).toEqual([]);
    const elsewhere = Testing.chart();
    new PluginBackup(elsewhere, 'b', { cluster: PostgresCluster.fromClusterName('pg'), plugin: BARMAN });
    expect(synthErrors(elsewhere)).toEqual([]);
  });

  test('a plugin the Cluster disables, also through App.synth()', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN, { enabled: false });
    pg.addBackup('b', { plugin: BARMAN });
    expect(() => app.synth()).toThrow(
      `[c/pg/b] plugin '${BARMAN_NAME}' is disabled (enabled: false) on Cluster 'pg'; enable it with addPlugin('${BARMAN_NAME}') on c/pg, or back up through a plugin the Cluster enables`,
    );
  });

  test('standalone, for a Cluster in another chart of the same namespace', () => {
    const app = new App({ outdir: Testing.app().outdir });
    const db = new Chart(app, 'db', { namespace: 'databases' });
    const ops = new Chart(app, 'ops', { namespace: 'databases' });
    const pg = clusterWithBarman(db);
    const backup = new PluginBackup(ops, 'adhoc', { cluster: pg, plugin: BARMAN });
    expect(only(synth(ops), 'Backup').metadata.namespace).toBe('databases');
    expect(backup.name).toBe('pg-adhoc');
  });

  test('standalone, for a Cluster in a chart without namespace: the Backup follows the Cluster', () => {
    const app = Testing.app();
    const db = new Chart(app, 'db');
    const ops = new Chart(app, 'ops');
    new PluginBackup(ops, 'adhoc', { cluster: clusterWithBarman(db), plugin: BARMAN });
    expect(only(synth(ops), 'Backup').metadata).not.toHaveProperty('namespace');
  });

  test('standalone, for a Cluster in another namespace', () => {
    const app = Testing.app();
    const pg = clusterWithBarman(new Chart(app, 'db', { namespace: 'databases' }));
    const ops = new Chart(app, 'ops', { namespace: 'ops' });
    expectValidationError(
      () => new PluginBackup(ops, 'adhoc', { cluster: pg, plugin: BARMAN, metadata: { namespace: 'ops' } }),
      "ops/adhoc: metadata.namespace 'ops' differs from the namespace of Cluster 'pg' ('databases'); " +
        'CloudNativePG only backs up a Cluster of the same namespace: use cluster.addBackup() / addScheduledBackup(), or a chart with the same namespace',
    );
    // The Cluster's namespace wins over the chart's when metadata.namespace is not set.
    new PluginBackup(ops, 'follows', { cluster: pg, plugin: BARMAN });
    expect(only(synth(ops), 'Backup').metadata.namespace).toBe('databases');
  });

  test('standalone, for a Cluster without namespace from a chart with one', () => {
    const app = Testing.app();
    const pg = clusterWithBarman(new Chart(app, 'db'));
    expectValidationError(
      () => new PluginBackup(new Chart(app, 'ops', { namespace: 'ops' }), 'adhoc', { cluster: pg, plugin: BARMAN }),
      "ops/adhoc: metadata.namespace 'ops' differs from the namespace of Cluster 'pg' (none: its chart sets no namespace); " +
        'CloudNativePG only backs up a Cluster of the same namespace: use cluster.addBackup() / addScheduledBackup(), or a chart with the same namespace',
    );
  });

  test('the Backup follows its Cluster in the output, in one chart and across charts', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'c');
    const backups = new Construct(chart, 'backups');
    const pg = clusterWithBarman(chart);
    new PluginBackup(backups, 'b', { cluster: pg, plugin: BARMAN });
    expect(synth(chart).map((o) => o.kind)).toEqual(['Cluster', 'Backup']);

    // Another app: the same Cluster id in the same (default) namespace of one app is refused.
    const other = Testing.app();
    const ops = new Chart(other, 'a-ops');
    const db = new Chart(other, 'b-db');
    new PluginBackup(ops, 'b', { cluster: clusterWithBarman(db), plugin: BARMAN });
    expect(
      other
        .synthYaml()
        .split('---')
        .filter((d) => d.includes('kind:'))
        .map((d) => /kind: (\w+)/.exec(d)![1]),
    ).toEqual(['Cluster', 'Backup']);
  });

  test('standalone, for a Cluster managed elsewhere', () => {
    const chart = chartIn('databases', 'ops');
    new PluginBackup(chart, 'adhoc', { cluster: PostgresCluster.fromClusterName('pg-main'), plugin: BARMAN });
    expect(only(synth(chart), 'Backup').spec.cluster).toEqual({ name: 'pg-main' });
    expect(only(synth(chart), 'Backup').metadata).toEqual({ name: 'pg-main-adhoc', namespace: 'databases' });
    // With a namespace, the Backup goes there, and another one is refused.
    new PluginBackup(chart, 'there', { cluster: PostgresCluster.fromClusterName('pg-main', 'databases'), plugin: BARMAN });
    expectValidationError(
      () =>
        new PluginBackup(chart, 'elsewhere', { cluster: PostgresCluster.fromClusterName('pg-main', 'other'), plugin: BARMAN, metadata: { namespace: 'ops' } }),
      "ops/elsewhere: metadata.namespace 'ops' differs from the namespace of Cluster 'pg-main' ('other'); " +
        'CloudNativePG only backs up a Cluster of the same namespace: use cluster.addBackup() / addScheduledBackup(), or a chart with the same namespace',
    );
  });

  test('a backup id that cannot make a name is refused, about the id', () => {
    const pg = clusterWithBarman();
    expectValidationError(
      () => pg.addBackup('Before_Upgrade', { plugin: BARMAN }),
      'test/pg/Before_Upgrade: id \'Before_Upgrade\' cannot make the Backup name "pg-Before_Upgrade": by default the name is made from the construct id as shown, and must be ' +
        "an RFC 1123 subdomain (lower-case letters, digits, '-' and '.', at most 253 characters); give the construct an id such as 'orders-db', or pin the name with metadata: { name: 'orders-db' }",
    );
  });

  test('validation', () => {
    const chart = Testing.chart();
    const pg = PostgresCluster.fromClusterName('pg');
    expectValidationError(
      () => new PluginBackup(chart, 'b', { cluster: js('pg'), plugin: BARMAN }),
      "test/b: cluster 'pg' must be an IPostgresCluster, not a string; pass the PostgresCluster construct, or PostgresCluster.fromClusterName('pg') for a Cluster managed elsewhere",
    );
    expectValidationError(
      () => new PluginBackup(chart, 'd', { cluster: pg, plugin: js(undefined) }),
      "test/d: plugin is missing: it must be an IPlugin; pass a plugin construct, or Plugin.fromPluginName('backup.example.com') for a plugin installed elsewhere",
    );
    expectValidationError(
      () => new PluginBackup(chart, 'e', { cluster: pg, plugin: BARMAN, parameters: js({ n: 1 }) }),
      "test/e: parameters.n 1 must be a string, not a number; write it as a string, e.g. '1'",
    );
    expectValidationError(
      () => new PluginBackup(chart, 'g', js({ cluster: pg, plugin: BARMAN, onLine: true })),
      "test/g: props.onLine true is not a declared key of props; did you mean 'online'?",
    );
    expectValidationError(
      () => new PluginBackup(chart, 'h', { cluster: pg, plugin: BARMAN, metadata: js({ labels: {}, annotation: {} }) }),
      "test/h: metadata.annotation {} is not a declared key of metadata; did you mean 'annotations'?",
    );
    // Enum and boolean values are judged by the CRD schema at synth, every problem at once.
    const other = Testing.chart();
    new PluginBackup(other, 'c', { cluster: pg, plugin: BARMAN, target: js('standby'), online: js('yes') });
    expect(synthErrors(other)).toEqual([
      "[test/c] Backup 'pg-c' spec.online: must be a boolean; value 'yes'; allowed a boolean",
      "[test/c] Backup 'pg-c' spec.target: is not one of the values the CRD allows; value 'standby'; allowed one of 'primary', 'prefer-standby'",
    ]);
  });
});
