/*
 * CNPGI350: the Cluster webhook's warning about the node maintenance window.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster that sets `spec.nodeMaintenanceWindow`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI350',
  name: 'cluster-node-maintenance-window',
  severities: [{ severity: 'warning', when: '`spec.nodeMaintenanceWindow` is set.' }],
  what: 'A Cluster sets `spec.nodeMaintenanceWindow`.',
  why: 'The Cluster webhook accepts it with a warning that points to `spec.enablePDB` instead (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getMaintenanceWindowsAdmissionWarnings, through getAdmissionWarnings on creation and update).',
  fix: 'Remove `spec.nodeMaintenanceWindow` and control node drains with `spec.enablePDB`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'getMaintenanceWindowsAdmissionWarnings'),
};
