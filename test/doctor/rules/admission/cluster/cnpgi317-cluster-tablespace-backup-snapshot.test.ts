/*
 * CNPGI317 cluster-tablespace-backup-snapshot: the Cluster webhook's validateTablespaceBackupSnapshot as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI317';

describe('CNPGI317 cluster-tablespace-backup-snapshot', () => {
  test('trips: a class for a tablespace the Cluster does not have', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          tablespaces: [{ name: 'data', storage: { size: '1Gi' } }],
          backup: { volumeSnapshot: { className: 'csi', tablespaceClassName: { data: 'csi', indexes: 'csi' } } },
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.backup.volumeSnapshot.tablespaceClassName.indexes',
        message:
          "the Cluster webhook refuses a snapshot class for tablespace 'indexes' (\"specified the VolumeSnapshot backup configuration for the tablespace: indexes, but it can't be found in the '.spec.tablespaces' stanza\", at spec.backup.volumeSnapshot.tablespaceClassName): the Cluster has no tablespace of that name",
        fix: 'name a tablespace of spec.tablespaces (names are case sensitive here), or remove the entry',
      },
    ]);
  });
  test('trips: a class for a tablespace in another case', () => {
    expect(
      findingsOf(
        RULE,
        cluster({ tablespaces: [{ name: 'data', storage: { size: '1Gi' } }], backup: { volumeSnapshot: { tablespaceClassName: { Data: 'csi' } } } }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.backup.volumeSnapshot.tablespaceClassName.Data',
        message:
          "the Cluster webhook refuses a snapshot class for tablespace 'Data' (\"specified the VolumeSnapshot backup configuration for the tablespace: Data, but it can't be found in the '.spec.tablespaces' stanza\", at spec.backup.volumeSnapshot.tablespaceClassName): the Cluster has no tablespace of that name",
        fix: 'name a tablespace of spec.tablespaces (names are case sensitive here), or remove the entry',
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'a class for each tablespace',
      {
        tablespaces: [
          { name: 'data', storage: { size: '1Gi' } },
          { name: 'indexes', storage: { size: '1Gi' } },
        ],
        backup: { volumeSnapshot: { tablespaceClassName: { data: 'csi', indexes: 'csi' } } },
      },
      {},
    ],
    ['no tablespace classes', { tablespaces: [{ name: 'data', storage: { size: '1Gi' } }], backup: { volumeSnapshot: { className: 'csi' } } }, {}],
    ['an empty map', { backup: { volumeSnapshot: { tablespaceClassName: {} } } }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
