/*
 * CNPGI120: a backup of a Cluster whose WAL is not archived.
 */
import { checkBackupWalArchive } from '../../../checks/wal-archive';
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** A Backup or ScheduledBackup whose Cluster archives no WAL. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI120',
  name: 'backup-without-wal-archive',
  severities: [
    {
      severity: 'error',
      when: 'the Cluster has `cnpg.io/skipWalArchiving: enabled` (archive_mode off) and the backup is physical: method `barmanObjectStore`, or method `plugin` through Barman Cloud',
    },
    {
      severity: 'warning',
      when: 'the Cluster has `cnpg.io/skipWalArchiving: enabled` and the backup goes through another plugin: whether its backups are physical (and need WAL) is not in the manifests',
    },
  ],
  what: 'A Backup or ScheduledBackup (method `plugin` or `barmanObjectStore`) of a Cluster whose WAL is not archived (`cnpg.io/skipWalArchiving: enabled`).',
  why: "A physical base backup is restored by replaying the WAL from its start to its end. cloudnative-pg v1.30.0 pkg/postgres/configuration.go CreatePostgresqlConfiguration sets archive_mode off under `cnpg.io/skipWalArchiving: enabled` (pkg/utils/labels_annotations.go IsWalArchivingDisabled), and the backup still completes; plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go Restore, ensureArchiveContainsLastCheckpointRedoWAL refuses a backup whose first WAL is not in the archive. Barman Cloud (in-tree or the plugin) is the one backup method known to be physical: CNPG-I does not tell (cnpg-i v0.5.0 proto/backup.proto has a single Backup capability, with no kind of backup), a recovery through a plugin is that plugin's restore job hook (pkg/management/postgres/restore.go Restore, restoreViaPlugin; internal/cnpi/plugin/client/restore_job.go innerRestore), which may restore a logical dump needing no WAL, and pkg/management/postgres/archiver/archiver.go archiveWALViaPlugins asks every enabled plugin with the WAL capability to archive, marked isWALArchiver or not. So a plugin the doctor does not know is never told to set isWALArchiver, and is warned about only when archive_mode is off, conditionally.",
  fix: 'Remove `cnpg.io/skipWalArchiving` from a Cluster whose physical backups must be restorable.',
  kinds: ['postgresql.cnpg.io/Backup', 'postgresql.cnpg.io/ScheduledBackup', 'postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const kind of ['Backup', 'ScheduledBackup']) {
      for (const b of model.index.ofKind(kind)) {
        const cluster = model.lastNamed('Cluster', b.namespace, asString(dig(b.raw, 'spec', 'cluster', 'name')) ?? '');
        reportIssues(report, b, checkBackupWalArchive(b.raw, cluster?.raw));
      }
    }
  },
};
