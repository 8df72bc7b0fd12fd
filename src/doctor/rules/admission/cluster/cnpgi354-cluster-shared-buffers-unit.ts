/*
 * CNPGI354: the Cluster webhook's warning about `shared_buffers` without a unit.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `shared_buffers` written as a bare number. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI354',
  name: 'cluster-shared-buffers-unit',
  severities: [{ severity: 'warning', when: '`spec.postgresql.parameters.shared_buffers` is an integer without a unit.' }],
  what: "A Cluster's `spec.postgresql.parameters.shared_buffers` has no unit.",
  why: 'The Cluster webhook accepts it with a warning that future releases will require a unit (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getSharedBuffersWarnings, through getAdmissionWarnings on creation and update); PostgreSQL reads a bare value as blocks of 8kB, not megabytes.',
  fix: 'Write `shared_buffers` with a unit (`kB`, `MB`, `GB`).',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'getSharedBuffersWarnings'),
};
