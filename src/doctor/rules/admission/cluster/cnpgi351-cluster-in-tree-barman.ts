/*
 * CNPGI351: the Cluster webhook's warning about the in-tree Barman Cloud support.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster that backs up or recovers through the in-tree Barman Cloud support. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI351',
  name: 'cluster-in-tree-barman',
  severities: [
    {
      severity: 'warning',
      when: "`spec.backup.barmanObjectStore` or an external cluster's `barmanObjectStore` is set (where the warning points at `spec.backup.barmanObjectStore` beside a WAL archiver plugin, the error of CNPGI042 there replaces it).",
    },
  ],
  what: 'A Cluster uses `spec.backup.barmanObjectStore` or `spec.externalClusters[].barmanObjectStore`, the in-tree Barman Cloud support.',
  why: 'The Cluster webhook accepts it with a warning: the in-tree support is deprecated and CloudNativePG 1.31.0 removes it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getInTreeBarmanWarnings, through getAdmissionWarnings on creation and update).',
  fix: 'Move backups and recovery to the Barman Cloud plugin before upgrading to CloudNativePG 1.31.0.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'getInTreeBarmanWarnings'),
};
