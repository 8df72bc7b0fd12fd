import { Size, Testing } from 'cdk8s';
import { Plugin } from '../../src/plugins/plugin';
import { BackupOwnerReference, BackupSchedule, BackupTarget, PluginScheduledBackup, PostgresCluster } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const BARMAN_NAME = 'barman-cloud.cloudnative-pg.io';
const BARMAN = Plugin.fromPluginName(BARMAN_NAME);
const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;
const elsewhere = PostgresCluster.fromClusterName('pg');

describe('PluginScheduledBackup', () => {
  // CNPGI120: cloudnative-pg v1.30.0 pkg/postgres/configuration.go CreatePostgresqlConfiguration,
  // plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go ensureArchiveContainsLastCheckpointRedoWAL.
  test('daily backups of a Cluster that archives no WAL are refused; with archiving on they pass', () => {
    const make = (value: string) => {
      const chart = Testing.chart();
      const pg = new PostgresCluster(chart, 'pg', { storage, metadata: { annotations: { 'cnpg.io/skipWalArchiving': value } } });
      pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
      pg.addScheduledBackup('daily', { plugin: BARMAN, schedule: BackupSchedule.daily(2) });
      return synthErrors(chart);
    };
    expect(make('enabled')).toEqual([
      "[test/pg/daily] cluster 'pg' names Cluster 'pg', which has cnpg.io/skipWalArchiving: enabled: archive_mode is off and no WAL is archived; the backup completes, but a restore needs the WAL from the backup's start to its end and Barman Cloud refuses a backup whose first WAL is not in the archive, so it cannot be restored; remove the cnpg.io/skipWalArchiving annotation from Cluster 'pg' (test/pg, metadata.annotations)",
    ]);
    expect(make('Enabled')).toEqual([]);
  });

  test('a nightly backup of a Cluster archiving through Barman Cloud', () => {
    const chart = chartIn('databases', 'apps');
    const pg = new PostgresCluster(chart, 'pg', { instances: 3, storage });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    const nightly = pg.addScheduledBackup('nightly', { plugin: BARMAN, schedule: BackupSchedule.daily(2) });
    const out = synth(chart);
    expect(out).toMatchSnapshot();
    const s = only(out, 'ScheduledBackup');
    expect(s.metadata).toEqual({ name: nightly.name, namespace: 'databases' });
    expect(nightly.schedule).toBe('0 0 2 * * *');
    expect(nightly.clusterName).toBe(pg.name);
    expect(nightly.pluginName).toBe(BARMAN_NAME);
  });

  test('every documented default appears in the output as documented', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(BARMAN);
    pg.addScheduledBackup('s', { plugin: BARMAN, schedule: BackupSchedule.expression('@daily') });
    const spec = only(synth(chart), 'ScheduledBackup').spec;
    // backupOwnerReference none, method plugin and pluginConfiguration.name: written explicitly.
    expect(spec).toEqual({
      cluster: { name: pg.name },
      schedule: '@daily',
      method: 'plugin',
      backupOwnerReference: 'none',
      pluginConfiguration: { name: BARMAN_NAME },
    });
  });

  test('options are written with their wire values', () => {
    const chart = Testing.chart();
    new PluginScheduledBackup(chart, 's', {
      cluster: PostgresCluster.fromClusterName('pg-main'),
      plugin: BARMAN,
      schedule: BackupSchedule.cron({ minute: '30', hour: '*/6', weekDay: 'mon-fri' }),
      parameters: { barmanObjectName: 'offsite' },
      immediate: true,
      suspend: false,
      backupOwnerReference: BackupOwnerReference.SELF,
      target: BackupTarget.PRIMARY,
      online: true,
      metadata: { name: 'pg-main-6h' },
    });
    const s = only(synth(chart), 'ScheduledBackup');
    expect(s.metadata).toEqual({ name: 'pg-main-6h' });
    expect(s.spec).toEqual({
      cluster: { name: 'pg-main' },
      schedule: '0 30 */6 * * mon-fri',
      method: 'plugin',
      backupOwnerReference: 'self',
      pluginConfiguration: { name: BARMAN_NAME, parameters: { barmanObjectName: 'offsite' } },
      immediate: true,
      suspend: false,
      target: 'primary',
      online: true,
    });
  });

  test.each([
    [BackupOwnerReference.NONE, 'none'],
    [BackupOwnerReference.SELF, 'self'],
    [BackupOwnerReference.CLUSTER, 'cluster'],
  ])('backupOwnerReference %p is written as %p', (owner, wire) => {
    const chart = Testing.chart();
    new PluginScheduledBackup(chart, 's', { cluster: elsewhere, plugin: BARMAN, schedule: BackupSchedule.expression('@hourly'), backupOwnerReference: owner });
    expect(only(synth(chart), 'ScheduledBackup').spec.backupOwnerReference).toBe(wire);
  });

  test('a plugin the Cluster does not use', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(Plugin.fromPluginName('other.example.com'));
    pg.addScheduledBackup('nightly', { plugin: BARMAN, schedule: BackupSchedule.daily(2) });
    expect(synthErrors(chart)).toEqual([
      `[test/pg/nightly] plugin '${BARMAN_NAME}' is not among the plugins of Cluster 'pg'; enable it with addPlugin('${BARMAN_NAME}') on test/pg, or back up through a plugin the Cluster enables`,
    ]);
  });

  describe('a name longer than a label value: every Backup CloudNativePG creates would carry it as a label (CNPGI116)', () => {
    const long = `nightly-${'x'.repeat(56)}`;
    const problem = `is 64 characters long, but CloudNativePG labels every Backup it creates with it (cnpg.io/scheduled-backup), and a label value holds at most 63 characters: the API server refuses each Backup and no scheduled backup is taken`;

    test('a name given in metadata', () => {
      expect(long).toHaveLength(64);
      expectValidationError(
        () =>
          new PluginScheduledBackup(Testing.chart(), 'n', { cluster: elsewhere, plugin: BARMAN, schedule: BackupSchedule.daily(2), metadata: { name: long } }),
        `test/n: metadata.name '${long}' ${problem}; use a name of at most 63 characters, e.g. '${long.slice(0, 63)}'`,
      );
    });

    test('the default name, from the Cluster name and the construct id', () => {
      const id = `n-${'y'.repeat(59)}`;
      expectValidationError(
        () => new PluginScheduledBackup(Testing.chart(), id, { cluster: elsewhere, plugin: BARMAN, schedule: BackupSchedule.daily(2) }),
        `test/${id}: id 'pg-${id}' ${problem}; give the construct a shorter id (the name is '<cluster name>-<id>'), or pin the name with metadata: { name }; use a name of at most 63 characters, e.g. 'pg-${id.slice(0, 60)}'`,
      );
    });

    test('a Cluster whose written name is no Cluster name is named as the cause, not the id', () => {
      const clusterName = 'a'.repeat(64);
      const pg = new PostgresCluster(Testing.chart(), 'pg', { storage, metadata: { name: clusterName } });
      pg.addPlugin(Plugin.fromPluginName(BARMAN_NAME));
      expectValidationError(
        () => pg.addScheduledBackup('scheduled-0', { plugin: BARMAN, schedule: BackupSchedule.daily(2) }),
        `test/pg/scheduled-0: cluster '${clusterName}' is not a Cluster name: it must be a DNS-1035 label of at most 50 characters (lower-case letters, digits and '-', a letter first); the ScheduledBackup is named '<cluster name>-<id>' (76 characters here), and CloudNativePG labels every Backup it creates with that name (cnpg.io/scheduled-backup), a label value of at most 63 characters; give the Cluster a valid metadata.name, or pin this ScheduledBackup's name with metadata: { name }`,
      );
      // near miss: a 50-character Cluster name leaves room for a short id
      const ok = new PostgresCluster(Testing.chart(), 'pg', { storage, metadata: { name: 'b'.repeat(50) } });
      ok.addPlugin(Plugin.fromPluginName(BARMAN_NAME));
      expect(ok.addScheduledBackup('nightly', { plugin: BARMAN, schedule: BackupSchedule.daily(2) }).name).toHaveLength(58);
    });

    test('near misses: 63 characters, or a long name cut at a dot', () => {
      const chart = Testing.chart();
      new PluginScheduledBackup(chart, 'a', { cluster: elsewhere, plugin: BARMAN, schedule: BackupSchedule.daily(2), metadata: { name: 'z'.repeat(63) } });
      new PluginScheduledBackup(chart, `b-${'w'.repeat(58)}`, { cluster: elsewhere, plugin: BARMAN, schedule: BackupSchedule.daily(2) });
      expect(synth(chart).map((o: { metadata: { name: string } }) => o.metadata.name.length)).toEqual([63, 63]);
      expectValidationError(
        () =>
          new PluginScheduledBackup(Testing.chart(), 'c', {
            cluster: elsewhere,
            plugin: BARMAN,
            schedule: BackupSchedule.daily(2),
            metadata: { name: `${'v'.repeat(62)}.backup` },
          }),
        `test/c: metadata.name '${'v'.repeat(62)}.backup' ${problem.replace('64', '69')}; use a name of at most 63 characters, e.g. '${'v'.repeat(62)}'`,
      );
    });
  });

  test('validation', () => {
    const chart = Testing.chart();
    expectValidationError(
      () => new PluginScheduledBackup(chart, 'a', { cluster: elsewhere, plugin: BARMAN, schedule: js('0 0 2 * * *') }),
      "test/a: schedule '0 0 2 * * *' must be a BackupSchedule, not a string; use BackupSchedule.daily(2), BackupSchedule.cron({ hour: '2' }) or BackupSchedule.expression('0 0 2 * * *')",
    );
    expectValidationError(
      () => new PluginScheduledBackup(chart, 'e', js({ cluster: elsewhere, plugin: BARMAN, schedule: BackupSchedule.daily(1), suspended: true })),
      "test/e: props.suspended true is not a declared key of props; did you mean 'suspend'?",
    );
    // Enum and boolean values are judged by the CRD schema at synth, every problem at once.
    const other = Testing.chart();
    new PluginScheduledBackup(other, 'b', {
      cluster: elsewhere,
      plugin: BARMAN,
      schedule: BackupSchedule.daily(1),
      backupOwnerReference: js('owner'),
      immediate: js(1),
      target: js('any'),
    });
    expect(synthErrors(other)).toEqual([
      "[test/b] ScheduledBackup 'pg-b' spec.backupOwnerReference: is not one of the values the CRD allows; value 'owner'; allowed one of 'none', 'self', 'cluster'",
      "[test/b] ScheduledBackup 'pg-b' spec.immediate: must be a boolean; value 1; allowed a boolean",
      "[test/b] ScheduledBackup 'pg-b' spec.target: is not one of the values the CRD allows; value 'any'; allowed one of 'primary', 'prefer-standby'",
    ]);
  });
});
