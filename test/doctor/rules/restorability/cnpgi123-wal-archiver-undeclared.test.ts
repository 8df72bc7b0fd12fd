// cloudnative-pg v1.30.0 pkg/management/postgres/archiver/archiver.go archiveWALViaPlugins,
// internal/cnpi/plugin/client/create.go innerNewClient; plugin-barman-cloud v0.14.0
// internal/cnpgi/common/wal.go Archive (never reads isWALArchiver).
import { backup, barman, cluster, findings, BARMAN } from './archive-objects';

describe('CNPGI123 wal-archiver-undeclared', () => {
  test('warning: Barman Cloud archives but is not the declared archiver (the issue #22 app)', () => {
    const docs = [cluster('pg', { plugins: [barman('store', { isWALArchiver: false })] }), backup('ScheduledBackup', 'daily', 'pg', BARMAN)];
    expect(findings(docs, 'CNPGI123')).toEqual([
      [
        'warning',
        'Cluster/db/pg',
        'spec.plugins[0].isWALArchiver',
        "Barman Cloud archives the WAL of Cluster 'pg' without being its WAL archiver: the instance manager asks it because it is enabled, but skips it without an error whenever its sidecar is not in the instance pod (only the plugin marked isWALArchiver must be loaded), so the segment is reported archived and a gap is left in the archive; the operator also restarts a primary that lacks the archiver's sidecar only for the plugin marked isWALArchiver",
        'set isWALArchiver: true on the Barman Cloud entry of spec.plugins',
      ],
    ]);
    // the entry's index is the Barman Cloud one
    expect(findings([cluster('pg', { plugins: [{ name: 'hello.example.com' }, barman('store', { isWALArchiver: false })] })], 'CNPGI123')[0][2]).toBe(
      'spec.plugins[1].isWALArchiver',
    );
  });

  test('near misses pass', () => {
    const quiet = (spec: object, annotations?: Record<string, string>) => expect(findings([cluster('pg', spec, annotations)], 'CNPGI123')).toEqual([]);
    quiet({ plugins: [barman('store')] });
    // another plugin is the declared archiver, or the in-tree store archives
    quiet({ plugins: [barman('store', { isWALArchiver: false }), { name: 'wal.example.com', isWALArchiver: true }] });
    quiet({ plugins: [barman('store', { isWALArchiver: false })], backup: { barmanObjectStore: { destinationPath: 's3://b/pg' } } });
    // Barman Cloud disabled, or without a barmanObjectName (no sidecar, no archiving: CNPGI106's)
    quiet({ plugins: [barman('store', { isWALArchiver: false, enabled: false })] });
    quiet({ plugins: [{ name: BARMAN, parameters: {} }] });
    // archiving is off altogether (CNPGI120 judges the backups)
    quiet({ plugins: [barman('store', { isWALArchiver: false })] }, { 'cnpg.io/skipWalArchiving': 'enabled' });
  });
});
