import { Size, Testing } from 'cdk8s';
import { admissionErrors, admit } from '../../src/checks/admission';
import type { Json } from '../../src/manifests/json';
import { Plugin } from '../../src/plugins/plugin';
import { ClusterBootstrap, PostgresCluster, RecoveryTarget } from '../../src/postgres';
import { expectValidationError, only, synth } from '../util';

const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
const storage = { size: Size.gibibytes(10) };
const js = (v: unknown): any => v;
const BACKUP = '20240501T120000';

/** The recovery target a Cluster recovering through Barman Cloud writes, after the Cluster webhook's judgement. */
function written(target: RecoveryTarget): unknown {
  const chart = Testing.chart();
  new PostgresCluster(chart, 'pg', { storage, bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin', recoveryTarget: target }) });
  const cluster = only(synth(chart), 'Cluster');
  // What CloudNativePG v1.30.0's webhook would answer: nothing.
  expect(admissionErrors(admit('Cluster', cluster as Json))).toEqual([]);
  return cluster.spec.bootstrap.recovery.recoveryTarget;
}

describe('RecoveryTarget: each form is written as the webhook accepts it', () => {
  test('time: RFC 3339 in UTC, milliseconds only when the date has them', () => {
    expect(written(RecoveryTarget.time(new Date(Date.UTC(2024, 4, 1, 12, 0, 0))))).toEqual({ targetTime: '2024-05-01T12:00:00Z' });
    expect(written(RecoveryTarget.time(new Date(Date.UTC(2024, 4, 1, 12, 0, 0, 250))))).toEqual({ targetTime: '2024-05-01T12:00:00.250Z' });
    // The same instant from another zone is the same UTC text.
    expect(written(RecoveryTarget.time(new Date('2024-05-01T14:00:00+02:00')))).toEqual({ targetTime: '2024-05-01T12:00:00Z' });
  });

  test.each([
    '2024-05-01 12:00:00+00',
    '2024-05-01 12:00:00.123456+02:00',
    '2024-05-01 12:00:00',
    '2024-05-01T12:00:00Z',
    '2024-05-01T12:00:00.000000+02:00',
    '2024-05-01T12:00:00',
  ])('timestamp %s is written as given', (text) => {
    expect(written(RecoveryTarget.timestamp(text))).toEqual({ targetTime: text });
  });

  test.each(['0/3000060', 'FFFFFFFF/FFFFFFFF', '16/B374D848'])('lsn %s', (lsn) => {
    expect(written(RecoveryTarget.lsn(lsn))).toEqual({ targetLSN: lsn });
  });

  test.each([0, 1234, 4294967295])('xid %d, with the backup to start from', (xid) => {
    expect(written(RecoveryTarget.xid(xid, { backupId: BACKUP }))).toEqual({ backupID: BACKUP, targetXID: String(xid) });
  });

  test('a restore point of 63 bytes, with the backup', () => {
    const name = 'r'.repeat(63);
    expect(written(RecoveryTarget.restorePoint(name, { backupId: BACKUP }))).toEqual({ backupID: BACKUP, targetName: name });
  });

  test('immediate, with the backup', () => {
    expect(written(RecoveryTarget.immediate({ backupId: BACKUP }))).toEqual({ backupID: BACKUP, targetImmediate: true });
  });

  test('the options: backup, timeline and exclusive beside a target', () => {
    expect(written(RecoveryTarget.lsn('0/3000060', { backupId: BACKUP, timeline: 2, exclusive: true }))).toEqual({
      backupID: BACKUP,
      targetTLI: '2',
      targetLSN: '0/3000060',
      exclusive: true,
    });
    expect(written(RecoveryTarget.timestamp('2024-05-01 12:00:00+00', { exclusive: false }))).toEqual({
      targetTime: '2024-05-01 12:00:00+00',
      exclusive: false,
    });
  });

  test('endOfWal: a backup or a timeline, no target', () => {
    expect(written(RecoveryTarget.endOfWal({ backupId: BACKUP }))).toEqual({ backupID: BACKUP });
    expect(written(RecoveryTarget.endOfWal({ timeline: 3 }))).toEqual({ targetTLI: '3' });
  });

  test('toSpec gives the section for a fromSpec recovery, where a volume snapshot recovery needs no backupId', () => {
    const target = RecoveryTarget.restorePoint('before-migration');
    expect(target.toSpec()).toEqual({ targetName: 'before-migration' });
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', {
      storage,
      bootstrap: ClusterBootstrap.fromSpec({
        recovery: {
          volumeSnapshots: { storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pg-1' } },
          recoveryTarget: target.toSpec(),
        },
      }),
    });
    expect(only(synth(chart), 'Cluster').spec.bootstrap.recovery.recoveryTarget).toEqual({ targetName: 'before-migration' });
    // A copy: changing it changes nothing.
    (target.toSpec() as any).targetName = 'x';
    expect(target.toSpec()).toEqual({ targetName: 'before-migration' });
  });
});

describe('RecoveryTarget: what the webhook refuses is refused when the target is made', () => {
  test('a timestamp the webhook cannot parse', () => {
    expectValidationError(
      () => RecoveryTarget.timestamp('yesterday'),
      `RecoveryTarget.timestamp: text 'yesterday' would not be admitted: the Cluster webhook refuses targetTime 'yesterday' ("The format of TargetTime is invalid", at spec.bootstrap.recovery.recoveryTarget): it reads a timestamp, not a phrase; write a timestamp such as '2024-05-01 12:00:00+00' or '2024-05-01T12:00:00Z' (RFC 3339)`,
    );
    expectValidationError(
      () => RecoveryTarget.timestamp(''),
      "RecoveryTarget.timestamp: text '' must not be empty; pass a timestamp such as '2024-05-01 12:00:00+00'",
    );
  });

  test('a Date that is not one, or out of the years RFC 3339 writes', () => {
    expectValidationError(
      () => RecoveryTarget.time(new Date('nonsense')),
      "RecoveryTarget.time: when 'Invalid Date' is not a date of the years 1 to 9999, which RFC 3339 and the webhook read; pass a valid Date within those years",
    );
    expectValidationError(
      () => RecoveryTarget.time(new Date(Date.UTC(10000, 0, 1))),
      "RecoveryTarget.time: when '+010000-01-01T00:00:00.000Z' is not a date of the years 1 to 9999, which RFC 3339 and the webhook read; pass a valid Date within those years",
    );
    expectValidationError(
      () => RecoveryTarget.time(js('2024-05-01T12:00:00Z')),
      "RecoveryTarget.time: when '2024-05-01T12:00:00Z' must be a Date, not a string; pass a Date, or use RecoveryTarget.timestamp('2024-05-01 12:00:00+00') for a timestamp written out",
    );
  });

  test('an LSN that is not two hexadecimal numbers', () => {
    expectValidationError(
      () => RecoveryTarget.lsn('0-3000060'),
      `RecoveryTarget.lsn: lsn '0-3000060' would not be admitted: the Cluster webhook refuses targetLSN '0-3000060' ("Invalid TargetLSN", at spec.bootstrap.recovery.recoveryTarget): an LSN is two hexadecimal numbers joined by '/'; write the LSN as PostgreSQL prints it, such as '0/3000060'`,
    );
  });

  test.each([
    [-1, 'is out of range'],
    [4294967296, 'is out of range'],
    [1.5, 'is not a whole number'],
  ])('xid %d', (xid, problem) => {
    expectValidationError(
      () => RecoveryTarget.xid(xid, { backupId: BACKUP }),
      `RecoveryTarget.xid: xid ${xid} ${problem}; use a whole number from 0 to 4294967295`,
    );
  });

  test('a restore point of 64 bytes, or with a control character', () => {
    const name = 'é'.repeat(32);
    expectValidationError(
      () => RecoveryTarget.restorePoint(name),
      `RecoveryTarget.restorePoint: name '${name}' would not be admitted: the Cluster webhook refuses a targetName of 64 bytes ("recovery target name must be shorter than 64 bytes"): PostgreSQL's restore point names are at most 63 bytes; use the name of the restore point as pg_create_restore_point created it (at most 63 bytes)`,
    );
    expectValidationError(
      () => RecoveryTarget.restorePoint('a\nb'),
      'RecoveryTarget.restorePoint: name "a\\nb" would not be admitted: the Cluster webhook refuses targetName "a\\nb" ("recovery target name must not contain ASCII control characters"); remove the control characters (newlines, tabs, NUL) from the restore point name',
    );
  });

  test('the options', () => {
    expectValidationError(() => RecoveryTarget.lsn('0/1', { timeline: 0 }), 'RecoveryTarget.lsn: timeline 0 is out of range; use a whole number 1 or more');
    expectValidationError(
      () => RecoveryTarget.lsn('0/1', { backupId: '' }),
      "RecoveryTarget.lsn: backupId '' must not be empty; give the backup's id as the plugin lists it, e.g. '20240501T120000'",
    );
    expectValidationError(
      () => RecoveryTarget.lsn('0/1', js({ targetTLI: 'latest' })),
      "RecoveryTarget.lsn: options.targetTLI 'latest' is not a declared key of options; remove it; options takes backupId, exclusive, timeline",
    );
    expectValidationError(
      () => RecoveryTarget.endOfWal({}),
      'RecoveryTarget.endOfWal: options {} names neither a backup nor a timeline, which is what no recovery target does; leave recoveryTarget out, or give backupId or timeline',
    );
  });
});

describe('one target, and a backup for the targets that need one', () => {
  test('a plain object is not a RecoveryTarget (one target exists only by construction)', () => {
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', recoveryTarget: js({ targetTime: '2024-05-01T12:00:00Z', targetLSN: '0/1' }) }),
      'ClusterBootstrap.recoveryFromPlugin: options.recoveryTarget {"targetTime":"2024-05-01T12:00:00Z","targetLSN":"0/1"} must be a RecoveryTarget, not an object; use ' +
        'RecoveryTarget.time(date), .timestamp(text), .lsn(lsn), .xid(xid, { backupId }), .restorePoint(name, { backupId }), .immediate({ backupId }) or .endOfWal({ backupId })',
    );
  });

  test.each([
    [
      'restorePoint',
      RecoveryTarget.restorePoint('before-migration'),
      'a restore point',
      `restorePoint('before-migration', { backupId: '${BACKUP}' })`,
      '{"targetName":"before-migration"}',
    ],
    ['xid', RecoveryTarget.xid(1234), 'a transaction id', `xid(1234, { backupId: '${BACKUP}' })`, '{"targetXid":"1234"}'],
    ['immediate', RecoveryTarget.immediate(), 'an immediate', `immediate({ backupId: '${BACKUP}' })`, '{"targetImmediate":true}'],
  ])('a recovery from a backup catalog refuses %s without backupId', (_factory, target, what, fix, value) => {
    expectValidationError(
      () => ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'o', recoveryTarget: target }),
      `ClusterBootstrap.recoveryFromPlugin: options.recoveryTarget ${value} is ${what} target without backupId: the operator picks a backup from the catalog by time or LSN only, and the Cluster webhook refuses it ("BackupID is missing"); name the backup to start from, e.g. RecoveryTarget.${fix}, or use a time or LSN target`,
    );
  });
});
