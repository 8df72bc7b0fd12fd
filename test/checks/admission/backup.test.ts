import fc from 'fast-check';
import { admit } from '../../../src/checks/admission/index';
import type { Json } from '../../../src/manifests/json';
import { oddObjects, wellFormed } from './odd-input';

const backup = (spec: Record<string, unknown>, annotations: Record<string, string> = {}) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Backup',
  metadata: { name: 'b', namespace: 'app', annotations },
  spec: { cluster: { name: 'pg' }, ...spec },
});
const scheduled = (spec: Record<string, unknown>) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'ScheduledBackup',
  metadata: { name: 's', namespace: 'app' },
  spec: { cluster: { name: 'pg' }, schedule: '0 0 2 * * *', ...spec },
});

/** What the webhook's `validate` answers, after the CRD defaults. */
const backupIssues = (object: Json) => [...(admit('Backup', object).issues.get('validate') ?? [])];
const scheduledIssues = (object: Json) => [...(admit('ScheduledBackup', object).issues.get('validate') ?? [])];

describe('the Backup webhook (validate)', () => {
  test('online with method barmanObjectStore, also when the CRD default gives it', () => {
    const expected = {
      severity: 'error',
      path: 'spec.online',
      message:
        'the Backup webhook refuses online with method barmanObjectStore, the CRD default when method is left out ("Online parameter can be specified only if the backup method is volumeSnapshot"): a Barman object store backup is always taken online, the setting is for volume snapshots',
      fix: 'remove online, or use method: volumeSnapshot',
    };
    expect(backupIssues(backup({ method: 'barmanObjectStore', online: false }))).toEqual([expected]);
    expect(backupIssues(backup({ online: true }))).toEqual([expected]);
  });

  test('onlineConfiguration with method barmanObjectStore', () => {
    expect(backupIssues(backup({ onlineConfiguration: { immediateCheckpoint: true } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.onlineConfiguration',
        message:
          'the Backup webhook refuses onlineConfiguration with method barmanObjectStore, the CRD default when method is left out ("OnlineConfiguration parameter can be specified only if the backup method is volumeSnapshot"): a Barman object store backup is always taken online, the setting is for volume snapshots',
        fix: 'remove onlineConfiguration, or use method: volumeSnapshot',
      },
    ]);
  });

  test('method plugin without a plugin name: the webhook names spec.pluginConfiguration', () => {
    const expected = {
      severity: 'error',
      path: 'spec.pluginConfiguration.name',
      webhookPath: 'spec.pluginConfiguration',
      message:
        'the Backup webhook refuses method plugin without a plugin name (spec.pluginConfiguration: "cannot be empty when the backup method is plugin"): the operator would not know which plugin takes the backup',
      fix: 'set spec.pluginConfiguration.name to the plugin that takes the backup, e.g. barman-cloud.cloudnative-pg.io',
    };
    expect(backupIssues(backup({ method: 'plugin' }))).toEqual([expected]);
    expect(backupIssues(backup({ method: 'plugin', pluginConfiguration: { name: '' } }))).toEqual([expected]);
  });

  test.each([
    [{ method: 'volumeSnapshot', online: false, onlineConfiguration: { waitForArchive: true } }],
    // the webhook does not look at online with method plugin (CNPGI101 warns)
    [{ method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' }, online: true }],
    [{ method: 'barmanObjectStore', online: null }],
    [{}],
  ])('accepted: %j', (spec) => {
    expect(backupIssues(backup(spec))).toEqual([]);
  });

  test('cnpg.io/validation: disabled skips it', () => {
    const admission = admit('Backup', backup({ online: true }, { 'cnpg.io/validation': 'disabled' }));
    expect(admission.validationDisabled).toBe(true);
    expect(admission.issues.size).toBe(0);
  });
});

describe('the ScheduledBackup webhook (validate)', () => {
  test('a schedule robfig/cron refuses', () => {
    expect(scheduledIssues(scheduled({ schedule: '0 0 0 * * * 1996' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.schedule',
        message:
          "the ScheduledBackup webhook refuses schedule '0 0 0 * * * 1996' with robfig/cron's parse error: it has 7 fields; robfig/cron takes 5 or 6, seconds first",
        fix: "write 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'",
      },
    ]);
    expect(scheduledIssues(scheduled({ schedule: '' }))[0].message).toBe(
      'the ScheduledBackup webhook refuses an empty schedule: robfig/cron has nothing to parse',
    );
  });

  test('five fields: a warning that says how robfig/cron reads them', () => {
    expect(scheduledIssues(scheduled({ schedule: '0 2 * * *' }))).toEqual([
      {
        severity: 'warning',
        path: 'spec.schedule',
        message:
          'the ScheduledBackup webhook warns about schedule \'0 2 * * *\' ("Schedule parameter may not have the right number of arguments (usually six arguments are needed)"): robfig/cron reads its 5 fields seconds first without a day-of-week, so it runs every hour at minute 2, second 0 (second 0, minute 2, hour *, day-of-month *, month *)',
        fix: "write the 6-field form '0 0 2 * * *'",
      },
    ]);
  });

  test('online settings with method barmanObjectStore, in the ScheduledBackup wording', () => {
    expect(scheduledIssues(scheduled({ online: true })).map((i) => i.message)).toEqual([
      'the ScheduledBackup webhook refuses online with method barmanObjectStore, the CRD default when method is left out ("Online parameter can be specified only if the method is volumeSnapshot"): a Barman object store backup is always taken online, the setting is for volume snapshots',
    ]);
  });

  test.each([
    [{ method: 'plugin' }], // not checked by this webhook (CNPGI045 reports the Backups it creates)
    [{ method: 'volumeSnapshot', online: true }],
    [{ schedule: '0 0 2 ? * MON-FRI' }],
  ])('accepted: %j', (spec) => {
    expect(scheduledIssues(scheduled(spec))).toEqual([]);
  });

  test('cnpg.io/validation does not switch it off', () => {
    const object = { ...scheduled({ online: true }), metadata: { name: 's', annotations: { 'cnpg.io/validation': 'disabled' } } };
    expect(admit('ScheduledBackup', object).validationDisabled).toBe(false);
    expect(scheduledIssues(object)).toHaveLength(1);
  });
});

describe('odd input', () => {
  test.each(['Backup', 'ScheduledBackup'] as const)('the %s checks never throw', (kind) => {
    const paths = [
      'spec.method',
      'spec.online',
      'spec.onlineConfiguration',
      'spec.pluginConfiguration.name',
      'spec.schedule',
      'metadata.annotations.cnpg.io/volumeSnapshotDeadline',
    ];
    fc.assert(fc.property(oddObjects(kind, paths), (object) => wellFormed(kind, object)));
  });
});
