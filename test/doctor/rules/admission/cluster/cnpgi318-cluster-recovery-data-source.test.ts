/*
 * CNPGI318 cluster-recovery-data-source: the Cluster webhook's validateBootstrapRecoveryDataSource as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI318';

describe('CNPGI318 cluster-recovery-data-source', () => {
  test('trips: a backup beside the snapshots', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            recovery: {
              backup: { name: 'nightly' },
              volumeSnapshots: { storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' } },
            },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.backup',
        message:
          'the Cluster webhook refuses recovery.backup beside recovery.volumeSnapshots ("Recovery from dataSource is not compatible with other types of recovery"): the data comes from the snapshots',
        fix: 'remove recovery.backup to recover from the volume snapshots, or remove volumeSnapshots to recover from the backup',
      },
    ]);
  });
  test('trips: a backupID beside the snapshots', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            recovery: {
              volumeSnapshots: { storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' } },
              recoveryTarget: { backupID: '20240501T120000' },
            },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.recoveryTarget.backupID',
        message:
          'the Cluster webhook refuses backupID \'20240501T120000\' in a recovery from volume snapshots ("Cannot specify a backupID when recovering using a DataSource"): the snapshots are the backup',
        fix: 'remove recoveryTarget.backupID',
      },
    ]);
  });
  test('trips: a Secret as the data source', () => {
    expect(findingsOf(RULE, cluster({ bootstrap: { recovery: { volumeSnapshots: { storage: { kind: 'Secret', name: 'pgdata' } } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.volumeSnapshots.storage',
        message:
          'the Cluster webhook refuses a recovery source of core Secret ("Only VolumeSnapshots and PersistentVolumeClaims are supported", at spec.bootstrap.recovery.storage)',
        fix: 'reference a VolumeSnapshot (apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot) or a PersistentVolumeClaim (no apiGroup, kind: PersistentVolumeClaim)',
      },
    ]);
  });
  test('trips: a WAL snapshot without spec.walStorage', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            recovery: {
              volumeSnapshots: {
                storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' },
                walStorage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgwal' },
              },
            },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.volumeSnapshots.walStorage',
        message:
          'the Cluster webhook refuses a WAL snapshot without spec.walStorage ("A WAL storage configuration is required when recovering using a DataSource for WALs", at spec.bootstrap.recovery.dataSource.walStorage): the WAL volume restored from it is the Cluster\'s WAL storage',
        fix: 'add spec.walStorage (with a size), or remove volumeSnapshots.walStorage',
      },
    ]);
  });
  test('trips: a WAL source of the wrong kind without spec.walStorage', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          bootstrap: {
            recovery: {
              volumeSnapshots: {
                storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' },
                walStorage: { kind: 'ConfigMap', name: 'pgwal' },
              },
            },
          },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.volumeSnapshots.walStorage',
        message:
          'the Cluster webhook refuses a WAL snapshot without spec.walStorage ("A WAL storage configuration is required when recovering using a DataSource for WALs", at spec.bootstrap.recovery.dataSource.walStorage): the WAL volume restored from it is the Cluster\'s WAL storage',
        fix: 'add spec.walStorage (with a size), or remove volumeSnapshots.walStorage',
      },
      {
        severity: 'error',
        path: 'spec.bootstrap.recovery.volumeSnapshots.walStorage',
        message:
          'the Cluster webhook refuses a recovery source of core ConfigMap ("Only VolumeSnapshots and PersistentVolumeClaims are supported", at spec.bootstrap.recovery.dataSource.walStorage)',
        fix: 'reference a VolumeSnapshot (apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot) or a PersistentVolumeClaim (no apiGroup, kind: PersistentVolumeClaim)',
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'a VolumeSnapshot',
      { bootstrap: { recovery: { volumeSnapshots: { storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' } } } } },
      {},
    ],
    [
      'a PersistentVolumeClaim with an empty apiGroup',
      { bootstrap: { recovery: { volumeSnapshots: { storage: { apiGroup: '', kind: 'PersistentVolumeClaim', name: 'pgdata' } } } } },
      {},
    ],
    [
      'a PersistentVolumeClaim without apiGroup',
      { bootstrap: { recovery: { volumeSnapshots: { storage: { kind: 'PersistentVolumeClaim', name: 'pgdata' } } } } },
      {},
    ],
    [
      'a WAL snapshot with spec.walStorage',
      {
        walStorage: { size: '1Gi' },
        bootstrap: {
          recovery: {
            volumeSnapshots: {
              storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' },
              walStorage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgwal' },
            },
          },
        },
      },
      {},
    ],
    [
      'snapshots and a recovery source for the WAL',
      {
        bootstrap: {
          recovery: { source: 'origin', volumeSnapshots: { storage: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'pgdata' } } },
        },
      },
      {},
    ],
    ['a backup without snapshots', { bootstrap: { recovery: { backup: { name: 'nightly' }, recoveryTarget: { backupID: '20240501T120000' } } } }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
