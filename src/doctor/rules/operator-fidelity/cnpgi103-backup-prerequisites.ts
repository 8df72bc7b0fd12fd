/*
 * CNPGI103: what the backup controller checks before it takes a backup.
 */
import { checkBackupPrerequisites } from '../../../checks/backup-prerequisites';
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { backupSpecIssues, reportIssues } from './fidelity-inputs';

/** A backup the controller would not take: its Cluster lacks the plugin or the method's section, or is hibernated. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI103',
  name: 'backup-prerequisites',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A plugin backup of a Cluster without plugins, or through a plugin absent or disabled in it; in-tree methods without their Cluster section; a hibernated Cluster.',
  why: 'cloudnative-pg v1.30.0 internal/controller/backup_controller.go checkPrerequisites, Reconcile; internal/cnpi/plugin/client/client.go getPlugin.',
  fix: "Enable the plugin in the Cluster's spec.plugins.",
  kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup', 'postgresql.cnpg.io/Cluster'],
  check(model, report) {
    const includePlugins = model.operatorConfig?.includePlugins ?? [];
    for (const { object: b } of backupSpecIssues(model)) {
      const cluster = model.lastNamed('Cluster', b.namespace, asString(dig(b.raw, 'spec', 'cluster', 'name')) ?? '');
      reportIssues(report, b, checkBackupPrerequisites(b.raw, cluster?.raw, includePlugins));
    }
  },
};
