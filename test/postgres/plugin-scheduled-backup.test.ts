import { Size, Testing } from 'cdk8s';
import { Plugin } from '../../src/plugins/plugin';
import { BackupOwnerReference, BackupTarget, PluginScheduledBackup, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';

const BARMAN = 'barman-cloud.cloudnative-pg.io';
const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;

describe('PluginScheduledBackup', () => {
  test('a nightly backup of a Cluster archiving through Barman Cloud', () => {
    const chart = chartIn('databases', 'apps');
    const pg = new PostgresCluster(chart, 'pg', { instances: 3, storage });
    const barman = Plugin.fromPluginName(BARMAN);
    pg.addPlugin(barman, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    const nightly = pg.addScheduledBackup('nightly', { plugin: barman, schedule: '0 0 2 * * *' });
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const s = only(out, 'ScheduledBackup');
    expect(s.metadata).toEqual({ name: nightly.name, namespace: 'databases' });
    expect(nightly.schedule).toBe('0 0 2 * * *');
    expect(nightly.clusterName).toBe(pg.name);
    expect(nightly.pluginName).toBe(BARMAN);
  });

  test('every documented default appears in the output as documented', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN);
    pg.addScheduledBackup('s', { plugin: BARMAN, schedule: '@daily' });
    const spec = only(synth(chart), 'ScheduledBackup').spec;
    // backupOwnerReference none, method plugin and pluginConfiguration.name: written explicitly.
    expect(spec).toEqual({
      cluster: { name: pg.name }, schedule: '@daily', method: 'plugin', backupOwnerReference: 'none',
      pluginConfiguration: { name: BARMAN },
    });
  });

  test('options are written with their wire values', () => {
    const chart = Testing.chart();
    new PluginScheduledBackup(chart, 's', {
      cluster: 'pg-main', plugin: BARMAN, schedule: '0 30 */6 * * mon-fri', parameters: { barmanObjectName: 'offsite' },
      immediate: true, suspend: false, backupOwnerReference: BackupOwnerReference.SELF, target: BackupTarget.PRIMARY, online: true,
      metadata: { name: 'pg-main-6h' },
    });
    const s = only(synth(chart), 'ScheduledBackup');
    expect(s.metadata).toEqual({ name: 'pg-main-6h' });
    expect(s.spec).toEqual({
      cluster: { name: 'pg-main' }, schedule: '0 30 */6 * * mon-fri', method: 'plugin', backupOwnerReference: 'self',
      pluginConfiguration: { name: BARMAN, parameters: { barmanObjectName: 'offsite' } },
      immediate: true, suspend: false, target: 'primary', online: true,
    });
  });

  test.each([
    [BackupOwnerReference.NONE, 'none'],
    [BackupOwnerReference.SELF, 'self'],
    [BackupOwnerReference.CLUSTER, 'cluster'],
  ])('backupOwnerReference %p is written as %p', (owner, wire) => {
    const chart = Testing.chart();
    new PluginScheduledBackup(chart, 's', { cluster: 'pg', plugin: BARMAN, schedule: '@hourly', backupOwnerReference: owner });
    expect(only(synth(chart), 'ScheduledBackup').spec.backupOwnerReference).toBe(wire);
  });

  test('a 5-field cron says so and shows the 6-field form', () => {
    const pg = new PostgresCluster(Testing.chart(), 'pg', { storage });
    pg.addPlugin(BARMAN);
    expectValidationError(() => pg.addScheduledBackup('nightly', { plugin: BARMAN, schedule: '0 2 * * *' }),
      "test/pg/nightly: schedule '0 2 * * *' has 5 fields, which CloudNativePG reads seconds first without a day-of-week: "
      + 'it runs every hour at minute 2, second 0 (second 0, minute 2, hour *, day-of-month *, month *); '
      + "write the 6-field form '0 0 2 * * *' (second minute hour day-of-month month day-of-week)");
  });

  test('a plugin the Cluster does not use', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin('other.example.com');
    pg.addScheduledBackup('nightly', { plugin: BARMAN, schedule: '0 0 2 * * *' });
    expectValidationError(() => synth(chart),
      `test/pg/nightly: plugin '${BARMAN}' is not among the plugins of Cluster 'pg'; call addPlugin('${BARMAN}') on test/pg, or back up through a plugin it uses`);
  });

  test('validation', () => {
    const chart = Testing.chart();
    expectValidationError(() => new PluginScheduledBackup(chart, 'a', { cluster: 'pg', plugin: BARMAN, schedule: js(undefined) }),
      "test/a: schedule undefined must be a string, not undefined; use 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'");
    expectValidationError(() => new PluginScheduledBackup(chart, 'b', { cluster: 'pg', plugin: BARMAN, schedule: '@daily', backupOwnerReference: js('owner') }),
      "test/b: backupOwnerReference 'owner' is not a BackupOwnerReference; use one of BackupOwnerReference.NONE, BackupOwnerReference.SELF, BackupOwnerReference.CLUSTER");
    expectValidationError(() => new PluginScheduledBackup(chart, 'c', { cluster: 'pg', plugin: BARMAN, schedule: '@daily', immediate: js(1) }),
      'test/c: immediate 1 must be a boolean, not a number; pass true or false');
    expectValidationError(() => new PluginScheduledBackup(chart, 'd', { cluster: 'pg', plugin: BARMAN, schedule: '@daily', target: js('any') }),
      "test/d: target 'any' is not a BackupTarget; use one of BackupTarget.PRIMARY, BackupTarget.PREFER_STANDBY");
  });
});
