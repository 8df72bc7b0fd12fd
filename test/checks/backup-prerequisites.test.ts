import { checkBackupPrerequisites } from '../../src/checks/backup-prerequisites';

const BARMAN = 'barman-cloud.cloudnative-pg.io';
const backup = (spec: object = { method: 'plugin', pluginConfiguration: { name: BARMAN } }) => ({
  kind: 'Backup',
  metadata: { name: 'b', namespace: 'db' },
  spec: { cluster: { name: 'pg' }, ...spec },
});
const cluster = (spec: object, annotations: object = {}) => ({ kind: 'Cluster', metadata: { name: 'pg', namespace: 'db', annotations }, spec });

describe('checkBackupPrerequisites', () => {
  test('a plugin backup through an enabled plugin passes; without the Cluster nothing is judged', () => {
    expect(checkBackupPrerequisites(backup(), cluster({ plugins: [{ name: BARMAN }] }))).toEqual([]);
    expect(checkBackupPrerequisites(backup(), cluster({ plugins: [{ name: BARMAN, enabled: true }] }))).toEqual([]);
    expect(checkBackupPrerequisites(backup(), undefined)).toEqual([]);
  });

  test('a Cluster with no plugins fails the backup at once', () => {
    expect(checkBackupPrerequisites(backup(), cluster({}))).toEqual([
      {
        severity: 'error',
        path: 'spec.method',
        message: "is plugin but Cluster 'pg' has no spec.plugins; the Backup fails at once (ClusterHasNoBackupExecutorPlugin)",
        fix: `add '${BARMAN}' to the Cluster's spec.plugins`,
      },
    ]);
  });

  test('INCLUDE_PLUGINS gives the Cluster its plugin', () => {
    expect(checkBackupPrerequisites(backup(), cluster({}), [BARMAN])).toEqual([]);
  });

  test('INCLUDE_PLUGINS does not re-enable an entry written with enabled: false', () => {
    expect(checkBackupPrerequisites(backup(), cluster({ plugins: [{ name: BARMAN, enabled: false }] }), [BARMAN]).map((i) => i.message)).toEqual([
      `'${BARMAN}' has enabled: false in Cluster 'pg'; disabled plugins are not loaded, so the backup finds no such plugin`,
    ]);
  });

  test('a plugin absent from the Cluster is not loaded', () => {
    expect(checkBackupPrerequisites(backup(), cluster({ plugins: [{ name: 'other.example.com' }] }))[0].message).toBe(
      `'${BARMAN}' is not in Cluster 'pg' spec.plugins; only the Cluster's enabled plugins are loaded, so the backup finds no such plugin`,
    );
  });

  test('a hibernated Cluster, and the in-tree methods without their Cluster sections', () => {
    expect(checkBackupPrerequisites(backup(), cluster({ plugins: [{ name: BARMAN }] }, { 'cnpg.io/hibernation': 'on' })).length).toBe(1);
    expect(checkBackupPrerequisites(backup({}), cluster({ plugins: [{ name: BARMAN }] }))[0].message).toBe(
      "is barmanObjectStore (the CRD default) but Cluster 'pg' has no spec.backup; the Backup fails",
    );
    expect(checkBackupPrerequisites(backup({ method: 'volumeSnapshot' }), cluster({ backup: {} }))[0].message).toContain('no spec.backup.volumeSnapshot');
    expect(checkBackupPrerequisites(backup({ method: 'volumeSnapshot' }), cluster({ backup: { volumeSnapshot: {} } }))).toEqual([]);
  });
});
