/*
 * CNPGI012: the plugin label or an annotation is empty, or not a string.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS, PLUGIN_KEY_IDS } from '../../model/plugin-services';
import { KEY_FIX, RECONCILE, homePath, keyKind } from './plugin-keys';

/** The plugin label or a plugin annotation is empty or not a string. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI012',
  name: 'plugin-empty-value',
  severities: [
    { severity: 'error', when: 'the label or a required annotation is empty, or any plugin key holds a non-string value' },
    { severity: 'warning', when: 'the optional `cnpg.io/pluginServerName` is empty (the short Service name is verified instead)' },
  ],
  what: 'The plugin label or a plugin annotation is empty or not a string.',
  why: `The operator skips a plugin Service whose label or required annotation is empty, with an info log (${RECONCILE} PluginReconciler.Reconcile and PluginReconciler.reconcile), and falls back to the Service name for an empty \`pluginServerName\` (same function); the API server rejects non-string label and annotation values.`,
  fix: 'Give it a non-empty string value (quote numbers in YAML).',
  kinds: ['Service'],
  check(model, report) {
    for (const info of model.pluginServices) {
      const svc = info.service;
      for (const id of PLUGIN_KEY_IDS) {
        const { present, value: v } = info.keys[id];
        const k = PLUGIN_KEYS[id];
        const path = `${homePath(id)}.${k}`;
        // a port of another type is CNPGI013's
        if (!present || (id === 'port' && typeof v !== 'string')) continue;
        if (typeof v !== 'string') {
          report(
            'error',
            svc,
            `\`${k}\` is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`}, not a string; the API server rejects non-string ${keyKind(id)} values`,
            KEY_FIX[id],
            path,
          );
        } else if (v.length === 0 && id === 'serverName') {
          report(
            'warning',
            svc,
            `\`${k}\` is empty; the operator verifies the short Service name '${svc.name}' instead`,
            'remove the annotation or give it the name in the server certificate',
            path,
          );
        } else if (v.length === 0) {
          report('error', svc, `\`${k}\` is empty; the operator skips a plugin Service whose ${keyKind(id)} is empty`, KEY_FIX[id], path);
        }
      }
    }
  },
};
