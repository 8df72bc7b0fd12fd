/*
 * CNPGI101: Backups and ScheduledBackups as the API server and the webhooks judge them.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { backupSpecIssues, reportIssues } from './fidelity-inputs';

/** The enums, online settings and plugin name of a Backup or ScheduledBackup. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI101',
  name: 'backup-spec',
  severities: [
    { severity: 'error', when: 'otherwise' },
    { severity: 'warning', when: 'for online settings with method plugin' },
  ],
  what: 'Backup and ScheduledBackup enums, online/onlineConfiguration after the CRD default of method, pluginConfiguration.name.',
  why: 'cloudnative-pg v1.30.0 api/v1/backup_types.go BackupSpec (CRD enum and default), internal/webhook/v1/backup_webhook.go validate, internal/webhook/v1/scheduledbackup_webhook.go validate.',
  fix: 'Spell enums as the CRD does; write method: plugin with pluginConfiguration.name.',
  kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup'],
  check(model, report) {
    for (const { object, issues } of backupSpecIssues(model)) {
      // The schedule is CNPGI102's. A missing plugin name is CNPGI044's or CNPGI045's (they
      // subsume it); those read CloudNativePG's API group only, and the name is not reported
      // here for a Backup of another group either.
      const own = issues.filter((i) => i.path !== 'spec.schedule' && (i.path !== 'spec.pluginConfiguration.name' || object.group === 'postgresql.cnpg.io'));
      reportIssues(report, object, own);
    }
  },
};
