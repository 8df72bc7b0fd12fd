/*
 * CNPGI370: the Backup webhook's check of the volume snapshot deadline annotation.
 */
import { VOLUME_SNAPSHOT_DEADLINE_ANNOTATION, volumeSnapshotDeadline } from '../../../../checks/admission/backup';
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportIssues } from '../../operator-fidelity/fidelity-inputs';
import { admitted } from '../admission-inputs';

const PATH = `metadata.annotations.${VOLUME_SNAPSHOT_DEADLINE_ANNOTATION}`;

/** A `cnpg.io/volumeSnapshotDeadline` annotation that is no integer. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI370',
  name: 'backup-volume-snapshot-deadline',
  severities: [{ severity: 'error', when: 'always: the Backup is refused, or every Backup the ScheduledBackup creates is' }],
  what: "A Backup's or ScheduledBackup's `cnpg.io/volumeSnapshotDeadline` annotation is set to something Go's `strconv.Atoi` does not read as an integer.",
  why: 'The Backup webhook refuses such a Backup (cloudnative-pg v1.30.0 internal/webhook/v1/backup_webhook.go BackupCustomValidator.validate; the value is the minutes the operator waits for a volume snapshot, api/v1/backup_funcs.go Backup.GetVolumeSnapshotDeadline). The ScheduledBackup webhook does not check the annotation (internal/webhook/v1/scheduledbackup_webhook.go ScheduledBackupCustomValidator.validate), but copies it to every Backup it creates (api/v1/scheduledbackup_funcs.go ScheduledBackup.CreateBackup), and the Backup webhook refuses each of them.',
  fix: "Write the minutes as a plain integer string, e.g. `'30'`, or remove the annotation (10 minutes).",
  kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup'],
  check(model, report) {
    for (const { object, admission } of admitted(model, 'Backup')) {
      reportIssues(
        report,
        object,
        (admission.issues.get('validate') ?? []).filter((i) => i.path === PATH),
      );
    }
    for (const object of model.index.ofKind('ScheduledBackup', 'postgresql.cnpg.io'))
      reportIssues(report, object, volumeSnapshotDeadline(object.raw, 'ScheduledBackup'));
  },
};
