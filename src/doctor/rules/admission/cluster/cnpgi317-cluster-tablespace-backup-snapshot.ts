/*
 * CNPGI317: the Cluster webhook's validateTablespaceBackupSnapshot.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateTablespaceBackupSnapshot refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI317',
  name: 'cluster-tablespace-backup-snapshot',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.backup.volumeSnapshot.tablespaceClassName` names a tablespace that `spec.tablespaces` does not have.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateTablespaceBackupSnapshot, api/v1 GetTablespaceConfiguration).',
  fix: 'Name tablespaces of `spec.tablespaces` (the names are case sensitive), or remove the entry.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateTablespaceBackupSnapshot'),
};
