/*
 * CNPGI105: a plugin Service's label against the name its known image reports.
 */
import { checkPluginIdentity } from '../../../checks/plugin-identity';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { labelledPluginServices, reportIssues } from './fidelity-inputs';

/** A plugin Service label that differs from the name its known image reports. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI105',
  name: 'plugin-identity',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A plugin Service label that differs from the name its known image reports (Barman Cloud, hello-world).',
  why: 'cloudnative-pg v1.30.0 internal/cnpi/plugin/client/client.go getPlugin; plugin-barman-cloud v0.14.0 internal/cnpgi/metadata/constants.go PluginName.',
  fix: 'Label the Service with the reported name.',
  kinds: ['Service', 'Deployment'],
  check(model, report) {
    for (const svc of labelledPluginServices(model)) {
      reportIssues(report, svc, checkPluginIdentity(svc.labels[PLUGIN_KEYS.name], model.pluginBackends(svc).images));
    }
  },
};
