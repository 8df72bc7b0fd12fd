/*
 * CNPGI141: a ScheduledBackup that keeps running against a Cluster the Scale-to-Zero sidecar hibernated.
 */
import { checkScaleToZeroSchedule } from '../../../checks/scale-to-zero';
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** A ScheduledBackup of a hibernating Cluster that the sidecar does not suspend. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI141',
  name: 'scale-to-zero-schedule',
  severities: [{ severity: 'warning', when: 'always: the schedule runs, and its Backups fail while the Cluster is hibernated' }],
  what: 'A ScheduledBackup, not suspended, of a Cluster that the Scale-to-Zero plugin hibernates, named otherwise than the Cluster: the sidecar does not suspend it, and every Backup it creates while the Cluster sleeps fails.',
  why: 'cnpg-i-scale-to-zero v0.1.9 internal/sidecar/scale_to_zero.go Start calls pauseScheduledBackup after hibernate, which sets spec.suspend on the ScheduledBackup that internal/sidecar/cluster_client.go getClusterScheduledBackup gets by the Cluster\'s own name and namespace (one not found is skipped); cloudnative-pg v1.30.0 internal/controller/backup_controller.go checkPrerequisites fails a Backup of a Cluster annotated cnpg.io/hibernation=on with "cannot backup a hibernated cluster".',
  fix: "Name the Cluster's ScheduledBackup like the Cluster, or suspend the others.",
  kinds: ['postgresql.cnpg.io/ScheduledBackup', 'postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const b of model.index.ofKind('ScheduledBackup', 'postgresql.cnpg.io')) {
      const clusterName = asString(dig(b.raw, 'spec', 'cluster', 'name'));
      if (clusterName === undefined) continue;
      for (const c of model.index.get('Cluster', b.namespace, clusterName, 'postgresql.cnpg.io'))
        reportIssues(report, b, checkScaleToZeroSchedule(c.raw, b.raw));
    }
  },
};
