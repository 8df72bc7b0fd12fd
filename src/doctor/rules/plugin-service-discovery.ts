/*
 * CNPGI017, CNPGI018: whether the operator watches a plugin Service, and which one it keeps.
 */
import type { DoctorModel, PluginServiceInfo } from '../model';
import { PLUGIN_KEYS } from '../plugin-service-rules';
import { Report, defineFamily } from './rule';

/** The discovery rules of plugin Services. */
export const pluginServiceDiscovery = defineFamily({
  rules: [
    {
      id: 'CNPGI017',
      name: 'plugin-service-namespace',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A plugin Service is outside the operator namespace.',
      why: 'The operator only takes Services in its own namespace (`OPERATOR_NAMESPACE`) as plugins (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService), whatever the docs\' "same namespace" suggests.',
      fix: 'Deploy the plugin (Service, Deployment, Secrets, Certificates) in the operator namespace.',
      kinds: ['Service'],
    },
    {
      id: 'CNPGI018',
      name: 'plugin-name-duplicate',
      severities: [{ severity: 'warning', when: 'always: it works until one of the Services is deleted' }],
      what: 'Two Services in the operator namespace carry the same `cnpg.io/pluginName`.',
      why: 'The operator registers one connection per plugin name, and each reconciled Service replaces the previous one (cloudnative-pg v1.30.0 internal/cnpi/plugin/repository/setup.go data.RegisterRemotePlugin and data.setPluginProtocol), and deleting either Service forgets the name although the other still exists (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.handleDeletion, internal/cnpi/plugin/repository/setup.go data.ForgetPlugin).',
      fix: 'Give each plugin a distinct name, or delete the extra Service.',
      kinds: ['Service'],
    },
  ],
  check(model, report) {
    for (const info of model.pluginServices) {
      if (info.inOperatorNamespace) continue;
      const svc = info.service;
      report(
        'CNPGI017',
        'error',
        svc,
        `plugin Service is in namespace '${svc.namespace}'${svc.namespaceAssumed ? ' (assumed: it has none)' : ''}, but the operator only watches Services in its own namespace '${model.operatorNamespace}'`,
        `deploy the plugin (Service, Deployment, Secrets, Certificates) in '${model.operatorNamespace}', or pass the right --operator-namespace`,
        'metadata.namespace',
      );
    }
    checkDuplicates(model, report);
  },
});

function checkDuplicates(model: DoctorModel, report: Report<'CNPGI018'>): void {
  const byName = new Map<string, PluginServiceInfo[]>();
  for (const info of model.pluginServices) {
    if (!info.valid || !info.inOperatorNamespace) continue;
    const list = byName.get(info.pluginName!) ?? [];
    list.push(info);
    byName.set(info.pluginName!, list);
  }
  for (const [name, list] of byName) {
    if (list.length < 2) continue;
    for (const info of list) {
      const all = list.filter((o) => o !== info).map((o) => o.service.ref);
      // a name shared by thousands of Services must not make thousands of thousand-name messages
      const others = all.length > 3 ? `${all.slice(0, 3).join(', ')} and ${all.length - 3} more` : all.join(', ');
      report(
        'CNPGI018',
        'warning',
        info.service,
        `plugin name '${name}' is also declared by ${others}; the operator keeps one connection per name (the last Service reconciled wins), and deleting any one of them unregisters '${name}' while the others still exist`,
        'give each plugin its own name, or delete the extra Service',
        `metadata.labels.${PLUGIN_KEYS.name}`,
      );
    }
  }
}
