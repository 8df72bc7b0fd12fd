/*
 * Clusters, Backups and ScheduledBackups that use plugins (CNPGI040 to CNPGI049): the webhook
 * rules, the ones it misses, and plugin names that nothing provides.
 */
import { DoctorContext } from './doctor-context';
import { Json, Manifest, asObject, asString, dig, objectsOf } from './manifest-index';

const CNPG_GROUP = 'postgresql.cnpg.io';
const PLUGIN_FIELDS = ['name', 'enabled', 'isWALArchiver', 'parameters'];

function checkName(ctx: DoctorContext, m: Manifest, name: string, path: string, usedBy: string): void {
  if (ctx.discovered.has(name)) return;
  const unnamed = ctx.unnamedSidecars();
  const known = [...ctx.discovered.keys()];
  const close = known.find((k) => k.toLowerCase() === name.toLowerCase() || k.replace(/\.$/, '') === name.replace(/\.$/, ''));
  const listed = known.length ? ` (discovered: ${known.join(', ')})` : ' (no plugin is discovered in the input)';
  const ignored = ctx.pluginServices.filter((s) => s.pluginName === name && !(s.valid && s.inOperatorNamespace)).map((s) => s.service.ref);
  const why = ignored.length ? `; ${ignored.join(', ')} labels this name but the operator ignores it (see its findings)` : '';
  if (unnamed.length > 0) {
    ctx.report('CNPGI040', 'warning', m, `${usedBy} names plugin '${name}', which is not discovered${listed}${why}; it may be the socket of sidecar ${unnamed.map((s) => `'${s.containerName}' in ${s.deployment.ref}`).join(', ')}, whose name the manifests do not show (the socket file is named by the plugin itself)`,
      `if that sidecar serves '${name}', pass --known-plugin ${name} (knownPlugins); otherwise fix the name or deploy the plugin`, path);
    return;
  }
  ctx.report('CNPGI040', 'error', m, `${usedBy} names plugin '${name}', which is not discovered${listed}${why}; the operator stops with "unknown plugin being required"`,
    close ? `use '${close}'` : `fix the name, deploy the plugin in the operator namespace, or pass --known-plugin ${name} (knownPlugins) if it is installed elsewhere`, path);
}

