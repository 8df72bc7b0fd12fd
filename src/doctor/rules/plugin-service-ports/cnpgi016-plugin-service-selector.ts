/*
 * CNPGI016: the pods behind a plugin Service's selector.
 */
import { stringMap } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { selectingSpec } from './dialed-port';

/** A plugin Service has no selector, or its selector matches no pod template in the input. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI016',
  name: 'plugin-service-selector',
  severities: [
    { severity: 'error', when: 'the selector matches no pod template of an input said to be complete (`--complete`)' },
    { severity: 'warning', when: 'otherwise: the pods may exist outside the input' },
  ],
  what: 'A plugin Service has no selector, or its selector matches no pod template in the input.',
  why: 'Without ready endpoints the operator cannot connect; since v1.30.0 it follows the EndpointSlices of plugin Services (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go operatorNamespaceServiceEndpointSlicePredicate), so the pods behind the selector are what it talks to.',
  fix: "Select the plugin pods' labels, or include the plugin Deployment in the checked manifests.",
  kinds: ['Service', 'Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
  check(model, report) {
    for (const info of model.pluginServices) {
      const spec = selectingSpec(info);
      if (!spec) continue;
      const selector = stringMap(spec.selector);
      if (Object.keys(selector).length === 0) {
        report(
          'warning',
          info.service,
          'plugin Service has no selector: Kubernetes manages no endpoints for it, so something else must',
          "select the plugin pods' labels in spec.selector",
          'spec.selector',
        );
      } else if (info.templates.length === 0) {
        report(
          model.missingSeverity,
          info.service,
          `selector ${JSON.stringify(selector)} matches no pod template in the input; ${model.complete ? 'the input is said to be complete, so the Service has no endpoints and the operator cannot reach the plugin' : 'the plugin pods must come from elsewhere'}`,
          "check the selector against the plugin Deployment's pod labels, or include the Deployment in the checked manifests",
          'spec.selector',
        );
      }
    }
  },
};
