// cloudnative-pg v1.30.0 pkg/postgres/configuration.go CreatePostgresqlConfiguration (archive_mode
// off under cnpg.io/skipWalArchiving), pkg/management/postgres/archiver/archiver.go internalRun;
// plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go ensureArchiveContainsLastCheckpointRedoWAL.
import { BARMAN, backup, barman, cluster, findings } from './archive-objects';

const SKIP = { 'cnpg.io/skipWalArchiving': 'enabled' };
const NO_WAL =
  "names Cluster 'pg', which has cnpg.io/skipWalArchiving: enabled: archive_mode is off and no WAL is archived; the backup completes, but a restore needs the WAL from the backup's start to its end and Barman Cloud refuses a backup whose first WAL is not in the archive, so it cannot be restored";

describe('CNPGI120 backup-without-wal-archive', () => {
  test('error: plugin, scheduled and in-tree backups of a Cluster with archive_mode off', () => {
    const docs = [
      cluster('pg', { plugins: [barman('store')] }, SKIP),
      backup('Backup', 'now', 'pg', BARMAN),
      backup('ScheduledBackup', 'daily', 'pg', BARMAN),
      backup('Backup', 'in-tree', 'pg', undefined),
    ];
    const fix = "remove the cnpg.io/skipWalArchiving annotation from Cluster 'pg'";
    expect(findings(docs, 'CNPGI120')).toEqual([
      ['error', 'Backup/db/now', 'spec.cluster.name', NO_WAL, fix],
      ['error', 'ScheduledBackup/db/daily', 'spec.cluster.name', NO_WAL, fix],
      ['error', 'Backup/db/in-tree', 'spec.cluster.name', NO_WAL, fix],
    ]);
  });

  // cnpg-i v0.5.0 proto/backup.proto (no kind of backup); cloudnative-pg v1.30.0 pkg/management/postgres/restore.go
  // restoreViaPlugin (a plugin restores its own backups), archiver/archiver.go archiveWALViaPlugins.
  test('warning: archive_mode off and a backup through a plugin the doctor does not know, phrased conditionally', () => {
    const docs = [cluster('pg', { plugins: [{ name: 'dump.example.com' }] }, SKIP), backup('ScheduledBackup', 'daily', 'pg', 'dump.example.com')];
    expect(findings(docs, 'CNPGI120')).toEqual([
      [
        'warning',
        'ScheduledBackup/db/daily',
        'spec.cluster.name',
        "names Cluster 'pg', which has cnpg.io/skipWalArchiving: enabled: archive_mode is off and no WAL is archived; if 'dump.example.com' takes physical backups, a restore needs the WAL from each backup's start to its end and they cannot be restored (a logical backup, such as a dump, needs no WAL)",
        "remove the cnpg.io/skipWalArchiving annotation from Cluster 'pg', if 'dump.example.com' takes physical backups",
      ],
    ]);
  });

  test('a plugin the doctor does not know, with WAL archiving on: not told to set isWALArchiver (a logical backup needs no WAL)', () => {
    // no isWALArchiver, no barmanObjectStore: the plugin may take dumps, or archive WAL through its capability undeclared
    expect(findings([cluster('pg', { plugins: [{ name: 'dump.example.com' }] }), backup('Backup', 'now', 'pg', 'dump.example.com')], 'CNPGI120')).toEqual([]);
    expect(
      findings(
        [cluster('pg', { plugins: [{ name: 'dump.example.com', isWALArchiver: false }] }), backup('ScheduledBackup', 'daily', 'pg', 'dump.example.com')],
        'CNPGI120',
      ),
    ).toEqual([]);
  });

  test('near misses pass', () => {
    // the annotation with another value does not switch archiving off (IsWalArchivingDisabled wants "enabled")
    expect(
      findings([cluster('pg', { plugins: [barman('store')] }, { 'cnpg.io/skipWalArchiving': 'disabled' }), backup('Backup', 'now', 'pg', BARMAN)], 'CNPGI120'),
    ).toEqual([]);
    // a declared archiver, Barman Cloud archiving undeclared (CNPGI123's), the in-tree store
    expect(
      findings(
        [cluster('pg', { plugins: [{ name: 'backup.example.com', isWALArchiver: true }] }), backup('Backup', 'now', 'pg', 'backup.example.com')],
        'CNPGI120',
      ),
    ).toEqual([]);
    expect(findings([cluster('pg', { plugins: [barman('store', { isWALArchiver: false })] }), backup('Backup', 'now', 'pg', BARMAN)], 'CNPGI120')).toEqual([]);
    expect(
      findings(
        [
          cluster('pg', { plugins: [{ name: 'backup.example.com' }], backup: { barmanObjectStore: { destinationPath: 's3://b/pg' } } }),
          backup('Backup', 'now', 'pg', 'backup.example.com'),
        ],
        'CNPGI120',
      ),
    ).toEqual([]);
    // volume snapshots, and a Cluster outside the input, are not judged
    expect(findings([cluster('pg', {}, SKIP), backup('Backup', 'snap', 'pg', undefined, 'volumeSnapshot')], 'CNPGI120')).toEqual([]);
    expect(findings([backup('Backup', 'now', 'elsewhere', BARMAN)], 'CNPGI120')).toEqual([]);
  });
});
