/*
 * CNPGI122: two Clusters archiving into the same Barman Cloud destination and server name.
 */
import { checkSharedArchive } from '../../../checks/wal-archive';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';
import { archiveInputs } from './archive-inputs';

/** Two Clusters archive their WAL or base backups into one destination and server name. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI122',
  name: 'shared-wal-archive',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'Two Clusters archive their WAL or base backups into the same Barman Cloud destination and server name (the same ObjectStore, or ObjectStores and barmanObjectStore sections with the same destinationPath).',
  why: "plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive runs barman-cloud-check-wal-archive (CheckBackupDestination) on the first WAL of a new Cluster, and cloudnative-pg v1.30.0 pkg/management/postgres/archiver/archiver.go checkWalArchive does the same in-tree: it fails when the destination already holds WAL, so the second Cluster's WAL is never archived (the check runs again until one segment is archived). The check runs only while the `.check-empty-wal-archive` marker that initdb, a recovery or pg_basebackup leaves is in PGDATA (removed once archiving works: cloudnative-pg internal/management/controller/instance_controller.go reconcileCheckWalArchiveFile), and not at all when the Cluster is annotated `cnpg.io/skipEmptyWalArchiveCheck: enabled` (exactly that value: pkg/utils/labels_annotations.go IsEmptyWalArchiveCheckEnabled; plugin-barman-cloud internal/cnpgi/common/wal.go resolveArchiveEmptyWalArchiveCheck and internal/cnpgi/restore/restore.go resolveRestoreEmptyWalArchiveCheck read the same annotation). With the annotation, or once both archived before, two databases share one WAL archive and backup catalog, and internal/cnpgi/restore/restore.go picks the latest backup of the server name, whichever Cluster took it. A Cluster annotated so that recovers into its own source continues that archive on a new timeline, which is what the annotation is for, and is not reported. The WAL key follows the ObjectStore's configuration.serverName (barman-cloud pkg/archiver/archiver.go BarmanCloudWalArchiveOptions).",
  fix: 'Give each Cluster its own serverName or ObjectStore.',
  kinds: ['postgresql.cnpg.io/Cluster', 'barmancloud.cnpg.io/ObjectStore'],
  check(model, report) {
    const { clusters, index } = archiveInputs(model);
    for (const c of clusters) reportIssues(report, c, checkSharedArchive(c.raw, index));
  },
};
