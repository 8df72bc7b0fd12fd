/*
 * CNPGI371: the ScheduledBackup webhook's warning about the number of schedule fields.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportIssues } from '../../operator-fidelity/fidelity-inputs';
import { admitted } from '../admission-inputs';

/** A schedule that parses but does not have six fields: the webhook warns. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI371',
  name: 'scheduled-backup-schedule-warning',
  severities: [{ severity: 'warning', when: 'always: the webhook accepts the ScheduledBackup with a warning' }],
  what: "A ScheduledBackup's schedule parses but is not six whitespace-separated fields, e.g. a descriptor such as `@daily` (a 5-field schedule is CNPGI102's error).",
  why: 'The ScheduledBackup webhook parses the schedule with robfig/cron v1.2.0 Parse and, when it parses, warns unless it counts six fields (cloudnative-pg v1.30.0 internal/webhook/v1/scheduledbackup_webhook.go ScheduledBackupCustomValidator.validate); a descriptor runs as meant, the warning is then all that happens.',
  fix: 'Write the 6-field form the finding gives, or keep the descriptor and expect the warning on every apply.',
  kinds: ['postgresql.cnpg.io/ScheduledBackup'],
  check(model, report) {
    for (const { object, admission } of admitted(model, 'ScheduledBackup')) {
      reportIssues(
        report,
        object,
        (admission.issues.get('validate') ?? []).filter((i) => i.severity === 'warning'),
      );
    }
  },
};
