/*
 * CNPGI311: the Cluster webhook's validateStorageSize.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateStorageSize refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI311',
  name: 'cluster-storage-size',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.storage.size` is no Kubernetes quantity, or the Cluster has neither a size nor a storage request in `spec.storage.pvcTemplate` (no `storage` at all included).",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateStorageSize, validateStorageConfigurationSize; k8s.io/apimachinery resource.ParseQuantity): the operator cannot create the data volume.',
  fix: 'Set `spec.storage.size`, e.g. `10Gi`, or a storage request in `spec.storage.pvcTemplate.resources.requests`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateStorageSize'),
};
