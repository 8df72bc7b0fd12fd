/*
 * CNPGI307 cluster-recovery-target: the Cluster webhook's validateRecoveryTarget as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI307';

describe('CNPGI307 cluster-recovery-target', () => {
  test('trips: a time that is no timestamp, beside an LSN (an example from the issue)', () => {
    expect(
      findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: 'yesterday noon', targetLSN: '0/3000000' } } } })),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget',
        message:
          'the Cluster webhook refuses a recovery target with targetLSN, targetTime ("Recovery target options are mutually exclusive"): PostgreSQL stops recovery at one target',
        fix: 'keep one of targetLSN, targetTime',
      },
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetTime',
        message:
          'the Cluster webhook refuses targetTime \'yesterday noon\' ("The format of TargetTime is invalid", at spec.bootstrap.recovery.recoveryTarget): it reads a timestamp, not a phrase',
        fix: "write a timestamp such as '2024-05-01 12:00:00+00' or '2024-05-01T12:00:00Z' (RFC 3339)",
      },
    ]);
  });
  test('trips: an LSN that is no LSN', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetLSN: '3000000' } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetLSN',
        message:
          "the Cluster webhook refuses targetLSN '3000000' (\"Invalid TargetLSN\", at spec.bootstrap.recovery.recoveryTarget): an LSN is two hexadecimal numbers joined by '/'",
        fix: "write the LSN as PostgreSQL prints it, such as '0/3000060'",
      },
    ]);
  });
  test('trips: an LSN with a part above 64 bits', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetLSN: '10000000000000000/0' } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetLSN',
        message:
          "the Cluster webhook refuses targetLSN '10000000000000000/0' (\"Invalid TargetLSN\", at spec.bootstrap.recovery.recoveryTarget): an LSN is two hexadecimal numbers joined by '/'",
        fix: "write the LSN as PostgreSQL prints it, such as '0/3000060'",
      },
    ]);
  });
  test('trips: a transaction id above 32 bits', () => {
    expect(
      findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { backupID: '20240501T120000', targetXID: '4294967296' } } } })),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetXID',
        message:
          'the Cluster webhook refuses targetXID \'4294967296\' ("recovery target xid must be a non-negative 32-bit integer"): PostgreSQL reads a transaction id of 32 bits',
        fix: 'write the transaction id as a decimal number from 0 to 4294967295',
      },
    ]);
  });
  test('trips: a negative transaction id', () => {
    expect(
      findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { backupID: '20240501T120000', targetXID: '-1' } } } })),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetXID',
        message:
          'the Cluster webhook refuses targetXID \'-1\' ("recovery target xid must be a non-negative 32-bit integer"): PostgreSQL reads a transaction id of 32 bits',
        fix: 'write the transaction id as a decimal number from 0 to 4294967295',
      },
    ]);
  });
  test('trips: a restore point name of 64 bytes', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            recovery: {
              source: 'origin',
              recoveryTarget: { backupID: '20240501T120000', targetName: 'rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr' },
            },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetName',
        message:
          'the Cluster webhook refuses a targetName of 64 bytes ("recovery target name must be shorter than 64 bytes"): PostgreSQL\'s restore point names are at most 63 bytes',
        fix: 'use the name of the restore point as pg_create_restore_point created it (at most 63 bytes)',
      },
    ]);
  });
  test('trips: a restore point name with a newline', () => {
    expect(
      findingsOf(
        RULE,
        cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { backupID: '20240501T120000', targetName: 'before\nmigration' } } } }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetName',
        message: 'the Cluster webhook refuses targetName "before\\nmigration" ("recovery target name must not contain ASCII control characters")',
        fix: 'remove the control characters (newlines, tabs, NUL) from the restore point name',
      },
    ]);
  });
  test('trips: a restore point without backupID', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetName: 'before-migration' } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.backupID',
        message:
          'the Cluster webhook refuses a recovery to targetName without backupID (Required value: "BackupID is missing", at spec.bootstrap.recovery.recoveryTarget): from a backup catalog the operator picks the base backup by time, so a target that is not a time or an LSN needs the backup named',
        fix: 'set recoveryTarget.backupID to the backup to restore, or use targetTime or targetLSN',
      },
    ]);
  });
  test('trips: targetImmediate without backupID', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetImmediate: true } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.backupID',
        message:
          'the Cluster webhook refuses a recovery to targetImmediate without backupID (Required value: "BackupID is missing", at spec.bootstrap.recovery.recoveryTarget): from a backup catalog the operator picks the base backup by time, so a target that is not a time or an LSN needs the backup named',
        fix: 'set recoveryTarget.backupID to the backup to restore, or use targetTime or targetLSN',
      },
    ]);
  });
  test('trips: timeline 0', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTLI: '0' } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetTLI',
        message: "the Cluster webhook refuses targetTLI '0' (\"recovery target timeline can be set to 'latest' or a positive integer\")",
        fix: "write 'latest', a timeline number from 1, or leave it out",
      },
    ]);
  });
  test('trips: a timeline that is no number', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTLI: 'current' } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.targetTLI',
        message: "the Cluster webhook refuses targetTLI 'current' (\"recovery target timeline can be set to 'latest' or a positive integer\")",
        fix: "write 'latest', a timeline number from 1, or leave it out",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a PostgreSQL timestamp with a zone', { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: '2024-05-01 12:00:00+00' } } } }, {}],
    [
      'a PostgreSQL timestamp with microseconds and a zone with minutes',
      { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: '2024-05-01 12:00:00.123456+05:30' } } } },
      {},
    ],
    ['a date alone', { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: '2024-05-01' } } } }, {}],
    ['RFC 3339', { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: '2024-05-01T12:00:00Z' } } } }, {}],
    [
      'RFC 3339 with microseconds and an offset',
      { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: '2024-05-01T12:00:00.123456+02:00' } } } },
      {},
    ],
    ['RFC 3339 without a zone', { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTime: '2024-05-01T12:00:00' } } } }, {}],
    ['an LSN', { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetLSN: '0/3000000' } } } }, {}],
    [
      'an LSN of two full 64-bit parts',
      { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetLSN: 'FFFFFFFFFFFFFFFF/ffffffffffffffff' } } } },
      {},
    ],
    [
      'the largest transaction id, with backupID',
      { bootstrap: { recovery: { source: 'origin', recoveryTarget: { backupID: '20240501T120000', targetXID: '4294967295' } } } },
      {},
    ],
    [
      'a restore point of 63 bytes, with backupID',
      {
        bootstrap: {
          recovery: {
            source: 'origin',
            recoveryTarget: { backupID: '20240501T120000', targetName: 'rrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr' },
          },
        },
      },
      {},
    ],
    [
      'a restore point from volume snapshots (no backupID needed)',
      {
        bootstrap: {
          recovery: {
            volumeSnapshots: { storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' } },
            recoveryTarget: { targetName: 'before-migration' },
          },
        },
      },
      {},
    ],
    [
      'targetImmediate with backupID',
      { bootstrap: { recovery: { source: 'origin', recoveryTarget: { backupID: '20240501T120000', targetImmediate: true } } } },
      {},
    ],
    ['timeline latest', { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTLI: 'latest' } } } }, {}],
    ['timeline +2 (Go reads the sign)', { bootstrap: { recovery: { source: 'origin', recoveryTarget: { targetTLI: '+2' } } } }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
