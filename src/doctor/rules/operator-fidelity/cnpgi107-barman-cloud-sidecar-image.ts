/*
 * CNPGI107: the Barman Cloud plugin's operator Deployment needs SIDECAR_IMAGE.
 */
import { checkBarmanCloudDeployment } from '../../../checks/barman-cloud';
import { reportedPluginName } from '../../../checks/plugin-identity';
import { asArray, asString } from '../../../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../../../manifests/known-plugins';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { podOf, reportIssues } from './fidelity-inputs';

/** The Barman Cloud plugin Deployment lacks SIDECAR_IMAGE. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI107',
  name: 'barman-cloud-sidecar-image',
  severities: [
    { severity: 'error', when: 'otherwise' },
    { severity: 'warning', when: 'when an unknown envFrom may set it' },
  ],
  what: 'The Barman Cloud plugin Deployment lacks SIDECAR_IMAGE.',
  why: 'plugin-barman-cloud v0.14.0 internal/cmd/operator/main.go NewCmd.',
  fix: 'Set SIDECAR_IMAGE.',
  kinds: ['Deployment'],
  check(model, report) {
    for (const d of model.index.ofKind('Deployment')) {
      for (const c of podOf(d).containers) {
        if (reportedPluginName(asString(c.image) ?? '') === BARMAN_CLOUD_PLUGIN_NAME && asArray(c.args).includes('operator')) {
          reportIssues(report, d, checkBarmanCloudDeployment(c, asArray(c.envFrom).length > 0));
        }
      }
    }
  },
};
