import { findingsOf, reported } from './cluster-warnings';

const RULE = 'CNPGI352';

describe('CNPGI352 cluster-retention-policy-unused', () => {
  test.each([
    ['beside a plugin', { retentionPolicy: '30d' }],
    ['with volume snapshots', { retentionPolicy: '30d', volumeSnapshot: { className: 'csi' } }],
  ])('trips: a retention policy %s', (_what, backup) => {
    expect(reported(findingsOf(RULE, (s) => (s.backup = backup)))).toEqual([
      {
        severity: 'warning',
        path: 'spec.backup.retentionPolicy',
        message:
          "is '30d' but the Cluster has no spec.backup.barmanObjectStore, the only thing that reads it; the Cluster webhook warns " +
          '("Retention policies specified in .spec.backup.retentionPolicy are only used by the in-tree barman-cloud support, which is not being used in this cluster. ' +
          'Please use a backup plugin and migrate this configuration to the plugin configuration"): no backup is ever removed by it',
        fix: "remove spec.backup.retentionPolicy and set the retention in the backup plugin's configuration",
      },
    ]);
  });

  test.each([
    ['no backup section (the fixture)', () => undefined],
    ['a backup section without a policy', (s: Record<string, any>) => (s.backup = { target: 'primary' })],
    ['an empty policy', (s: Record<string, any>) => (s.backup = { retentionPolicy: '' })],
    [
      'a policy with the in-tree object store that reads it',
      (s: Record<string, any>) => (s.backup = { retentionPolicy: '30d', barmanObjectStore: { destinationPath: 's3://bucket/pg' } }),
    ],
  ])('passes: %s', (_what, edit) => {
    expect(findingsOf(RULE, edit)).toEqual([]);
  });
});
