/*
 * CNPGI044: a plugin Backup must name its plugin.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { backupRequests, namesNoPlugin } from './plugin-backups';

/** A Backup with `method: plugin` has no `pluginConfiguration.name`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI044',
  name: 'backup-plugin-configuration',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Backup with `method: plugin` has no `pluginConfiguration.name`.',
  why: 'The CNPG webhook rejects the Backup: pluginConfiguration "cannot be empty when the backup method is plugin" (cloudnative-pg v1.30.0 internal/webhook/v1/backup_webhook.go BackupCustomValidator.validate; empty means no name, cloudnative-pg v1.30.0 api/v1/backup_funcs.go BackupPluginConfiguration.IsEmpty).',
  fix: "Set `spec.pluginConfiguration.name` to the plugin's name.",
  kinds: ['postgresql.cnpg.io/Backup'],
  // CNPGI101 (the Backup webhook's checks) reports the same missing name.
  subsumes: [{ rule: 'CNPGI101' }],
  check(model, report) {
    for (const b of backupRequests(model, 'Backup')) {
      if (!namesNoPlugin(b)) continue;
      report(
        'error',
        b.object,
        'Backup has method: plugin but no pluginConfiguration.name; the webhook rejects it',
        'set spec.pluginConfiguration.name to the plugin name',
        'spec.pluginConfiguration.name',
      );
    }
  },
};
