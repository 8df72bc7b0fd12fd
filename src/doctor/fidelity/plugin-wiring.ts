import { FidelityIssue, Obj, arr, at, obj, str, strings } from './issue';

/**
 * Duplicate `spec.plugins` entries: accepted by the Cluster webhook (nothing checks names for
 * uniqueness), except that two enabled entries with `isWALArchiver: true` count as two WAL
 * archivers even when they are the same plugin (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validatePluginConfiguration).
 * @internal
 */
export function checkDuplicatePluginEntries(cluster: Obj): FidelityIssue[] {
  const entries = arr(at(cluster, 'spec', 'plugins')).map((p) => obj(p) ?? {});
  const issues: FidelityIssue[] = [];
  const archivers = entries.filter((p) => p.enabled !== false && p.isWALArchiver === true).map((p) => str(p.name) ?? '');
  if (archivers.length > 1) {
    issues.push({ severity: 'error', path: 'spec.plugins', message: `${archivers.length} enabled entries set isWALArchiver (${archivers.map((n) => `'${n}'`).join(', ')}); the Cluster webhook allows one WAL archiver, even when the entries name the same plugin`, fix: 'keep isWALArchiver: true on one entry only' });
  }
  const seen = new Map<string, number>();
  entries.forEach((p, i) => {
    const name = str(p.name) ?? '';
    const first = seen.get(name);
    if (first === undefined) { seen.set(name, i); return; }
    issues.push({ severity: 'warning', path: `spec.plugins[${i}]`, message: `repeats '${name}' (first at spec.plugins[${first}]); the webhook accepts it, the operator loads the plugin once, and plugins read the parameters of the entry they pick (Barman Cloud the last one)`, fix: 'merge the entries into one' });
  });
  return issues;
}

const IANA_SVC_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9]|-(?!-))*[a-z0-9]$|^[a-z]$/;

/**
 * Class 11, for a plugin Service: what the API server refuses (label values at most 63
 * characters of the label syntax; a string `targetPort` must be a port name, IANA_SVC_NAME).
 * The schema layer of issue 11 covers the general case; this keeps the plugin's own fields.
 * @internal
 */
export function checkPluginServiceNames(service: Obj): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  const label = strings(at(service, 'metadata', 'labels'))['cnpg.io/pluginName'];
  if (label !== undefined && (label.length > 63 || !/^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/.test(label))) {
    issues.push({ severity: 'error', path: 'metadata.labels.cnpg.io/pluginName', message: `'${label}' is not a label value (at most 63 characters of letters, digits, '-', '_', '.', starting and ending alphanumeric); the API server refuses the Service`, fix: 'use a shorter plugin name (it must also be the name the plugin reports)' });
  }
  arr(at(service, 'spec', 'ports')).forEach((p, i) => {
    const target = at(p, 'targetPort');
    if (typeof target !== 'string') return;
    if (/^[0-9]+$/.test(target)) {
      issues.push({ severity: 'error', path: `spec.ports[${i}].targetPort`, message: `"${target}" is a quoted number; a string targetPort is a port name, and the API server refuses a name that has no letter`, fix: `write targetPort: ${target} without quotes` });
    } else if (target.length > 15 || !IANA_SVC_NAME.test(target)) {
      issues.push({ severity: 'error', path: `spec.ports[${i}].targetPort`, message: `'${target}' is not a port name (at most 15 lower-case letters, digits and single '-', with a letter); the API server refuses the Service`, fix: 'use the container port\'s name or its number' });
    }
  });
  return issues;
}
