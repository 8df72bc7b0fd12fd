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

  test('warning: a plugin backup where nothing declares WAL archiving', () => {
    const docs = [cluster('pg', { plugins: [{ name: 'backup.example.com' }] }), backup('Backup', 'now', 'pg', 'backup.example.com')];
    expect(findings(docs, 'CNPGI120')).toEqual([
      [
        'warning',
        'Backup/db/now',
        'spec.pluginConfiguration.name',
        "nothing declares WAL archiving for Cluster 'pg': no enabled plugin has isWALArchiver: true and there is no spec.backup.barmanObjectStore; the instance manager still asks every enabled plugin that can archive WAL, so the WAL is archived only if 'backup.example.com' does, and a base backup without its WAL cannot be restored",
        "set isWALArchiver: true on the Cluster's spec.plugins entry of the plugin that archives its WAL (e.g. 'backup.example.com')",
      ],
    ]);
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
