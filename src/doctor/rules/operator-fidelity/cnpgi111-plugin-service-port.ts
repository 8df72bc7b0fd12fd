/*
 * CNPGI111: the port a headless plugin Service's dial reaches on the pods.
 */
import { checkPluginServicePort } from '../../../checks/service-port';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { labelledPluginServices, reportIssues } from './fidelity-inputs';

/** A headless plugin Service whose annotation port is not a port of its pods. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI111',
  name: 'plugin-service-port',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A headless plugin Service (clusterIP: None) whose annotation port is not a port of its pods: the dial goes to the pod IPs, targetPort is not applied.',
  why: 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go reconcile (dials <svc>.<ns>.svc:<pluginPort>).',
  fix: 'Match the annotation to the right port.',
  kinds: ['Service', 'Deployment'],
  check(model, report) {
    for (const svc of labelledPluginServices(model)) {
      const { deployments, ports } = model.pluginBackends(svc);
      reportIssues(report, svc, checkPluginServicePort(svc.raw, deployments.length ? ports : undefined));
    }
  },
};
