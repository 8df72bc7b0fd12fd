/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook_test.go as data, backup family:
 * validateBackupConfiguration and validateRetentionPolicy (both from barman-cloud v0.5.1
 * pkg/api/webhooks), validatePluginConfiguration, and the admission warnings of
 * getInTreeBarmanWarnings and getRetentionPolicyWarnings.
 *
 * A get...Warnings function returns only warnings, so `errors` is 0 for those cases.
 */
import { AdmissionCase, cluster, JsonObject } from '../case';

const WAL_PLUGIN_1: JsonObject = { name: 'walArchiverPlugin1', enabled: true, isWALArchiver: true };
const WAL_PLUGIN_2: JsonObject = { name: 'walArchiverPlugin2', enabled: true, isWALArchiver: true };

export const CLUSTER_BACKUP_CASES: readonly AdmissionCase[] = [
  {
    id: 'cluster/validateBackupConfiguration/1',
    upstream: { file: 'cluster_webhook_test.go', line: 3546, describe: 'Backup validation', it: "complain if there's no credentials" },
    function: 'validateBackupConfiguration',
    kind: 'Cluster',
    input: cluster({ backup: { barmanObjectStore: {} } }),
    verdict: { errors: 1 },
    note: 'No credentials stanza (s3Credentials, azureCredentials, googleCredentials).',
  },
  {
    id: 'cluster/validateRetentionPolicy/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 3565,
      describe: 'Backup retention policy validation',
      it: "doesn't complain if given policy is not provided",
    },
    function: 'validateRetentionPolicy',
    kind: 'Cluster',
    input: cluster({ backup: {} }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateRetentionPolicy/2',
    upstream: { file: 'cluster_webhook_test.go', line: 3575, describe: 'Backup retention policy validation', it: "doesn't complain if given policy is valid" },
    function: 'validateRetentionPolicy',
    kind: 'Cluster',
    input: cluster({ backup: { retentionPolicy: '90d' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateRetentionPolicy/3',
    upstream: { file: 'cluster_webhook_test.go', line: 3587, describe: 'Backup retention policy validation', it: 'complain if a given policy is not valid' },
    function: 'validateRetentionPolicy',
    kind: 'Cluster',
    input: cluster({ backup: { retentionPolicy: '09' } }),
    verdict: { errors: 1 },
  },
  // validatePluginConfiguration
  {
    id: 'cluster/validatePluginConfiguration/1',
    upstream: { file: 'cluster_webhook_test.go', line: 5701, describe: 'validatePluginConfiguration', it: 'returns no errors if no plugins are enabled' },
    function: 'validatePluginConfiguration',
    kind: 'Cluster',
    input: cluster({ plugins: [] }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validatePluginConfiguration/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5705,
      describe: 'validatePluginConfiguration',
      it: 'returns an error if a WAL archiver plugin is enabled when barmanObjectStore is configured',
    },
    function: 'validatePluginConfiguration',
    kind: 'Cluster',
    input: cluster({ plugins: [WAL_PLUGIN_1], backup: { barmanObjectStore: {} } }),
    verdict: { errors: 1, details: [{ index: 0, messageContains: ['Cannot enable a WAL archiver plugin when barmanObjectStore is configured'] }] },
  },
  {
    id: 'cluster/validatePluginConfiguration/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 5716,
      describe: 'validatePluginConfiguration',
      it: 'returns an error if more than one WAL archiver plugin is enabled',
    },
    function: 'validatePluginConfiguration',
    kind: 'Cluster',
    input: cluster({ plugins: [WAL_PLUGIN_1, WAL_PLUGIN_2] }),
    verdict: { errors: 1, details: [{ index: 0, messageContains: ['Cannot enable more than one WAL archiver plugin'] }] },
  },
  {
    id: 'cluster/validatePluginConfiguration/4',
    upstream: { file: 'cluster_webhook_test.go', line: 5723, describe: 'validatePluginConfiguration', it: 'returns no errors when WAL archiver is enabled' },
    function: 'validatePluginConfiguration',
    kind: 'Cluster',
    input: cluster({ plugins: [WAL_PLUGIN_1] }),
    verdict: { errors: 0 },
  },
  // getInTreeBarmanWarnings
  {
    id: 'cluster/getInTreeBarmanWarnings/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6483,
      describe: 'getInTreeBarmanWarnings',
      it: 'returns no warnings when BarmanObjectStore is not configured',
    },
    function: 'getInTreeBarmanWarnings',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0, warnings: 0 },
  },
  {
    id: 'cluster/getInTreeBarmanWarnings/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6493,
      describe: 'getInTreeBarmanWarnings',
      it: 'returns a warning when BarmanObjectStore is configured in backup',
    },
    function: 'getInTreeBarmanWarnings',
    kind: 'Cluster',
    input: cluster({ backup: { barmanObjectStore: {} } }),
    verdict: { errors: 0, warnings: 1, warningDetails: [{ index: 0, contains: ['spec.backup.barmanObjectStore'] }] },
  },
  {
    id: 'cluster/getInTreeBarmanWarnings/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6506,
      describe: 'getInTreeBarmanWarnings',
      it: 'returns warnings for multiple external clusters with BarmanObjectStore',
    },
    function: 'getInTreeBarmanWarnings',
    kind: 'Cluster',
    input: cluster({ externalClusters: [{ barmanObjectStore: {} }, { barmanObjectStore: {} }] }),
    verdict: {
      errors: 0,
      warnings: 1,
      warningDetails: [{ index: 0, contains: ['spec.externalClusters.0.barmanObjectStore', 'spec.externalClusters.1.barmanObjectStore'] }],
    },
  },
  {
    id: 'cluster/getInTreeBarmanWarnings/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6521,
      describe: 'getInTreeBarmanWarnings',
      it: 'returns warnings for both backup and external clusters with BarmanObjectStore',
    },
    function: 'getInTreeBarmanWarnings',
    kind: 'Cluster',
    input: cluster({ backup: { barmanObjectStore: {} }, externalClusters: [{ barmanObjectStore: {} }] }),
    verdict: {
      errors: 0,
      warnings: 1,
      warningDetails: [{ index: 0, contains: ['spec.backup.barmanObjectStore', 'spec.externalClusters.0.barmanObjectStore'] }],
    },
  },
  // getRetentionPolicyWarnings
  {
    id: 'cluster/getRetentionPolicyWarnings/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6540,
      describe: 'getRetentionPolicyWarnings',
      it: 'returns no warnings if the retention policy is used with the in-tree backup support',
    },
    function: 'getRetentionPolicyWarnings',
    kind: 'Cluster',
    input: cluster({ backup: { retentionPolicy: 'this retention policy', barmanObjectStore: {} } }),
    verdict: { errors: 0, warnings: 0 },
  },
  {
    id: 'cluster/getRetentionPolicyWarnings/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 6554,
      describe: 'getRetentionPolicyWarnings',
      it: 'return a warning when retention policies are declared and not used',
    },
    function: 'getRetentionPolicyWarnings',
    kind: 'Cluster',
    input: cluster({ backup: { retentionPolicy: 'this retention policy' } }),
    verdict: { errors: 0, warnings: 1 },
  },
];
