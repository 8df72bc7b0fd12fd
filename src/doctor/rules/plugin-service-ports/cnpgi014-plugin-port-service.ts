/*
 * CNPGI014: the port the operator dials must be a port of the Service.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { dialedPort } from './dialed-port';

/** `cnpg.io/pluginPort` matches no `spec.ports[].port` of the Service. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI014',
  name: 'plugin-port-service',
  severities: [{ severity: 'error', when: 'always' }],
  what: '`cnpg.io/pluginPort` matches no `spec.ports[].port` of the Service.',
  why: 'The operator dials `<service>.<namespace>.svc:<pluginPort>` built from the annotation and never reads `spec.ports` (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile); nothing answers on a port the Service does not expose.',
  fix: 'Make the annotation equal to a Service port.',
  kinds: ['Service'],
  check(model, report) {
    for (const info of model.pluginServices) {
      const dialed = dialedPort(info);
      if (!dialed || dialed.match) continue;
      const { port, ports } = dialed;
      const list =
        ports
          .map(({ item }) => item.port)
          .filter((p) => p !== undefined)
          .join(', ') || 'none';
      report(
        'error',
        info.service,
        `\`${PLUGIN_KEYS.port}\` is ${port} but the Service exposes port(s) ${list}; the operator dials the annotation's port and never reads spec.ports`,
        ports.length === 1 && typeof ports[0].item.port === 'number'
          ? `set \`${PLUGIN_KEYS.port}: "${ports[0].item.port}"\`, or expose port ${port}`
          : `expose port ${port} in spec.ports`,
        `metadata.annotations.${PLUGIN_KEYS.port}`,
      );
    }
  },
};
