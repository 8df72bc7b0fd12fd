/*
 * CNPGI314: the Cluster webhook's validateTablespaceStorageSize.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateTablespaceStorageSize refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI314',
  name: 'cluster-tablespace-storage-size',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A tablespace of a Cluster has a `storage.size` that is no Kubernetes quantity, or neither a size nor a storage request in its `storage.pvcTemplate`.',
  why: "The Cluster webhook refuses it, naming the field `spec.tablespaces[i].size` (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateTablespaceStorageSize, validateStorageConfigurationSize): the operator cannot create the tablespace's volume.",
  fix: "Set the tablespace's `storage.size`, e.g. `10Gi`, or a storage request in its `storage.pvcTemplate`.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateTablespaceStorageSize'),
};
