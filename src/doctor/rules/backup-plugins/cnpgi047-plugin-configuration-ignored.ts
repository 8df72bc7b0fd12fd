/*
 * CNPGI047: a plugin configuration that the backup method ignores.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { backupRequests } from './plugin-backups';

/** A Backup or ScheduledBackup sets `pluginConfiguration` but its `method` is not `plugin`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI047',
  name: 'plugin-configuration-ignored',
  severities: [{ severity: 'warning', when: 'always' }],
  what: 'A Backup or ScheduledBackup sets `pluginConfiguration` but its `method` is not `plugin`.',
  why: '`method` defaults to `barmanObjectStore` (cloudnative-pg v1.30.0 api/v1/backup_types.go BackupSpec, `+kubebuilder:default:=barmanObjectStore`): the plugin configuration is ignored.',
  fix: 'Set `method: plugin`.',
  kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup'],
  check(model, report) {
    for (const kind of ['Backup', 'ScheduledBackup'] as const) {
      for (const b of backupRequests(model, kind)) {
        if (b.method === 'plugin' || !b.pluginConfiguration) continue;
        report(
          'warning',
          b.object,
          `${kind} sets pluginConfiguration but method is '${b.method}'${b.spec.method === undefined ? ' (the default)' : ''}; the plugin configuration is ignored`,
          'set method: plugin',
          'spec.method',
        );
      }
    }
  },
};
