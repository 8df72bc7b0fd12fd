/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/scheduledbackup_webhook_test.go as data:
 * ScheduledBackupCustomValidator.validate (errors and admission warnings).
 */
import { AdmissionCase, scheduledBackup } from '../case';

export const SCHEDULED_BACKUP_CASES: readonly AdmissionCase[] = [
  {
    id: 'scheduledbackup/validate/1',
    upstream: { file: 'scheduledbackup_webhook_test.go', line: 38, describe: 'Validate schedule', it: "doesn't complain if there's a schedule" },
    function: 'validate',
    kind: 'ScheduledBackup',
    input: scheduledBackup({ schedule: '0 0 0 * * *' }),
    verdict: { errors: 0, warnings: 0 },
  },
  {
    id: 'scheduledbackup/validate/2',
    upstream: {
      file: 'scheduledbackup_webhook_test.go',
      line: 50,
      describe: 'Validate schedule',
      it: 'warn the user if the schedule has a wrong number of arguments',
    },
    function: 'validate',
    kind: 'ScheduledBackup',
    input: scheduledBackup({ schedule: '1 2 3 4 5' }),
    verdict: { errors: 0, warnings: 1 },
    note: 'Five fields parse (robfig/cron v1.2.0 Parse: seconds first, day of week optional) but are not six: a warning, not an error.',
  },
  {
    id: 'scheduledbackup/validate/3',
    upstream: { file: 'scheduledbackup_webhook_test.go', line: 62, describe: 'Validate schedule', it: 'complain with a wrong time' },
    function: 'validate',
    kind: 'ScheduledBackup',
    input: scheduledBackup({ schedule: '0 0 0 * * * 1996' }),
    verdict: { errors: 1, warnings: 0 },
  },
  {
    id: 'scheduledbackup/validate/4',
    upstream: { file: 'scheduledbackup_webhook_test.go', line: 102, describe: 'Validate schedule', it: 'complains if online is set on a barman backup' },
    function: 'validate',
    kind: 'ScheduledBackup',
    input: scheduledBackup({ method: 'barmanObjectStore', online: true, schedule: '* * * * * *' }),
    verdict: { errors: 1, warnings: 0, paths: ['spec.online'] },
  },
  {
    id: 'scheduledbackup/validate/5',
    upstream: {
      file: 'scheduledbackup_webhook_test.go',
      line: 116,
      describe: 'Validate schedule',
      it: 'complains if onlineConfiguration is set on a barman backup',
    },
    function: 'validate',
    kind: 'ScheduledBackup',
    input: scheduledBackup({ method: 'barmanObjectStore', onlineConfiguration: {}, schedule: '* * * * * *' }),
    verdict: { errors: 1, warnings: 0, paths: ['spec.onlineConfiguration'] },
  },
];
