/*
 * CNPGI114: what the API server refuses in a plugin Service's label and target ports.
 */
import { checkPluginServiceNames } from '../../../checks/plugin-wiring';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { labelledPluginServices, reportIssues } from './fidelity-inputs';

/** A plugin label value or a targetPort the API server refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI114',
  name: 'plugin-service-names',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'Plugin label values over 63 characters or badly formed; quoted numeric or invalid named targetPort.',
  why: 'The API server refuses the Service (Kubernetes label-value and IANA_SVC_NAME validation); the label is the plugin name the operator reads (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go Reconcile).',
  fix: 'Shorten the name; write ports as numbers.',
  kinds: ['Service'],
  check(model, report) {
    for (const svc of labelledPluginServices(model)) reportIssues(report, svc, checkPluginServiceNames(svc.raw));
  },
};
