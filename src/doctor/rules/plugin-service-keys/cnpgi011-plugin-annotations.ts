/*
 * CNPGI011: the annotations a plugin Service needs, and the optional server name.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_SERVICE, RECONCILE, absentKey } from './plugin-keys';

/** A plugin Service lacks a required annotation, or spells one wrong. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI011',
  name: 'plugin-annotations',
  severities: [
    {
      severity: 'error',
      when: 'a required annotation (`pluginPort`, `pluginClientSecret`, `pluginServerSecret`) is missing, misspelled or set as a label',
    },
    { severity: 'warning', when: 'the optional `cnpg.io/pluginServerName` is misspelled (the short Service name is verified instead)' },
  ],
  what: 'A plugin Service lacks `cnpg.io/pluginPort`, `cnpg.io/pluginClientSecret` or `cnpg.io/pluginServerSecret`, or spells one wrong (a misspelled optional `cnpg.io/pluginServerName` is a warning).',
  why: `The operator requires all three annotations (${PLUGIN_SERVICE}) and skips any other Service with a trace-level log only (${RECONCILE} PluginReconciler.Reconcile), whatever the upstream docs say.`,
  fix: 'Add all three annotations with the exact keys in `metadata.annotations`.',
  kinds: ['Service'],
  check(model, report) {
    for (const info of model.pluginServices) {
      for (const id of ['port', 'clientSecret', 'serverSecret', 'serverName'] as const) {
        const f = absentKey(info, id);
        if (f) report(f.severity, info.service, f.message, f.fix, f.path);
      }
    }
  },
};
