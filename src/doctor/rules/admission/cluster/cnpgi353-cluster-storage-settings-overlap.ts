/*
 * CNPGI353: the Cluster webhook's warnings about a PVC template that repeats a storage setting.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `storage` or `walStorage` that sets the storage class or the size twice. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI353',
  name: 'cluster-storage-settings-overlap',
  severities: [
    {
      severity: 'warning',
      when: '`storageClass` and `pvcTemplate.storageClassName`, or `size` and a non-zero `pvcTemplate.resources.requests.storage`, are both set in `spec.storage` or `spec.walStorage`.',
    },
  ],
  what: "A Cluster's `spec.storage` or `spec.walStorage` sets the storage class or the size both directly and in its `pvcTemplate`.",
  why: "The Cluster webhook accepts it with a warning that the section's own `storageClass` or `size` is used and the template's ignored (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getStorageWarnings, through getAdmissionWarnings on creation and update).",
  fix: "Keep one of the two: the section's `storageClass` / `size`, or the PVC template's.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'getStorageWarnings'),
};
