/*
 * CNPGI102: a ScheduledBackup's schedule, as robfig/cron reads it.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { backupSpecIssues, reportIssues } from './fidelity-inputs';

/** The schedule as robfig/cron v1.2.0 Parse reads it. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI102',
  name: 'scheduled-backup-schedule',
  severities: [
    { severity: 'error', when: 'otherwise' },
    { severity: 'warning', when: 'when a field selects nothing' },
  ],
  what: 'The schedule as robfig/cron v1.2.0 Parse reads it; 5 fields are an error that shows the reading and the 6-field form.',
  why: 'robfig/cron v1.2.0 parser.go Parse, getRange, parseDescriptor; cloudnative-pg v1.30.0 internal/webhook/v1/scheduledbackup_webhook.go validate.',
  fix: 'Write 6 fields, seconds first, or a descriptor.',
  kinds: ['postgresql.cnpg.io/ScheduledBackup'],
  // The webhook's warning about a 5-field schedule (CNPGI371) says less than this error.
  subsumes: [{ rule: 'CNPGI371' }],
  check(model, report) {
    for (const { object, issues } of backupSpecIssues(model)) {
      reportIssues(
        report,
        object,
        issues.filter((i) => i.path === 'spec.schedule'),
      );
    }
  },
};
