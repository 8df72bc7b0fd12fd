/*
 * CNPGI039, CNPGI040: the plugin names that Clusters, Backups and ScheduledBackups use, against
 * the plugins the operator would discover.
 */
import { objectsOf, asString, asObject } from '../../manifests/json';
import { Manifest } from '../../manifests/manifest-index';
import type { DoctorModel } from '../model';
import { Report, defineFamily } from './rule';

const CNPG_GROUP = 'postgresql.cnpg.io';

/** The plugin-name rules of Clusters, Backups and ScheduledBackups. */
export const pluginReferences = defineFamily({
  rules: [
    {
      id: 'CNPGI039',
      name: 'plugin-entry-name',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A `spec.plugins[]` or `externalClusters[].plugin` entry of a Cluster has no `name`.',
      why: 'The CRD requires `name` on a plugin entry (cloudnative-pg v1.30.0 api/v1/cluster_types.go PluginConfiguration), so the API server rejects the Cluster.',
      fix: 'Set `name` to the plugin name.',
      kinds: ['postgresql.cnpg.io/Cluster'],
    },
    {
      id: 'CNPGI040',
      name: 'plugin-not-discovered',
      severities: [
        { severity: 'error', when: "no plugin of that name is discovered and every sidecar's name is known" },
        { severity: 'warning', when: "a sidecar plugin's name cannot be read from the manifests (pass `--sidecar-plugin CONTAINER=NAME`)" },
      ],
      what: "A Cluster (`spec.plugins`, `externalClusters[].plugin`), Backup or ScheduledBackup names a plugin that is not discovered (warning when a sidecar's socket name cannot be read from the manifests).",
      why: 'The Cluster stops in phase "Cluster cannot proceed to reconciliation due to an unknown plugin being required" (cloudnative-pg v1.30.0 internal/controller/cluster_controller.go ClusterReconciler.Reconcile, api/v1/cluster_types.go PhaseUnknownPlugin); a Backup fails.',
      fix: 'Fix the name, deploy the plugin, name a sidecar with `--sidecar-plugin <container>=<name>`, or pass `--known-plugin <name>` if it is installed elsewhere.',
      kinds: ['postgresql.cnpg.io/Cluster', 'postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup', 'Service', 'Deployment'],
    },
  ],
  check(model, report) {
    for (const m of model.index.ofKind('Cluster', CNPG_GROUP)) {
      const spec = asObject(m.raw.spec);
      if (!spec) continue;
      for (const { item, i } of objectsOf(spec.plugins)) {
        const path = `spec.plugins[${i}]`;
        const name = asString(item.name);
        if (!name) {
          report('CNPGI039', 'error', m, 'a plugin entry has no name; the API server rejects the Cluster', 'set name to the plugin name', `${path}.name`);
        } else if (item.enabled !== false) {
          checkName(report, model, m, name, `${path}.name`, 'Cluster');
        }
      }
      for (const { item, i } of objectsOf(spec.externalClusters)) {
        const plugin = asObject(item.plugin);
        if (!plugin) continue;
        const path = `spec.externalClusters[${i}]`;
        const label = asString(item.name) ? `external cluster '${item.name}'` : `spec.externalClusters[${i}]`;
        const name = asString(plugin.name);
        if (!name)
          report('CNPGI039', 'error', m, `${label} has a plugin without a name; the API server rejects the Cluster`, 'set plugin.name', `${path}.plugin.name`);
        else if (plugin.enabled !== false) checkName(report, model, m, name, `${path}.plugin.name`, `Cluster ${label}`);
      }
    }
    for (const [kind, scheduled] of [
      ['Backup', false],
      ['ScheduledBackup', true],
    ] as const) {
      for (const m of model.index.ofKind(kind, CNPG_GROUP)) {
        const spec = asObject(m.raw.spec);
        if (!spec || (asString(spec.method) ?? 'barmanObjectStore') !== 'plugin') continue;
        const name = asString(asObject(spec.pluginConfiguration)?.name);
        if (name) checkName(report, model, m, name, 'spec.pluginConfiguration.name', scheduled ? 'ScheduledBackup' : 'Backup');
      }
    }
  },
});

function checkName(report: Report<'CNPGI039' | 'CNPGI040'>, ctx: DoctorModel, m: Manifest, name: string, path: string, usedBy: string): void {
  if (ctx.discovered.has(name)) return;
  const unnamed = ctx.unnamedSidecars();
  const known = [...ctx.discovered.keys()];
  const close = known.find((k) => k.toLowerCase() === name.toLowerCase() || k.replace(/\.$/, '') === name.replace(/\.$/, ''));
  const listed = known.length ? ` (discovered: ${known.join(', ')})` : ' (no plugin is discovered in the input)';
  const ignored = ctx.pluginServices.filter((s) => s.pluginName === name && !(s.valid && s.inOperatorNamespace)).map((s) => s.service.ref);
  const why = ignored.length ? `; ${ignored.join(', ')} labels this name but the operator ignores it (see its findings)` : '';
  if (unnamed.length > 0) {
    report(
      'CNPGI040',
      'warning',
      m,
      `${usedBy} names plugin '${name}', which is not discovered${listed}${why}; it may be the socket of sidecar ${unnamed.map((s) => `'${s.containerName}' in ${s.deployment.ref}`).join(', ')}, whose name the manifests do not show (the socket file is named by the plugin itself)`,
      `if that sidecar serves '${name}', pass --sidecar-plugin ${unnamed[0].containerName}=${name} (sidecarPlugins); otherwise fix the name or deploy the plugin`,
      path,
    );
    return;
  }
  report(
    'CNPGI040',
    'error',
    m,
    `${usedBy} names plugin '${name}', which is not discovered${listed}${why}; the operator stops with "unknown plugin being required"`,
    close
      ? `use '${close}'`
      : `fix the name, deploy the plugin in the operator namespace, or pass --known-plugin ${name} (knownPlugins) if it is installed elsewhere`,
    path,
  );
}
