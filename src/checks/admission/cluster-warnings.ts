/*
 * The warnings the Cluster webhook returns with its answer, on creation and on every update
 * (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getAdmissionWarnings): the
 * Cluster is accepted, and `kubectl apply` prints each warning. One check per warning function,
 * each issue of severity `warning`, quoting the webhook's text.
 */
import { parseGoDuration } from '../../manifests/duration';
import { Json, asArray, asObject, asString, dig, stringMap } from '../../manifests/json';
import { parseQuantity } from '../../manifests/quantity';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { isSet } from './go-values';

/** getMaintenanceWindowsAdmissionWarnings: `spec.nodeMaintenanceWindow` is set. */
function maintenanceWindow(cluster: Json): CheckIssue[] {
  if (!isSet(dig(cluster, 'spec', 'nodeMaintenanceWindow'))) return [];
  return [
    {
      severity: 'warning',
      path: 'spec.nodeMaintenanceWindow',
      message:
        'is set; the Cluster webhook warns ("Consider using `.spec.enablePDB` instead of the node maintenance window feature"): ' +
        'the PodDisruptionBudgets that enablePDB controls are the supported way to drain nodes',
      fix: 'remove spec.nodeMaintenanceWindow and control node drains with spec.enablePDB (true by default; false lets a drain evict every instance)',
    },
  ];
}

/**
 * getInTreeBarmanWarnings: `spec.backup.barmanObjectStore` or an external cluster's
 * `barmanObjectStore` is set. The webhook names them all in one warning (paths written
 * `spec.externalClusters.0.barmanObjectStore`); the issue points at the first.
 */
function inTreeBarman(cluster: Json): CheckIssue[] {
  const uses: Array<{ readonly path: string; readonly webhookPath: string }> = [];
  if (isSet(dig(cluster, 'spec', 'backup', 'barmanObjectStore'))) {
    uses.push({ path: 'spec.backup.barmanObjectStore', webhookPath: 'spec.backup.barmanObjectStore' });
  }
  asArray(dig(cluster, 'spec', 'externalClusters')).forEach((e, i) => {
    if (isSet(dig(e, 'barmanObjectStore'))) {
      uses.push({ path: `spec.externalClusters[${i}].barmanObjectStore`, webhookPath: `spec.externalClusters.${i}.barmanObjectStore` });
    }
  });
  if (uses.length === 0) return [];
  return [
    {
      severity: 'warning',
      path: uses[0].path,
      message:
        `uses the in-tree Barman Cloud support${uses.length > 1 ? ` (${uses.map((u) => u.path).join(', ')})` : ''}; the Cluster webhook warns ` +
        '("Native support for Barman Cloud backups and recovery is deprecated and will be completely removed in CloudNativePG 1.31.0. ' +
        `Found usage in: ${uses.map((u) => u.webhookPath).join(', ')}. ` +
        'Please migrate existing clusters to the new Barman Cloud Plugin to ensure a smooth transition.")',
      fix:
        'move backups and recovery to the Barman Cloud plugin (an ObjectStore, the plugin in spec.plugins and in the external clusters) ' +
        'before upgrading to CloudNativePG 1.31.0, which removes the in-tree support',
    },
  ];
}

/** getRetentionPolicyWarnings: `spec.backup.retentionPolicy` without `spec.backup.barmanObjectStore`. */
function retentionPolicy(cluster: Json): CheckIssue[] {
  const backup = asObject(dig(cluster, 'spec', 'backup'));
  const policy = asString(backup?.retentionPolicy) ?? '';
  if (!backup || policy === '' || isSet(backup.barmanObjectStore)) return [];
  return [
    {
      severity: 'warning',
      path: 'spec.backup.retentionPolicy',
      message:
        `is '${policy}' but the Cluster has no spec.backup.barmanObjectStore, the only thing that reads it; the Cluster webhook warns ` +
        '("Retention policies specified in .spec.backup.retentionPolicy are only used by the in-tree barman-cloud support, which is not being used in this cluster. ' +
        'Please use a backup plugin and migrate this configuration to the plugin configuration"): no backup is ever removed by it',
      fix: "remove spec.backup.retentionPolicy and set the retention in the backup plugin's configuration",
    },
  ];
}

/**
 * getStorageWarnings: in `spec.storage` and `spec.walStorage`, a `pvcTemplate` that repeats the
 * storage class or the size the section already sets; the section's own value wins.
 */
function storageOverlap(cluster: Json): CheckIssue[] {
  const issues: CheckIssue[] = [];
  for (const section of ['storage', 'walStorage']) {
    const base = `spec.${section}`;
    const storage = asObject(dig(cluster, 'spec', section));
    const template = asObject(storage?.pvcTemplate);
    if (!storage || !template) continue;
    if (isSet(storage.storageClass) && isSet(template.storageClassName)) {
      issues.push({
        severity: 'warning',
        path: `${base}.storageClass`,
        message:
          `is set together with ${base}.pvcTemplate.storageClassName; the Cluster webhook warns ` +
          `("${base}.storageClass and ${base}.pvcTemplate.storageClassName are both specified, ${base}.storageClass value will be used.")`,
        fix: `keep one of them: remove ${base}.pvcTemplate.storageClassName (storageClass is the one used), or ${base}.storageClass`,
      });
    }
    const request = parseQuantity(dig(template, 'resources', 'requests', 'storage'));
    if ((asString(storage.size) ?? '') !== '' && request !== undefined && request.num !== 0n) {
      issues.push({
        severity: 'warning',
        path: `${base}.size`,
        message:
          `is set together with ${base}.pvcTemplate.resources.requests.storage; the Cluster webhook warns ` +
          `("${base}.size and ${base}.pvcTemplate.resources.requests.storage are both specified, ${base}.size value will be used.")`,
        fix: `keep one of them: remove ${base}.pvcTemplate.resources.requests.storage (size is the one used), or ${base}.size`,
      });
    }
  }
  return issues;
}

