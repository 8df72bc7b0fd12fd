/*
 * CNPGI010: the label that makes a Service a plugin Service.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { PLUGIN_SERVICE, absentKey } from './plugin-keys';

/** A Service with plugin annotations has no `cnpg.io/pluginName` label, or a misspelled one. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI010',
  name: 'plugin-name-label',
  severities: [{ severity: 'error', when: 'always: the Service is not a plugin Service for the operator' }],
  what: 'A Service carries plugin annotations but no `cnpg.io/pluginName` label, or a misspelled one (`cnpg.io/plugin`, wrong case, as an annotation).',
  why: `The operator takes a Service as a plugin only when it has the exact label key (${PLUGIN_SERVICE}); any other key is silently ignored.`,
  fix: 'Add the label `cnpg.io/pluginName: <plugin name>` to `metadata.labels`.',
  kinds: ['Service'],
  check(model, report) {
    for (const info of model.pluginServices) {
      const f = absentKey(info, 'name');
      if (f) report(f.severity, info.service, f.message, f.fix, f.path);
    }
  },
};
