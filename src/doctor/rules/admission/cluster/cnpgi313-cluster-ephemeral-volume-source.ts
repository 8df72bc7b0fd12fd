/*
 * CNPGI313: the Cluster webhook's validateEphemeralVolumeSource.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateEphemeralVolumeSource refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI313',
  name: 'cluster-ephemeral-volume-source',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Cluster sets both `spec.ephemeralVolumeSource` and `spec.ephemeralVolumesSizeLimit.temporaryData`.',
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateEphemeralVolumeSource): both define the volume of the temporary data.',
  fix: 'Keep one of them: size the volume inside `ephemeralVolumeSource`, or use the size limit alone.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateEphemeralVolumeSource'),
};
