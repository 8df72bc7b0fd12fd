/*
 * CNPGI039: every plugin entry of a Cluster needs a name.
 */
import { objectsOf, asString, asObject } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { CNPG_GROUP } from './plugin-uses';

/** A `spec.plugins[]` or `externalClusters[].plugin` entry of a Cluster has no `name`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI039',
  name: 'plugin-entry-name',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A `spec.plugins[]` or `externalClusters[].plugin` entry of a Cluster has no `name`.',
  why: 'The API server accepts such a Cluster: the operator\'s mutating webhook (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go ClusterCustomDefaulter, answered as a JSON patch of the whole defaulted object) writes `name: ""`, because api/v1/cluster_types.go PluginConfiguration.Name has no `omitempty`; the CRD\'s `required: [name]` is checked after mutating admission, so it is met, and no validator checks the name. The operator then asks its plugin repository for the plugin `""` and gets ErrUnknownPlugin (internal/cnpi/plugin/repository/connection.go GetConnection), so the Cluster is not reconciled. Checked against the real API server with those webhooks (test/control-plane).',
  fix: 'Set `name` to the plugin name.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const m of model.index.ofKind('Cluster', CNPG_GROUP)) {
      const spec = asObject(m.raw.spec);
      if (!spec) continue;
      for (const { item, i } of objectsOf(spec.plugins)) {
        if (!asString(item.name))
          report(
            'error',
            m,
            'a plugin entry has no name; the API server stores it as name: "" and the operator finds no such plugin, so the Cluster is not reconciled',
            'set name to the plugin name',
            `spec.plugins[${i}].name`,
          );
      }
      for (const { item, i } of objectsOf(spec.externalClusters)) {
        const plugin = asObject(item.plugin);
        if (!plugin || asString(plugin.name)) continue;
        const label = asString(item.name) ? `external cluster '${item.name}'` : `spec.externalClusters[${i}]`;
        report(
          'error',
          m,
          `${label} has a plugin without a name; the API server stores it as name: "" and the operator finds no such plugin`,
          'set plugin.name',
          `spec.externalClusters[${i}].plugin.name`,
        );
      }
    }
  },
};
