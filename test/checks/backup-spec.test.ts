import { checkBackupSpec, checkSchedule } from '../../src/checks/backup-spec';

const backup = (spec: object) => ({ kind: 'Backup', metadata: { name: 'b' }, spec: { cluster: { name: 'pg' }, ...spec } });

describe('checkBackupSpec', () => {
  test('a plugin backup passes', () => {
    expect(checkBackupSpec(backup({ method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } }), 'Backup')).toEqual([]);
  });

  test('method Plugin is refused by the CRD enum, with the right spelling', () => {
    const [issue] = checkBackupSpec(backup({ method: 'Plugin', pluginConfiguration: { name: 'x' } }), 'Backup');
    expect(issue).toEqual({
      severity: 'error',
      path: 'spec.method',
      message: '"Plugin" is not one of barmanObjectStore, volumeSnapshot, plugin; the API server refuses the Backup (the CRD enum is case-sensitive)',
      fix: "write 'plugin'",
    });
  });

  test.each([
    [{ target: 'standby', schedule: '@daily' }, 'spec.target'],
    [{ backupOwnerReference: 'owner', schedule: '@daily' }, 'spec.backupOwnerReference'],
  ])('other enums %#', (spec, path) => {
    expect(checkBackupSpec(backup(spec), 'ScheduledBackup').map((i) => i.path)).toEqual([path]);
  });

  test('online is judged after the CRD default: no method means barmanObjectStore', () => {
    expect(checkBackupSpec(backup({ online: true }), 'Backup')).toEqual([
      {
        severity: 'error',
        path: 'spec.online',
        message:
          'is set with method barmanObjectStore (the CRD default, since method is not written); the Backup webhook allows online only with volumeSnapshot',
        fix: 'write method: plugin (or volumeSnapshot), or remove online',
      },
    ]);
    expect(checkBackupSpec(backup({ method: 'barmanObjectStore', onlineConfiguration: {} }), 'Backup').map((i) => [i.severity, i.path])).toEqual([
      ['error', 'spec.onlineConfiguration'],
    ]);
    expect(checkBackupSpec(backup({ method: 'volumeSnapshot', online: false, onlineConfiguration: {} }), 'Backup')).toEqual([]);
  });

  test('online with method plugin passes the webhook: a warning', () => {
    expect(checkBackupSpec(backup({ method: 'plugin', pluginConfiguration: { name: 'x' }, online: true }), 'Backup').map((i) => i.severity)).toEqual([
      'warning',
    ]);
  });

  test('method plugin without a plugin name: Backup refused, ScheduledBackup creates refused Backups', () => {
    expect(checkBackupSpec(backup({ method: 'plugin' }), 'Backup')[0].message).toBe('is missing with method plugin; the Backup webhook refuses the Backup');
    expect(checkBackupSpec(backup({ method: 'plugin', pluginConfiguration: { name: '' }, schedule: '@daily' }), 'ScheduledBackup')[0].message).toBe(
      'is missing with method plugin; the ScheduledBackup webhook does not check it, so every Backup it creates is refused',
    );
  });
});

describe('checkSchedule', () => {
  test.each(['0 0 2 * * *', '@daily', '@every 1h', '0 0 2 ? * MON-FRI'])('accepts %p', (s) => {
    expect(checkSchedule(s)).toEqual([]);
  });

  test('a 5-field schedule is an error that shows the reading and the 6-field form', () => {
    expect(checkSchedule('0 2 * * *')).toEqual([
      {
        severity: 'error',
        path: 'spec.schedule',
        message:
          "'0 2 * * *' has 5 fields; the operator reads them seconds first without a day-of-week, so it runs every hour at minute 2, second 0 (second 0, minute 2, hour *, day-of-month *, month *) (the webhook only warns)",
        fix: "write the 6-field form '0 0 2 * * *'",
      },
    ]);
    expect(checkSchedule('*/5 * * * *')[0].message).toContain('runs every 5 seconds');
    expect(checkSchedule('*/5 * * * *')[0].fix).toBe("write the 6-field form '0 */5 * * * *'");
  });

  test.each([
    ['0 0 2 * * * *', "'0 0 2 * * * *' has 7 fields; robfig/cron takes 5 or 6, seconds first; the ScheduledBackup webhook refuses it"],
    ['@every 1d', "'@every 1d' '@every' takes a Go duration such as '6h' or '1h30m', not '1d'; the ScheduledBackup webhook refuses it"],
    ['0 0 2 * * 7', "'0 0 2 * * 7' has an invalid day-of-week field '7' (7 is above the maximum 6); the ScheduledBackup webhook refuses it"],
  ])('refuses %p', (s, message) => {
    expect(checkSchedule(s)).toEqual([expect.objectContaining({ severity: 'error', message })]);
  });

  test('a refused field gets its accepted values as the fix, with the 3-letter name for a long one', () => {
    expect(checkSchedule('0 0 2 * * monday')[0].fix).toBe(
      "write 'mon' for 'monday': robfig/cron takes only 3-letter names; the field takes a day of the week 0-6 (0 is Sunday) or a 3-letter name sun..sat (any case), '*' or '?', a range 'mon-fri', a list 'sat,sun' or a step '*/2'",
    );
    expect(checkSchedule('0 0 24 * * *')[0].fix).toBe("write an hour 0-23, '*', a range '1-5', a list '2,14' or a step '*/6'");
    expect(checkSchedule('0 0 2 * * * *')[0].fix).toContain('write 6 fields, seconds first');
  });

  test('a schedule that never fires is a warning; a missing one an error', () => {
    expect(checkSchedule('0 0 , * * *').map((i) => i.severity)).toEqual(['warning']);
    expect(checkSchedule(undefined).map((i) => i.severity)).toEqual(['error']);
  });
});
