/*
 * CNPGI013: `cnpg.io/pluginPort` as the operator's `strconv.Atoi` reads it.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_KEYS } from '../../model/plugin-services';
import { KEY_FIX, RECONCILE } from './plugin-keys';

/** `cnpg.io/pluginPort` is not an integer string from 1 to 65535. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI013',
  name: 'plugin-port-integer',
  severities: [{ severity: 'error', when: 'always' }],
  what: '`cnpg.io/pluginPort` is not an integer string from 1 to 65535.',
  why: `The operator parses it with \`strconv.Atoi\`, records an \`InvalidPortAnnotation\` event and retries with backoff (${RECONCILE} PluginReconciler.reconcile); a number out of the TCP range never connects.`,
  fix: 'Write the port as a quoted integer, e.g. `cnpg.io/pluginPort: "9090"`.',
  kinds: ['Service'],
  check(model, report) {
    const k = PLUGIN_KEYS.port;
    const path = `metadata.annotations.${k}`;
    for (const info of model.pluginServices) {
      const svc = info.service;
      const { present, value: v } = info.keys.port;
      if (present && typeof v !== 'string') {
        report(
          'error',
          svc,
          `\`${k}\` is ${v === null ? 'null' : `a ${typeof v}`}, not a string; the API server rejects non-string annotation values`,
          typeof v === 'number' ? `quote it: \`${k}: "${v}"\`` : KEY_FIX.port,
          path,
        );
      } else if (info.portAnnotation !== undefined && info.parsedPort === undefined) {
        report(
          'error',
          svc,
          `\`${k}\` '${info.portAnnotation}' is not an integer; the operator's strconv.Atoi fails and it retries forever (InvalidPortAnnotation)`,
          `write the port number only, e.g. \`${k}: "9090"\``,
          path,
        );
      } else if (info.portAnnotation !== undefined && info.port === undefined) {
        report('error', svc, `\`${k}\` '${info.portAnnotation}' is not a TCP port (1 to 65535)`, 'use the port the plugin listens on, e.g. "9090"', path);
      }
    }
  },
};
