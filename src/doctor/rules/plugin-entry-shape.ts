/*
 * CNPGI048, CNPGI049: plugin entries the API server would reject or prune. They restate the
 * CRD schema, and may become findings of the schema layer once it exists.
 */
import { Json, Manifest, asObject, objectsOf } from '../manifest-index';
import { Report, defineFamily } from './rule';

const PLUGIN_FIELDS = ['name', 'enabled', 'isWALArchiver', 'parameters'];
const TYPES = 'cloudnative-pg v1.30.0 api/v1/cluster_types.go PluginConfiguration';

/** The shape rules of plugin entries. */
export const pluginEntryShape = defineFamily({
  rules: [
    {
      id: 'CNPGI048', name: 'plugin-parameters-strings',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A plugin\'s `parameters` hold a value that is not a string.',
      why: `The CRD declares \`parameters\` a map of strings (${TYPES}, cloudnative-pg v1.30.0 api/v1/backup_types.go BackupPluginConfiguration): the API server rejects numbers and booleans.`,
      fix: 'Quote the value, e.g. `"true"` or `"5"`.',
      kinds: ['postgresql.cnpg.io/Cluster', 'postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup'],
    },
    {
      id: 'CNPGI049', name: 'plugin-unknown-field',
      severities: [{ severity: 'error', when: 'always: the field has no effect' }],
      what: 'A `spec.plugins[]` or `externalClusters[].plugin` entry has a field the CRD does not know, e.g. `isWalArchiver`.',
      why: `The CRD knows \`name\`, \`enabled\`, \`isWALArchiver\`, \`parameters\` only (${TYPES}); the API server prunes anything else, so \`isWalArchiver: true\` silently leaves the Cluster without WAL archiving.`,
      fix: 'Use the CRD spelling: `name`, `enabled`, `isWALArchiver`, `parameters`.',
      kinds: ['postgresql.cnpg.io/Cluster'],
    },
  ],
  check(model, report) {
    for (const m of model.index.ofKind('Cluster', 'postgresql.cnpg.io')) {
      const spec = asObject(m.raw.spec);
      if (!spec) continue;
      for (const { item, i } of objectsOf(spec.plugins)) {
        checkPluginFields(report, m, item, `spec.plugins[${i}]`);
        checkParameters(report, m, item.parameters, `spec.plugins[${i}].parameters`);
      }
      for (const { item, i } of objectsOf(spec.externalClusters)) {
        const plugin = asObject(item.plugin);
        if (!plugin) continue;
        checkPluginFields(report, m, plugin, `spec.externalClusters[${i}].plugin`);
        checkParameters(report, m, plugin.parameters, `spec.externalClusters[${i}].plugin.parameters`);
      }
    }
    for (const kind of ['Backup', 'ScheduledBackup']) {
      for (const m of model.index.ofKind(kind, 'postgresql.cnpg.io')) {
        const config = asObject(asObject(m.raw.spec)?.pluginConfiguration);
        if (config) checkParameters(report, m, config.parameters, 'spec.pluginConfiguration.parameters');
      }
    }
  },
});

function checkParameters(report: Report<'CNPGI048'>, m: Manifest, parameters: unknown, path: string): void {
  const p = asObject(parameters);
  if (parameters === undefined || parameters === null) return;
  if (!p) {
    report('CNPGI048', 'error', m, 'parameters must be a map of strings; the API server rejects the object', 'write parameters as key: "value" pairs', path);
    return;
  }
  for (const [k, v] of Object.entries(p)) {
    if (typeof v === 'string') continue;
    report('CNPGI048', 'error', m, `parameter '${k}' is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`}; the CRD declares a map of strings, so the API server rejects the object`,
      typeof v === 'number' || typeof v === 'boolean' ? `quote it: ${k}: "${String(v)}"` : `write '${k}' as a string`, `${path}.${k}`);
  }
}

function checkPluginFields(report: Report<'CNPGI049'>, m: Manifest, entry: Json, path: string): void {
  for (const k of Object.keys(entry)) {
    if (PLUGIN_FIELDS.includes(k)) continue;
    const meant = PLUGIN_FIELDS.find((f) => f.toLowerCase() === k.toLowerCase());
    report('CNPGI049', 'error', m, `unknown field '${k}'${meant ? ` (the field is spelled '${meant}')` : ''}; the API server prunes it, so it has no effect`,
      meant ? `rename it to '${meant}'` : `remove it; the fields are ${PLUGIN_FIELDS.join(', ')}`, `${path}.${k}`);
  }
}
