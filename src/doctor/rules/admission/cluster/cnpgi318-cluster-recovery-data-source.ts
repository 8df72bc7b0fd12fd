/*
 * CNPGI318: the Cluster webhook's validateBootstrapRecoveryDataSource.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateBootstrapRecoveryDataSource refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI318',
  name: 'cluster-recovery-data-source',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Cluster recovering from `spec.bootstrap.recovery.volumeSnapshots` also sets `recovery.backup` or a `backupID`, references something other than a VolumeSnapshot or a PersistentVolumeClaim, or restores a WAL snapshot without `spec.walStorage`.',
  why: 'The Cluster webhook refuses each (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateBootstrapRecoveryDataSource, validateVolumeSnapshotSource), naming the references `spec.bootstrap.recovery.storage` and `spec.bootstrap.recovery.dataSource.walStorage`.',
  fix: 'Recover from the snapshots alone: no `backup` or `backupID`, VolumeSnapshots (`snapshot.storage.k8s.io`) or PersistentVolumeClaims, and `spec.walStorage` for a WAL snapshot.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateBootstrapRecoveryDataSource'),
};
