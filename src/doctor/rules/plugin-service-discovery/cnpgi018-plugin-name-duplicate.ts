/*
 * CNPGI018: which of two plugin Services of one name the operator keeps.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import type { PluginServiceInfo } from '../../model/plugin-services';
import { PLUGIN_KEYS } from '../../model/plugin-services';

/** Two Services in the operator namespace carry the same `cnpg.io/pluginName`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI018',
  name: 'plugin-name-duplicate',
  severities: [{ severity: 'warning', when: 'always: it works until one of the Services is deleted' }],
  what: 'Two Services in the operator namespace carry the same `cnpg.io/pluginName`.',
  why: 'The operator registers one connection per plugin name, and each reconciled Service replaces the previous one (cloudnative-pg v1.30.0 internal/cnpi/plugin/repository/setup.go data.RegisterRemotePlugin and data.setPluginProtocol), and deleting either Service forgets the name although the other still exists (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.handleDeletion, internal/cnpi/plugin/repository/setup.go data.ForgetPlugin).',
  fix: 'Give each plugin a distinct name, or delete the extra Service.',
  kinds: ['Service'],
  check(model, report) {
    const byName = new Map<string, PluginServiceInfo[]>();
    for (const info of model.pluginServices) {
      if (!info.valid || !info.inOperatorNamespace) continue;
      const list = byName.get(info.pluginName!) ?? [];
      list.push(info);
      byName.set(info.pluginName!, list);
    }
    for (const [name, list] of byName) {
      // two declarations of one Service are one object to the operator (CNPGI117 reports them when they differ)
      const refs = new Set(list.map((o) => o.service.ref));
      if (refs.size < 2) continue;
      for (const info of list) {
        const all = [...refs].filter((ref) => ref !== info.service.ref);
        // a name shared by thousands of Services must not make thousands of thousand-name messages
        const others = all.length > 3 ? `${all.slice(0, 3).join(', ')} and ${all.length - 3} more` : all.join(', ');
        report(
          'warning',
          info.service,
          `plugin name '${name}' is also declared by ${others}; the operator keeps one connection per name (the last Service reconciled wins), and deleting any one of them unregisters '${name}' while the others still exist`,
          'give each plugin its own name, or delete the extra Service',
          `metadata.labels.${PLUGIN_KEYS.name}`,
        );
      }
    }
  },
};
