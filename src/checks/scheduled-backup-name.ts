import { isLabelValue } from '../manifests/k8s-names';
import { CheckIssue } from './issue';

/** The label CloudNativePG puts on every Backup a ScheduledBackup creates, with the ScheduledBackup's name. */
export const SCHEDULED_BACKUP_LABEL = 'cnpg.io/scheduled-backup';

/**
 * A ScheduledBackup's name as the ScheduledBackup controller uses it: it labels every Backup it
 * creates with `cnpg.io/scheduled-backup: <name>` (cloudnative-pg v1.30.0
 * internal/controller/scheduledbackup_controller.go createBackup, label name from
 * pkg/utils/labels_annotations.go ParentScheduledBackupLabelName), so a name that is no label
 * value makes the API server refuse each Backup, and no scheduled backup is ever taken. An
 * object name is a DNS subdomain, which is a label value exactly when it has at most 63
 * characters; the Backup's own name, `<name>-<YYYYMMDDhhmmss>` (api/v1/scheduledbackup_funcs.go
 * BackupName), is then short enough too. `name` is the ScheduledBackup's `metadata.name`.
 * @internal
 */
export function checkScheduledBackupName(name: string): CheckIssue[] {
  if (typeof name !== 'string' || name === '' || isLabelValue(name)) return [];
  // a subdomain cut to 63 characters is a label value once a trailing '-' or '.' is dropped
  const shorter = name.slice(0, 63).replace(/[^A-Za-z0-9]+$/, '');
  return [
    {
      severity: 'error',
      path: 'metadata.name',
      message: `is ${name.length} characters long, but CloudNativePG labels every Backup it creates with it (${SCHEDULED_BACKUP_LABEL}), and a label value holds at most 63 characters: the API server refuses each Backup and no scheduled backup is taken`,
      fix: `use a name of at most 63 characters${shorter !== '' ? `, e.g. '${shorter}'` : ''}`,
    },
  ];
}