/**
 * getSharedBuffersWarnings: `shared_buffers` is a bare integer (what Go's strconv.Atoi reads:
 * an optional sign and decimal digits within int64).
 */
function sharedBuffersUnit(cluster: Json): CheckIssue[] {
  const value = stringMap(dig(cluster, 'spec', 'postgresql', 'parameters')).shared_buffers ?? '';
  if (!/^[+-]?\d+$/.test(value)) return [];
  const pages = BigInt(value);
  if (pages > 9223372036854775807n || pages < -9223372036854775808n) return [];
  const kb = pages * 8n;
  // a bare shared_buffers counts blocks of 8kB (PostgreSQL's default block size), not megabytes
  const same = pages <= 0n ? undefined : kb % 1024n === 0n ? `'${kb / 1024n}MB'` : `'${kb}kB'`;
  return [
    {
      severity: 'warning',
      path: 'spec.postgresql.parameters.shared_buffers',
      message:
        `is '${value}', without a unit; the Cluster webhook warns ("\`shared_buffers\` value '${value}' is missing a unit (e.g., MB, GB). ` +
        'While this is currently allowed, future releases will require an explicit unit. ' +
        `Please update your configuration to specify a valid unit, such as '${value}MB'.")` +
        (same === undefined ? '' : `; PostgreSQL reads a bare shared_buffers as blocks of 8kB, so '${value}' is ${same}`),
      fix:
        same === undefined
          ? 'write shared_buffers as a positive size with a unit, e.g. 256MB'
          : `write the unit: ${same} keeps the size PostgreSQL uses now (the webhook's example, '${value}MB', is 128 times more)`,
    },
  ];
}

/** getMonitoringFieldsWarnings: `spec.monitoring.metricsQueriesTTL` is a duration of 0 (unset is 30s). */
function metricsQueriesTtl(cluster: Json): CheckIssue[] {
  const ttl = asString(dig(cluster, 'spec', 'monitoring', 'metricsQueriesTTL'));
  if (ttl === undefined || parseGoDuration(ttl) !== 0n) return [];
  return [
    {
      severity: 'warning',
      path: 'spec.monitoring.metricsQueriesTTL',
      message:
        `is '${ttl}'; the Cluster webhook warns ("spec.monitoring.metricsQueriesTTL is explicitly set to 0; this disables automatic TTL behavior ` +
        'and can cause heavy load on the PostgreSQL server."): every scrape runs every monitoring query again',
      fix: 'remove spec.monitoring.metricsQueriesTTL (30s by default) or set a positive duration such as 30s',
    },
  ];
}

const RELABELING_QUOTE =
  'is deprecated and will be removed in a future release. Please migrate to manually managing your PodMonitor resources with custom relabeling configurations.';

/** getDeprecatedMonitoringFieldsWarnings: the PodMonitor the operator manages for a Cluster, and its relabelings. */
function deprecatedMonitoring(cluster: Json): CheckIssue[] {
  const monitoring = asObject(dig(cluster, 'spec', 'monitoring'));
  if (!monitoring) return [];
  const issues: CheckIssue[] = [];
  if (monitoring.enablePodMonitor === true) {
    issues.push({
      severity: 'warning',
      path: 'spec.monitoring.enablePodMonitor',
      message:
        'is true; the Cluster webhook warns ("spec.monitoring.enablePodMonitor is deprecated and will be removed in a future release. ' +
        'Please migrate to manually managing your PodMonitor resources. ' +
        'Set this field to false and create a PodMonitor resource for your cluster as described in the documentation.")',
      fix: "set spec.monitoring.enablePodMonitor: false and create a PodMonitor of your own that selects the Cluster's instance pods",
    });
  }
  for (const field of ['podMonitorMetricRelabelings', 'podMonitorRelabelings']) {
    if (asArray(monitoring[field]).length === 0) continue;
    issues.push({
      severity: 'warning',
      path: `spec.monitoring.${field}`,
      message: `is set; the Cluster webhook warns ("spec.monitoring.${field} ${RELABELING_QUOTE}")`,
      fix: `move the relabelings into a PodMonitor of your own and remove spec.monitoring.${field}`,
    });
  }
  return issues;
}

/** The warnings, in the webhook's order (they follow its errors). @internal */
export const CLUSTER_WARNING_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'getMaintenanceWindowsAdmissionWarnings', check: maintenanceWindow },
  { kind: 'Cluster', upstream: 'getInTreeBarmanWarnings', check: inTreeBarman },
  { kind: 'Cluster', upstream: 'getRetentionPolicyWarnings', check: retentionPolicy },
  { kind: 'Cluster', upstream: 'getStorageWarnings', check: storageOverlap },
  { kind: 'Cluster', upstream: 'getSharedBuffersWarnings', check: sharedBuffersUnit },
  { kind: 'Cluster', upstream: 'getMonitoringFieldsWarnings', check: metricsQueriesTtl },
  { kind: 'Cluster', upstream: 'getDeprecatedMonitoringFieldsWarnings', check: deprecatedMonitoring },
];
