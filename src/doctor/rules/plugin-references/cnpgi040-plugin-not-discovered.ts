/*
 * CNPGI040: the plugin names that Clusters, Backups and ScheduledBackups use, against the
 * plugins the operator would discover.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { pluginUses } from './plugin-uses';

/** A Cluster, Backup or ScheduledBackup names a plugin that is not discovered. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI040',
  name: 'plugin-not-discovered',
  severities: [
    {
      severity: 'error',
      when: "no plugin of that name is discovered, every sidecar's name is known, and the input shows which plugins the operator knows: it holds the operator Deployment, a plugin Service or a sidecar plugin, `--known-plugin` names plugins, or it is complete (`--complete`)",
    },
    {
      severity: 'warning',
      when: "a sidecar plugin's name cannot be read from the manifests (pass `--sidecar-plugin CONTAINER=NAME`), or the input installs no plugin at all (Clusters whose plugins another repository installs; `--known-plugin` or `--complete` make it an error); or a plugin Service of that name is ignored only for its namespace and that namespace or the operator's is only assumed (`--namespace`, `--operator-namespace` make it an error)",
    },
  ],
  what: "A Cluster (`spec.plugins`, `externalClusters[].plugin`), Backup or ScheduledBackup names a plugin that is not discovered (warning when a sidecar's socket name cannot be read from the manifests, or when the input installs no plugin at all).",
  why: 'The Cluster stops in phase "Cluster cannot proceed to reconciliation due to an unknown plugin being required" (cloudnative-pg v1.30.0 internal/controller/cluster_controller.go ClusterReconciler.Reconcile, api/v1/cluster_types.go PhaseUnknownPlugin); a Backup fails. The operator discovers plugins from the Services of its namespace and the sidecars of its Deployment: an input that holds none of them, nor the operator, does not show which plugins exist.',
  fix: 'Fix the name, deploy the plugin, name a sidecar with `--sidecar-plugin <container>=<name>`, or pass `--known-plugin <name>` if it is installed elsewhere.',
  kinds: ['postgresql.cnpg.io/Cluster', 'postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup', 'Service', 'Deployment'],
  check(model, report) {
    for (const { object: m, name, path, usedBy } of pluginUses(model)) {
      if (model.discovered.has(name)) continue;
      const unnamed = model.unnamedSidecars();
      const known = [...model.discovered.keys()];
      const close = known.find((k) => k.toLowerCase() === name.toLowerCase() || k.replace(/\.$/, '') === name.replace(/\.$/, ''));
      const listed = known.length ? ` (discovered: ${known.join(', ')})` : ' (no plugin is discovered in the input)';
      const ignored = model.pluginServices.filter((s) => s.pluginName === name && !(s.valid && s.inOperatorNamespace)).map((s) => s.service.ref);
      const why = ignored.length ? `; ${ignored.join(', ')} labels this name but the operator ignores it (see its findings)` : '';
      if (unnamed.length > 0) {
        report(
          'warning',
          m,
          `${usedBy} names plugin '${name}', which is not discovered${listed}${why}; it may be the socket of sidecar ${unnamed.map((s) => `'${s.containerName}' in ${s.deployment.ref}`).join(', ')}, whose name the manifests do not show (the socket file is named by the plugin itself)`,
          `if that sidecar serves '${name}', pass --sidecar-plugin ${unnamed[0].containerName}=${name} (sidecarPlugins); otherwise fix the name or deploy the plugin`,
          path,
        );
        continue;
      }
      if (!model.showsPlugins) {
        report(
          'warning',
          m,
          `${usedBy} names plugin '${name}', which the input does not install: it holds no operator Deployment, plugin Service or sidecar plugin, so its plugins come from elsewhere; if '${name}' is not installed there, the operator stops with "unknown plugin being required"`,
          `pass --known-plugin ${name} (knownPlugins) if it is installed elsewhere, or --complete (complete: true) if the input is everything that is installed; otherwise deploy the plugin or fix the name`,
          path,
        );
        continue;
      }
      // a Service that would serve the name but is ignored for its namespace alone: the verdict
      // compares that namespace with the operator's, and either may be only assumed
      const outside = model.pluginServices.filter((s) => s.pluginName === name && s.valid && !s.inOperatorNamespace).map((s) => s.service);
      const { severity, note } = outside.length ? model.acrossNamespaces('error', outside, true) : { severity: 'error' as const, note: '' };
      report(
        severity,
        m,
        `${usedBy} names plugin '${name}', which is not discovered${listed}${why}; the operator stops with "unknown plugin being required"${note}`,
        close
          ? `use '${close}'`
          : `fix the name, deploy the plugin in the operator namespace, or pass --known-plugin ${name} (knownPlugins) if it is installed elsewhere`,
        path,
      );
    }
  },
};
