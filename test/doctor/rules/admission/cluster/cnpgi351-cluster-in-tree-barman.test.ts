import { findingsOf, reported } from './cluster-warnings';

const RULE = 'CNPGI351';
const STORE = { destinationPath: 's3://bucket/pg', s3Credentials: { inheritFromIAMRole: true } };
const QUOTE = (paths: string) =>
  'the Cluster webhook warns ("Native support for Barman Cloud backups and recovery is deprecated and will be completely removed in CloudNativePG 1.31.0. ' +
  `Found usage in: ${paths}. Please migrate existing clusters to the new Barman Cloud Plugin to ensure a smooth transition.")`;
const FIX =
  'move backups and recovery to the Barman Cloud plugin (an ObjectStore, the plugin in spec.plugins and in the external clusters) ' +
  'before upgrading to CloudNativePG 1.31.0, which removes the in-tree support';

describe('CNPGI351 cluster-in-tree-barman', () => {
  test('trips: backups through spec.backup.barmanObjectStore', () => {
    const f = findingsOf(RULE, (s) => {
      s.plugins[0].isWALArchiver = false;
      s.backup = { barmanObjectStore: STORE };
    });
    expect(reported(f)).toEqual([
      {
        severity: 'warning',
        path: 'spec.backup.barmanObjectStore',
        message: `uses the in-tree Barman Cloud support; ${QUOTE('spec.backup.barmanObjectStore')}`,
        fix: FIX,
      },
    ]);
  });

  test('trips once for every use, naming them all as the webhook does', () => {
    const f = findingsOf(RULE, (s) => {
      s.plugins[0].isWALArchiver = false;
      s.backup = { barmanObjectStore: STORE };
      s.externalClusters.push({ name: 'old', barmanObjectStore: STORE });
    });
    expect(reported(f)).toEqual([
      {
        severity: 'warning',
        path: 'spec.backup.barmanObjectStore',
        message:
          'uses the in-tree Barman Cloud support (spec.backup.barmanObjectStore, spec.externalClusters[1].barmanObjectStore); ' +
          QUOTE('spec.backup.barmanObjectStore, spec.externalClusters.1.barmanObjectStore'),
        fix: FIX,
      },
    ]);
  });

  test('trips: recovery from an external cluster with a barmanObjectStore, even an empty one', () => {
    const f = findingsOf(RULE, (s) => s.externalClusters.push({ name: 'old', barmanObjectStore: {} }));
    expect(reported(f)).toEqual([
      {
        severity: 'warning',
        path: 'spec.externalClusters[1].barmanObjectStore',
        message: `uses the in-tree Barman Cloud support; ${QUOTE('spec.externalClusters.1.barmanObjectStore')}`,
        fix: FIX,
      },
    ]);
  });

  test('beside a WAL archiver plugin, the error of CNPGI042 replaces the warning', () => {
    const f = findingsOf('CNPGI042', (s) => (s.backup = { barmanObjectStore: STORE }));
    expect(f.map((x) => `${x.ruleId} ${x.severity} ${x.path}`)).toEqual(['CNPGI042 error spec.backup.barmanObjectStore']);
    expect(findingsOf(RULE, (s) => (s.backup = { barmanObjectStore: STORE }))).toEqual([]);
  });

  test.each([
    ['plugins only (the fixture)', () => undefined],
    ['a null barmanObjectStore', (s: Record<string, any>) => (s.backup = { barmanObjectStore: null })],
    ['volume snapshot backups', (s: Record<string, any>) => (s.backup = { volumeSnapshot: { className: 'csi' } })],
    [
      'an external cluster with connection parameters',
      (s: Record<string, any>) => s.externalClusters.push({ name: 'src', connectionParameters: { host: 'src' } }),
    ],
  ])('passes: %s', (_what, edit) => {
    expect(findingsOf(RULE, edit)).toEqual([]);
  });
});
