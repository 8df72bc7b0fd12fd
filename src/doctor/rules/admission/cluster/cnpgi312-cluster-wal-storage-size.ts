/*
 * CNPGI312: the Cluster webhook's validateWalStorageSize.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateWalStorageSize refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI312',
  name: 'cluster-wal-storage-size',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.walStorage` has a `size` that is no Kubernetes quantity, or neither a size nor a storage request in its `pvcTemplate`.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateWalStorageSize, validateStorageConfigurationSize): the operator cannot create the WAL volume.',
  fix: 'Set `spec.walStorage.size`, e.g. `2Gi`, or a storage request in its `pvcTemplate`, or remove `walStorage`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateWalStorageSize'),
};
