/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook_test.go as data, storage family:
 * validateStorageSize, validateStorageChange, validateEphemeralVolumeSource, the tablespace
 * checks (through the whole validator, the whole update check and
 * validateTablespaceBackupSnapshot), and the admission warnings of getStorageWarnings.
 *
 * A get...Warnings function returns only warnings, so `errors` is 0 for those cases.
 */
import { AdmissionCase, cluster, JsonObject } from '../case';

/** The Cluster every tablespace test starts from, with its tablespaces. */
function withTablespaces(tablespaces: readonly JsonObject[] | undefined, extra: JsonObject = {}): JsonObject {
  const spec: JsonObject = { instances: 3, storage: { size: '10Gi' }, ...extra };
  return tablespaces === undefined ? spec : { ...spec, tablespaces };
}

function tablespace(name: string, size = '10Gi'): JsonObject {
  return { name, storage: { size } };
}

const CLUSTER1 = { name: 'cluster1' };

export const CLUSTER_STORAGE_CASES: readonly AdmissionCase[] = [
  // validateStorageChange (update)
  {
    id: 'cluster/validateStorageChange/1',
    upstream: { file: 'cluster_webhook_test.go', line: 2268, describe: 'storage configuration validation', it: 'complains if the size is being reduced' },
    function: 'validateStorageChange',
    kind: 'Cluster',
    input: cluster({ storage: { size: '512M' } }),
    old: cluster({ storage: { size: '1G' } }),
    verdict: { errors: 'some' },
  },
  {
    id: 'cluster/validateStorageChange/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 2288,
      describe: 'storage configuration validation',
      it: 'does not complain if nothing has been changed',
    },
    function: 'validateStorageChange',
    kind: 'Cluster',
    input: cluster({ storage: { size: '1G', storageClass: 'one' } }),
    old: cluster({ storage: { size: '1G', storageClass: 'one' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateStorageChange/3',
    upstream: { file: 'cluster_webhook_test.go', line: 2304, describe: 'storage configuration validation', it: 'works fine is the size is being enlarged' },
    function: 'validateStorageChange',
    kind: 'Cluster',
    input: cluster({ storage: { size: '10G' } }),
    old: cluster({ storage: { size: '8G' } }),
    verdict: { errors: 0 },
  },
  // validateStorageSize
  {
    id: 'cluster/validateStorageSize/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4298,
      describe: 'Storage configuration validation > a ClusterSpec is given',
      it: 'produces one error if storage is not set at all',
    },
    function: 'validateStorageSize',
    kind: 'Cluster',
    input: cluster({ storage: {} }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateStorageSize/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4307,
      describe: 'Storage configuration validation > a ClusterSpec is given',
      it: 'succeeds if storage size is set',
    },
    function: 'validateStorageSize',
    kind: 'Cluster',
    input: cluster({ storage: { size: '1G' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateStorageSize/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4318,
      describe: 'Storage configuration validation > a ClusterSpec is given',
      it: 'succeeds if storage is not set but a pvc template specifies storage',
    },
    function: 'validateStorageSize',
    kind: 'Cluster',
    input: cluster({ storage: { pvcTemplate: { resources: { requests: { storage: '1Gi' } } } } }),
    verdict: { errors: 0 },
  },
  // validateEphemeralVolumeSource
  {
    id: 'cluster/validateEphemeralVolumeSource/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4341,
      describe: 'Ephemeral volume configuration validation',
      it: 'succeeds if no ephemeral configuration is present',
    },
    function: 'validateEphemeralVolumeSource',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateEphemeralVolumeSource/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4348,
      describe: 'Ephemeral volume configuration validation',
      it: 'succeeds if ephemeralVolumeSource is set',
    },
    function: 'validateEphemeralVolumeSource',
    kind: 'Cluster',
    input: cluster({ ephemeralVolumeSource: {} }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateEphemeralVolumeSource/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4357,
      describe: 'Ephemeral volume configuration validation',
      it: 'succeeds if ephemeralVolumesSizeLimit.temporaryData is set',
    },
    function: 'validateEphemeralVolumeSource',
    kind: 'Cluster',
    input: cluster({ ephemeralVolumesSizeLimit: { temporaryData: '1Gi' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateEphemeralVolumeSource/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4369,
      describe: 'Ephemeral volume configuration validation',
      it: 'succeeds if ephemeralVolumeSource and ephemeralVolumesSizeLimit.shm are set',
    },
    function: 'validateEphemeralVolumeSource',
    kind: 'Cluster',
    input: cluster({ ephemeralVolumeSource: {}, ephemeralVolumesSizeLimit: { shm: '1Gi' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateEphemeralVolumeSource/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 4382,
      describe: 'Ephemeral volume configuration validation',
      it: 'produces one error if conflicting ephemeral storage options are set',
    },
    function: 'validateEphemeralVolumeSource',
    kind: 'Cluster',
    input: cluster({ ephemeralVolumeSource: {}, ephemeralVolumesSizeLimit: { temporaryData: '1Gi' } }),
    verdict: { errors: 1 },
  },
  // Tablespaces: the whole validator
  {
    id: 'cluster/validate/1',
    upstream: { file: 'cluster_webhook_test.go', line: 5016, describe: 'Tablespaces validation', it: 'should succeed if there is no tablespaces section' },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces(undefined), CLUSTER1),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validate/2',
    upstream: { file: 'cluster_webhook_test.go', line: 5031, describe: 'Tablespaces validation', it: 'should succeed if the tablespaces are ok' },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('my_tablespace')]), CLUSTER1),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validate/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5049,
      describe: 'Tablespaces validation',
      it: 'should produce an error if the tablespace name is too long',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('my_tablespace1my_tablespace2my_tablespace3my_tablespace4my_tablespace5')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validate/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5068,
      describe: 'Tablespaces validation',
      it: 'should produce an error if the tablespace name is reserved by Postgres',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('pg_foo')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validate/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5086,
      describe: 'Tablespaces validation',
      it: 'should produce an error if the tablespace name is not valid',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('my-^&sdf;')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validate/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5105,
      describe: 'Tablespaces validation',
      it: 'should produce an error if there are duplicate tablespaces',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('my_tablespace'), tablespace('my_TAblespace'), tablespace('another')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validate/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5125,
      describe: 'Tablespaces validation',
      it: 'should produce an error when tablespace names collide after sanitization',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('foo_bar'), tablespace('foo$bar')]), CLUSTER1),
    verdict: { errors: 1, details: [{ index: 0, reason: 'FieldValueInvalid', messageContains: ['duplicate volume name'] }] },
  },
  {
    id: 'cluster/validate/8',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5147,
      describe: 'Tablespaces validation',
      it: 'should not produce an error when tablespace names are distinct after sanitization',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('foo_bar'), tablespace('baz_qux')]), CLUSTER1),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validate/9',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5166,
      describe: 'Tablespaces validation',
      it: 'should produce an error if the storage configured for the tablespace is invalid',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('my_tablespace1', '10Gibberish')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validate/10',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5190,
      describe: 'Tablespaces validation',
      it: 'should produce two errors if two tablespaces have errors',
    },
    function: 'validate',
    kind: 'Cluster',
    input: cluster(
      withTablespaces([tablespace('my_tablespace1', '10Gibberish'), tablespace('my_tablespace1my_tablespace2my_tablespace3my_tablespace4my_tablespace5')]),
      CLUSTER1,
    ),
    verdict: { errors: 2 },
  },
  // Tablespaces: the whole update check
  {
    id: 'cluster/validateClusterChanges/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5216,
      describe: 'Tablespaces validation',
      it: 'should produce an error if the tablespaces section is deleted',
    },
    function: 'validateClusterChanges',
    kind: 'Cluster',
    input: cluster({ instances: 3 }, CLUSTER1),
    old: cluster(withTablespaces([tablespace('my-tablespace1')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateClusterChanges/2',
    upstream: { file: 'cluster_webhook_test.go', line: 5242, describe: 'Tablespaces validation', it: 'should produce an error if a tablespace is deleted' },
    function: 'validateClusterChanges',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('my-tablespace1')]), CLUSTER1),
    old: cluster(withTablespaces([tablespace('my-tablespace1'), tablespace('my-tablespace2')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateClusterChanges/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5275,
      describe: 'Tablespaces validation',
      it: 'should produce an error if a tablespace is reduced in size',
    },
    function: 'validateClusterChanges',
    kind: 'Cluster',
    input: cluster(withTablespaces([tablespace('my-tablespace1', '9Gi')]), CLUSTER1),
    old: cluster(withTablespaces([tablespace('my-tablespace1')]), CLUSTER1),
    verdict: { errors: 1 },
  },
  // validateTablespaceBackupSnapshot
  {
    id: 'cluster/validateTablespaceBackupSnapshot/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5312,
      describe: 'Tablespaces validation',
      it: 'should not complain when the backup section refers to a tbs that is defined',
    },
    function: 'validateTablespaceBackupSnapshot',
    kind: 'Cluster',
    input: cluster(
      withTablespaces([tablespace('my-tablespace1', '9Gi')], { backup: { volumeSnapshot: { tablespaceClassName: { 'my-tablespace1': 'random' } } } }),
      CLUSTER1,
    ),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateTablespaceBackupSnapshot/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5342,
      describe: 'Tablespaces validation',
      it: 'should complain when the backup section refers to a tbs that is not defined',
    },
    function: 'validateTablespaceBackupSnapshot',
    kind: 'Cluster',
    input: cluster(
      withTablespaces([tablespace('my-tablespace1', '9Gi')], { backup: { volumeSnapshot: { tablespaceClassName: { 'not-present': 'random' } } } }),
      CLUSTER1,
    ),
    verdict: { errors: 1 },
  },
  // getStorageWarnings
  {
    id: 'cluster/getStorageWarnings/1',
    upstream: { file: 'cluster_webhook_test.go', line: 6569, describe: 'getStorageWarnings', it: 'returns no warnings when storage is properly configured' },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({ storage: { size: '1Gi' } }),
    verdict: { errors: 0, warnings: 0 },
  },
  {
    id: 'cluster/getStorageWarnings/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6580,
      describe: 'getStorageWarnings',
      it: 'returns no warnings when PVC template has storage configured',
    },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({ storage: { pvcTemplate: { resources: { requests: { storage: '1Gi' } } } } }),
    verdict: { errors: 0, warnings: 0 },
  },
  {
    id: 'cluster/getStorageWarnings/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6597,
      describe: 'getStorageWarnings',
      it: 'returns a warning when both storageClass and storageClassName are specified',
    },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({ storage: { storageClass: 'fast-ssd', pvcTemplate: { storageClassName: 'fast-ssd' } } }),
    verdict: {
      errors: 0,
      warnings: 1,
      warningDetails: [
        { index: 0, contains: ['spec.storage.storageClass', 'spec.storage.pvcTemplate.storageClassName', 'spec.storage.storageClass value will be used'] },
      ],
    },
  },
  {
    id: 'cluster/getStorageWarnings/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6616,
      describe: 'getStorageWarnings',
      it: 'returns a warning when both size and storage requests are specified',
    },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({ storage: { size: '1Gi', pvcTemplate: { resources: { requests: { storage: '2Gi' } } } } }),
    verdict: {
      errors: 0,
      warnings: 1,
      warningDetails: [
        { index: 0, contains: ['spec.storage.size', 'spec.storage.pvcTemplate.resources.requests.storage', 'spec.storage.size value will be used'] },
      ],
    },
  },
  {
    id: 'cluster/getStorageWarnings/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6638,
      describe: 'getStorageWarnings',
      it: 'returns multiple warnings when both storage conflicts exist',
    },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({
      storage: { size: '1Gi', storageClass: 'fast-ssd', pvcTemplate: { storageClassName: 'fast-ssd', resources: { requests: { storage: '2Gi' } } } },
    }),
    verdict: {
      errors: 0,
      warnings: 2,
      warningDetails: [
        { index: 0, contains: ['storageClass'] },
        { index: 1, contains: ['size'] },
      ],
    },
  },
  {
    id: 'cluster/getStorageWarnings/6',
    upstream: { file: 'cluster_webhook_test.go', line: 6662, describe: 'getStorageWarnings', it: 'returns warnings for WAL storage configuration conflicts' },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({
      walStorage: { size: '500Mi', storageClass: 'fast-ssd', pvcTemplate: { storageClassName: 'fast-ssd', resources: { requests: { storage: '1Gi' } } } },
    }),
    verdict: {
      errors: 0,
      warnings: 2,
      warningDetails: [
        { index: 0, contains: ['spec.walStorage.storageClass'] },
        { index: 1, contains: ['spec.walStorage.size'] },
      ],
    },
  },
  {
    id: 'cluster/getStorageWarnings/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6686,
      describe: 'getStorageWarnings',
      it: 'returns warnings for both storage and WAL storage conflicts',
    },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({
      storage: { size: '1Gi', storageClass: 'fast-ssd', pvcTemplate: { storageClassName: 'fast-ssd' } },
      walStorage: { size: '500Mi', pvcTemplate: { resources: { requests: { storage: '1Gi' } } } },
    }),
    verdict: {
      errors: 0,
      warnings: 2,
      warningDetails: [
        { index: 0, contains: ['spec.storage'] },
        { index: 1, contains: ['spec.walStorage'] },
      ],
    },
  },
  {
    id: 'cluster/getStorageWarnings/8',
    upstream: { file: 'cluster_webhook_test.go', line: 6715, describe: 'getStorageWarnings', it: 'returns no warnings when WAL storage is nil' },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({ storage: { size: '1Gi' } }),
    verdict: { errors: 0, warnings: 0 },
  },
  {
    id: 'cluster/getStorageWarnings/9',
    upstream: { file: 'cluster_webhook_test.go', line: 6727, describe: 'getStorageWarnings', it: 'returns no warnings when PVC template is nil' },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({ storage: { size: '1Gi' } }),
    verdict: { errors: 0, warnings: 0 },
  },
  {
    id: 'cluster/getStorageWarnings/10',
    upstream: { file: 'cluster_webhook_test.go', line: 6739, describe: 'getStorageWarnings', it: 'returns no warnings when storage requests are zero' },
    function: 'getStorageWarnings',
    kind: 'Cluster',
    input: cluster({ storage: { size: '1Gi', pvcTemplate: { resources: { requests: {} } } } }),
    verdict: { errors: 0, warnings: 0 },
  },
];