function checkParameters(ctx: DoctorContext, m: Manifest, parameters: unknown, path: string): void {
  const p = asObject(parameters);
  if (parameters === undefined || parameters === null) return;
  if (!p) {
    ctx.report('CNPGI048', 'error', m, 'parameters must be a map of strings; the API server rejects the object', 'write parameters as key: "value" pairs', path);
    return;
  }
  for (const [k, v] of Object.entries(p)) {
    if (typeof v === 'string') continue;
    ctx.report('CNPGI048', 'error', m, `parameter '${k}' is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`}; the CRD declares a map of strings, so the API server rejects the object`,
      typeof v === 'number' || typeof v === 'boolean' ? `quote it: ${k}: "${String(v)}"` : `write '${k}' as a string`, `${path}.${k}`);
  }
}

function checkPluginFields(ctx: DoctorContext, m: Manifest, entry: Json, path: string): void {
  for (const k of Object.keys(entry)) {
    if (PLUGIN_FIELDS.includes(k)) continue;
    const meant = PLUGIN_FIELDS.find((f) => f.toLowerCase() === k.toLowerCase());
    ctx.report('CNPGI049', 'error', m, `unknown field '${k}'${meant ? ` (the field is spelled '${meant}')` : ''}; the API server prunes it, so it has no effect`,
      meant ? `rename it to '${meant}'` : `remove it; the fields are ${PLUGIN_FIELDS.join(', ')}`, `${path}.${k}`);
  }
}

function checkCluster(ctx: DoctorContext, m: Manifest): void {
  const spec = asObject(m.raw.spec);
  if (!spec) return;
  const seen = new Map<string, number>();
  const archivers: string[] = [];
  for (const { item, i } of objectsOf(spec.plugins)) {
    const path = `spec.plugins[${i}]`;
    checkPluginFields(ctx, m, item, path);
    checkParameters(ctx, m, item.parameters, `${path}.parameters`);
    const name = asString(item.name);
    if (!name) {
      ctx.report('CNPGI040', 'error', m, 'a plugin entry has no name; the API server rejects the Cluster', 'set name to the plugin name', `${path}.name`);
      continue;
    }
    if (seen.has(name)) {
      ctx.report('CNPGI046', 'error', m, `plugin '${name}' is listed twice (spec.plugins[${seen.get(name)}] and [${i}]); nothing rejects it, and one entry's settings are silently lost`,
        'merge the two entries into one', `${path}.name`);
    } else {
      seen.set(name, i);
    }
    const enabled = item.enabled !== false;
    if (enabled && item.isWALArchiver === true) archivers.push(name);
    if (enabled) checkName(ctx, m, name, `${path}.name`, 'Cluster');
  }
  if (archivers.length > 1) {
    ctx.report('CNPGI041', 'error', m, `plugins ${archivers.map((a) => `'${a}'`).join(' and ')} all set isWALArchiver; the webhook allows one WAL archiver per Cluster`,
      'keep isWALArchiver: true on one plugin only', 'spec.plugins');
  }
  if (archivers.length > 0 && asObject(dig(spec, 'backup', 'barmanObjectStore'))) {
    ctx.report('CNPGI042', 'error', m, `plugin '${archivers[0]}' is the WAL archiver and spec.backup.barmanObjectStore is set; the webhook rejects two WAL archiving methods`,
      'remove spec.backup.barmanObjectStore (the plugin archives WAL), or isWALArchiver', 'spec.backup.barmanObjectStore');
  }
  for (const { item, i } of objectsOf(spec.externalClusters)) {
    const path = `spec.externalClusters[${i}]`;
    const label = asString(item.name) ? `external cluster '${item.name}'` : `spec.externalClusters[${i}]`;
    const plugin = asObject(item.plugin);
    if (!asObject(item.connectionParameters) && !plugin && !asObject(item.barmanObjectStore)) {
      ctx.report('CNPGI043', 'error', m, `${label} has none of connectionParameters, plugin, barmanObjectStore; the webhook rejects the Cluster`,
        'give it a plugin (e.g. name: barman-cloud.cloudnative-pg.io with parameters.barmanObjectName) or connectionParameters', path);
    }
    if (plugin) {
      checkPluginFields(ctx, m, plugin, `${path}.plugin`);
      checkParameters(ctx, m, plugin.parameters, `${path}.plugin.parameters`);
      const name = asString(plugin.name);
      if (!name) ctx.report('CNPGI040', 'error', m, `${label} has a plugin without a name; the API server rejects the Cluster`, 'set plugin.name', `${path}.plugin.name`);
      else if (plugin.enabled !== false) checkName(ctx, m, name, `${path}.plugin.name`, `Cluster ${label}`);
    }
  }
}

function checkBackup(ctx: DoctorContext, m: Manifest, scheduled: boolean): void {
  const spec = asObject(m.raw.spec);
  if (!spec) return;
  const method = asString(spec.method) ?? 'barmanObjectStore';
  const config = asObject(spec.pluginConfiguration);
  const kind = scheduled ? 'ScheduledBackup' : 'Backup';
  if (config) checkParameters(ctx, m, config.parameters, 'spec.pluginConfiguration.parameters');
  if (method !== 'plugin') {
    if (config) {
      ctx.report('CNPGI047', 'warning', m, `${kind} sets pluginConfiguration but method is '${method}'${spec.method === undefined ? ' (the default)' : ''}; the plugin configuration is ignored`,
        'set method: plugin', 'spec.method');
    }
    return;
  }
  const name = asString(config?.name);
  if (!name) {
    ctx.report(scheduled ? 'CNPGI045' : 'CNPGI044', 'error', m,
      scheduled ? 'ScheduledBackup has method: plugin but no pluginConfiguration.name; its webhook does not check this, and every Backup it creates is rejected'
        : 'Backup has method: plugin but no pluginConfiguration.name; the webhook rejects it',
      'set spec.pluginConfiguration.name to the plugin name', 'spec.pluginConfiguration.name');
    return;
  }
  checkName(ctx, m, name, 'spec.pluginConfiguration.name', kind);
}

/** Runs the Cluster, Backup and ScheduledBackup rules. */
export function checkPostgres(ctx: DoctorContext): void {
  for (const m of ctx.index.ofKind('Cluster', CNPG_GROUP)) checkCluster(ctx, m);
  for (const m of ctx.index.ofKind('Backup', CNPG_GROUP)) checkBackup(ctx, m, false);
  for (const m of ctx.index.ofKind('ScheduledBackup', CNPG_GROUP)) checkBackup(ctx, m, true);
}
