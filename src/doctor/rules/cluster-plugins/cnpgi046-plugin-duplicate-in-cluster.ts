/*
 * CNPGI046: the same plugin listed twice in a Cluster.
 */
import { asObject } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { namedPlugins } from './wal-archivers';

/** A Cluster lists the same plugin name twice in `spec.plugins`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI046',
  name: 'plugin-duplicate-in-cluster',
  severities: [{ severity: 'warning', when: 'always (two enabled WAL archiver entries are also CNPGI041)' }],
  what: 'A Cluster lists the same plugin name twice in `spec.plugins`.',
  why: "Nothing refuses or merges the entries: the webhook checks WAL archivers only (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go ClusterCustomValidator.validatePluginConfiguration) and the names are collected as listed (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go GetPluginConfigurationEnabledPluginNames); the operator loads the plugin once (cloudnative-pg v1.30.0 internal/cnpi/plugin/client/client.go WithPlugins) and a plugin that looks its entry up by name reads one of them (Barman Cloud the last: plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewPlugin), so the Cluster works but the other entry's parameters are silently lost.",
  fix: 'Merge the two entries.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const m of model.index.ofKind('Cluster', 'postgresql.cnpg.io')) {
      const spec = asObject(m.raw.spec);
      if (!spec) continue;
      const seen = new Map<string, number>();
      for (const { name, i } of namedPlugins(spec)) {
        if (!seen.has(name)) {
          seen.set(name, i);
          continue;
        }
        report(
          'warning',
          m,
          `plugin '${name}' is listed twice (spec.plugins[${seen.get(name)}] and [${i}]); the webhook accepts it and the plugin is loaded once, but one entry's settings are silently lost`,
          'merge the two entries into one',
          `spec.plugins[${i}].name`,
        );
      }
    }
  },
};
