/*
 * CNPGI116: a ScheduledBackup name that cannot be a label value of the Backups it creates.
 */
import { checkScheduledBackupName } from '../../../checks/scheduled-backup-name';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

/** A ScheduledBackup name longer than a label value: every Backup it creates is refused. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI116',
  name: 'scheduled-backup-name',
  severities: [{ severity: 'error', when: 'always: no scheduled backup is ever taken' }],
  what: 'A ScheduledBackup name longer than 63 characters: the API server accepts the ScheduledBackup, but refuses every Backup it creates, whose `cnpg.io/scheduled-backup` label holds the name.',
  why: 'The ScheduledBackup controller labels each Backup it creates with the ScheduledBackup name (cloudnative-pg v1.30.0 internal/controller/scheduledbackup_controller.go createBackup, pkg/utils/labels_annotations.go ParentScheduledBackupLabelName), and a label value holds at most 63 characters (apimachinery v0.32.13 pkg/util/validation/validation.go IsValidLabelValue); the create fails, the controller records a `BackupCreation` warning event and retries, and no backup is taken.',
  fix: 'Name the ScheduledBackup with at most 63 characters.',
  kinds: ['postgresql.cnpg.io/ScheduledBackup'],
  check(model, report) {
    for (const b of model.index.ofKind('ScheduledBackup', 'postgresql.cnpg.io')) reportIssues(report, b, checkScheduledBackupName(b.name));
  },
};
