/*
 * CNPGI116: a ScheduledBackup name that cannot be a label value of the Backups it creates.
 */
import { checkScheduledBackupName } from '../../../checks/scheduled-backup-name';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

/** A ScheduledBackup name that is no label value: every Backup it creates is refused, or it is refused itself. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI116',
  name: 'scheduled-backup-name',
  severities: [{ severity: 'error', when: 'always: no scheduled backup is ever taken' }],
  what: "A ScheduledBackup name that is no label value: longer than 63 characters (the API server accepts the ScheduledBackup, but refuses every Backup it creates, whose `cnpg.io/scheduled-backup` label holds the name), or holding characters a label value cannot (then the ScheduledBackup's own name is refused first). The message names which.",
  why: "The ScheduledBackup controller labels each Backup it creates with the ScheduledBackup name (cloudnative-pg v1.30.0 internal/controller/scheduledbackup_controller.go createBackup, pkg/utils/labels_annotations.go ParentScheduledBackupLabelName), and a label value is at most 63 characters of letters, digits, '-', '_' and '.', starting and ending with a letter or digit (k8s.io/apimachinery v0.36.3 pkg/api/validate/content/kube.go IsLabelValue); the create fails, the controller records a `BackupCreation` warning event and retries, and no backup is taken. A ScheduledBackup's own name is a DNS subdomain (apiextensions-apiserver v0.36.3 pkg/registry/customresource/validator.go, NameIsDNSSubdomain), which is a label value whenever it has at most 63 characters: a shorter name that is no label value fails for its characters, and the API server refuses the ScheduledBackup itself. This rule's finding then says which characters, and replaces CNPGI063's on `metadata.name`.",
  fix: "Name the ScheduledBackup with at most 63 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit.",
  kinds: ['postgresql.cnpg.io/ScheduledBackup'],
  subsumes: [{ rule: 'CNPGI063', path: 'metadata.name' }],
  check(model, report) {
    for (const b of model.index.ofKind('ScheduledBackup', 'postgresql.cnpg.io')) reportIssues(report, b, checkScheduledBackupName(b.name));
  },
};
