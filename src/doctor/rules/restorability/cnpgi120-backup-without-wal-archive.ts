/*
 * CNPGI120: a backup of a Cluster whose WAL is not archived, or may not be.
 */
import { checkBackupWalArchive } from '../../../checks/wal-archive';
import { asString, dig } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** A Backup or ScheduledBackup whose Cluster archives no WAL, or declares no WAL archiver. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI120',
  name: 'backup-without-wal-archive',
  severities: [
    { severity: 'error', when: 'the Cluster has `cnpg.io/skipWalArchiving: enabled` (archive_mode off)' },
    {
      severity: 'warning',
      when: 'a plugin backup of a Cluster where no enabled plugin is marked isWALArchiver, Barman Cloud does not archive and there is no `spec.backup.barmanObjectStore`: whether the plugin archives WAL is not in the manifests',
    },
  ],
  what: 'A Backup or ScheduledBackup (method `plugin` or `barmanObjectStore`) of a Cluster whose WAL is not archived (`cnpg.io/skipWalArchiving: enabled`), or where nothing declares WAL archiving.',
  why: 'A base backup is restored by replaying the WAL from its start to its end. cloudnative-pg v1.30.0 pkg/postgres/configuration.go CreatePostgresqlConfiguration sets archive_mode off under `cnpg.io/skipWalArchiving: enabled` (pkg/utils/labels_annotations.go IsWalArchivingDisabled), and the backup still completes; plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go Restore, ensureArchiveContainsLastCheckpointRedoWAL refuses a backup whose first WAL is not in the archive. Without an archiver plugin or barmanObjectStore, pkg/management/postgres/archiver/archiver.go internalRun asks every enabled plugin with the WAL archive capability and otherwise reports the segment archived without storing it.',
  fix: 'Remove `cnpg.io/skipWalArchiving`; mark the plugin that archives the WAL with `isWALArchiver: true`.',
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
