/*
 * CNPGI385: the Pooler webhook's warning about the deprecated PodMonitor fields.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Pooler that asks for the PodMonitor the operator generates. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI385',
  name: 'pooler-deprecated-monitoring',
  severities: [{ severity: 'warning', when: 'always: the webhook accepts the Pooler with a warning' }],
  what: 'A Pooler sets `monitoring.enablePodMonitor`, `podMonitorMetricRelabelings` or `podMonitorRelabelings`.',
  why: 'The Pooler webhook warns that these fields are deprecated (cloudnative-pg v1.30.0 internal/webhook/v1/pooler_webhook.go PoolerCustomValidator.validateDeprecatedMonitoringFields; api/v1/pooler_types.go PoolerMonitoringConfiguration); on create it drops its warnings when it also refuses the Pooler.',
  fix: "Turn the generated PodMonitor off and write a PodMonitor that selects the Pooler's pods.",
  kinds: ['postgresql.cnpg.io/Pooler'],
  check: reportAdmission('Pooler', 'validateDeprecatedMonitoringFields'),
};
