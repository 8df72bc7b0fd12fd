/*
 * The Cluster webhook's check of the CNPG-I plugins a Cluster enables (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validatePluginConfiguration).
 */
import { Json, asArray, asObject, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';

/**
 * validatePluginConfiguration: at most one enabled plugin (`enabled` unset counts as enabled)
 * archives WAL (`isWALArchiver: true`), and none does while the in-tree
 * `spec.backup.barmanObjectStore` archives WAL too (both can be answered). Plugin names are not
 * checked here.
 */
function pluginConfiguration(cluster: Json): CheckIssue[] {
  const archivers = asArray(dig(cluster, 'spec', 'plugins'))
    .map((p) => asObject(p) ?? {})
    .filter((p) => p.enabled !== false && p.isWALArchiver === true)
    .map((p) => asString(p.name) ?? '');
  const listed = archivers.map((n) => `'${n}'`).join(' and ');
  const out: CheckIssue[] = [];
  const objectStore = dig(cluster, 'spec', 'backup', 'barmanObjectStore');
  if (archivers.length > 0 && objectStore !== undefined && objectStore !== null) {
    const which = archivers.length === 1 ? `plugin ${listed} is the WAL archiver` : `plugins ${listed} are WAL archivers`;
    out.push({
      severity: 'error',
      path: 'spec.backup.barmanObjectStore',
      webhookPath: 'spec.plugins',
      message: `${which} and spec.backup.barmanObjectStore is set; the webhook rejects two WAL archiving methods ("Cannot enable a WAL archiver plugin when barmanObjectStore is configured")`,
      fix: 'remove spec.backup.barmanObjectStore (the plugin archives WAL), or isWALArchiver',
    });
  }
  if (archivers.length > 1) {
    out.push({
      severity: 'error',
      path: 'spec.plugins',
      message: `plugins ${listed} all set isWALArchiver; the webhook allows one WAL archiver per Cluster ("Cannot enable more than one WAL archiver plugin")`,
      fix: 'keep isWALArchiver: true on one plugin only',
    });
  }
  return out;
}

/** The plugin check. @internal */
export const CLUSTER_PLUGIN_CHECKS: readonly AdmissionCheck[] = [{ kind: 'Cluster', upstream: 'validatePluginConfiguration', check: pluginConfiguration }];
