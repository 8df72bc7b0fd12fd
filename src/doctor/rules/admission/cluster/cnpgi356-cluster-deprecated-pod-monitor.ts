/*
 * CNPGI356: the Cluster webhook's warnings about the PodMonitor the operator manages.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster that asks the operator for a PodMonitor, or relabels it. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI356',
  name: 'cluster-deprecated-pod-monitor',
  severities: [
    { severity: 'warning', when: '`spec.monitoring.enablePodMonitor` is true, or `podMonitorMetricRelabelings` / `podMonitorRelabelings` are not empty.' },
  ],
  what: 'A Cluster sets `spec.monitoring.enablePodMonitor: true`, `podMonitorMetricRelabelings` or `podMonitorRelabelings`.',
  why: 'The Cluster webhook accepts them with a warning: these fields are deprecated and will be removed (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getDeprecatedMonitoringFieldsWarnings, through getAdmissionWarnings on creation and update).',
  fix: "Create a PodMonitor of your own for the Cluster's instances and drop these fields.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'getDeprecatedMonitoringFieldsWarnings'),
};
