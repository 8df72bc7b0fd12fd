/*
 * CNPGI044, CNPGI045, CNPGI047: Backups and ScheduledBackups that use, or mean to use, a plugin.
 */
import { asString, asObject } from '../../manifests/json';
import { Manifest } from '../../manifests/manifest-index';
import { Report, defineFamily } from './rule';

type BackupRuleId = 'CNPGI044' | 'CNPGI045' | 'CNPGI047';

/** The Backup and ScheduledBackup rules about plugins. */
export const backupPlugins = defineFamily({
  rules: [
    {
      id: 'CNPGI044',
      name: 'backup-plugin-configuration',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A Backup with `method: plugin` has no `pluginConfiguration.name`.',
      why: 'The CNPG webhook rejects the Backup: pluginConfiguration "cannot be empty when the backup method is plugin" (cloudnative-pg v1.30.0 internal/webhook/v1/backup_webhook.go BackupCustomValidator.validate; empty means no name, cloudnative-pg v1.30.0 api/v1/backup_funcs.go BackupPluginConfiguration.IsEmpty).',
      fix: "Set `spec.pluginConfiguration.name` to the plugin's name.",
      kinds: ['postgresql.cnpg.io/Backup'],
    },
    {
      id: 'CNPGI045',
      name: 'scheduled-backup-plugin-configuration',
      severities: [{ severity: 'error', when: 'always' }],
      what: 'A ScheduledBackup with `method: plugin` has no `pluginConfiguration.name`.',
      why: 'The ScheduledBackup webhook does not check it (cloudnative-pg v1.30.0 internal/webhook/v1/scheduledbackup_webhook.go ScheduledBackupCustomValidator.validate): every Backup it creates is then rejected (cloudnative-pg v1.30.0 internal/webhook/v1/backup_webhook.go BackupCustomValidator.validate).',
      fix: "Set `spec.pluginConfiguration.name` to the plugin's name.",
      kinds: ['postgresql.cnpg.io/ScheduledBackup'],
    },
    {
      id: 'CNPGI047',
      name: 'plugin-configuration-ignored',
      severities: [{ severity: 'warning', when: 'always' }],
      what: 'A Backup or ScheduledBackup sets `pluginConfiguration` but its `method` is not `plugin`.',
      why: '`method` defaults to `barmanObjectStore` (cloudnative-pg v1.30.0 api/v1/backup_types.go BackupSpec, `+kubebuilder:default:=barmanObjectStore`): the plugin configuration is ignored.',
      fix: 'Set `method: plugin`.',
      kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup'],
    },
  ],
  check(model, report) {
    for (const m of model.index.ofKind('Backup', 'postgresql.cnpg.io')) checkBackup(report, m, false);
    for (const m of model.index.ofKind('ScheduledBackup', 'postgresql.cnpg.io')) checkBackup(report, m, true);
  },
});

function checkBackup(report: Report<BackupRuleId>, m: Manifest, scheduled: boolean): void {
  const spec = asObject(m.raw.spec);
  if (!spec) return;
  const method = asString(spec.method) ?? 'barmanObjectStore';
  const config = asObject(spec.pluginConfiguration);
  const kind = scheduled ? 'ScheduledBackup' : 'Backup';
  if (method !== 'plugin') {
    if (config) {
      report(
        'CNPGI047',
        'warning',
        m,
        `${kind} sets pluginConfiguration but method is '${method}'${spec.method === undefined ? ' (the default)' : ''}; the plugin configuration is ignored`,
        'set method: plugin',
        'spec.method',
      );
    }
    return;
  }
  const name = asString(config?.name);
  if (!name) {
    report(
      scheduled ? 'CNPGI045' : 'CNPGI044',
      'error',
      m,
      scheduled
        ? 'ScheduledBackup has method: plugin but no pluginConfiguration.name; its webhook does not check this, and every Backup it creates is rejected'
        : 'Backup has method: plugin but no pluginConfiguration.name; the webhook rejects it',
      'set spec.pluginConfiguration.name to the plugin name',
      'spec.pluginConfiguration.name',
    );
  }
}
