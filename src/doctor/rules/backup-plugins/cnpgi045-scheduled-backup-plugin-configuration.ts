/*
 * CNPGI045: a plugin ScheduledBackup must name its plugin.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { backupRequests, namesNoPlugin } from './plugin-backups';

/** A ScheduledBackup with `method: plugin` has no `pluginConfiguration.name`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI045',
  name: 'scheduled-backup-plugin-configuration',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A ScheduledBackup with `method: plugin` has no `pluginConfiguration.name`.',
  why: 'The ScheduledBackup webhook does not check it (cloudnative-pg v1.30.0 internal/webhook/v1/scheduledbackup_webhook.go ScheduledBackupCustomValidator.validate): every Backup it creates is then rejected (cloudnative-pg v1.30.0 internal/webhook/v1/backup_webhook.go BackupCustomValidator.validate).',
  fix: "Set `spec.pluginConfiguration.name` to the plugin's name.",
  kinds: ['postgresql.cnpg.io/ScheduledBackup'],
  // CNPGI101 (the ScheduledBackup webhook's checks) reports the same missing name.
  subsumes: [{ rule: 'CNPGI101' }],
  check(model, report) {
    for (const b of backupRequests(model, 'ScheduledBackup')) {
      if (!namesNoPlugin(b)) continue;
      report(
        'error',
        b.object,
        'ScheduledBackup has method: plugin but no pluginConfiguration.name; its webhook does not check this, and every Backup it creates is rejected',
        'set spec.pluginConfiguration.name to the plugin name',
        'spec.pluginConfiguration.name',
      );
    }
  },
};
