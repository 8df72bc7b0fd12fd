/*
 * CNPGI121: a recovery or replica source whose archive holds no usable WAL, or whose server name
 * looks like a mistake against what the input archives.
 */
import { checkArchiveSources } from '../../../checks/wal-archive';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';
import { archiveInputs } from './archive-inputs';

/** A Barman Cloud recovery or replica source whose WAL is not there, or whose server name nothing of the input archives under. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI121',
  name: 'recovery-source-not-archived',
  severities: [
    {
      severity: 'error',
      when: 'the Cluster archiving into the source archives no WAL (`cnpg.io/skipWalArchiving: enabled`), or archives its WAL under another server name than the recovery reads',
    },
    {
      severity: 'warning',
      when: 'no Cluster in the input archives under the source server name while others archive at the same place under other names (a serverName left to its default, or mistyped), or the input is complete (`--complete`) and nothing in it archives into the source. A source only absent from the input is not reported: its backups may be in the bucket all the same',
    },
  ],
  what: 'A Cluster recovers (`spec.bootstrap.recovery.source`) or replicates (`spec.replica.source`) from a Barman Cloud archive whose archiving Cluster archives no WAL there, or under a server name where other Clusters of the input archive under other names.',
  why: "plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster: the recovery serverName defaults to the recovering Cluster's own name; internal/cnpgi/restore/restore.go loadBackupObjectFromExternalCluster lists the backups of that server name in the bucket and stops with \"no target backup found\" only when there is none, and ensureArchiveContainsLastCheckpointRedoWAL when the backup's first WAL is not archived. What the bucket holds is not in the input: a disaster recovery from a Cluster that was deleted, or a Cluster recovering from its own earlier incarnation's backups (the same server name it archives under), is the normal case, so a source that no Cluster of the input archives into is not an error, and without `--complete` not reported at all. barman-cloud pkg/command/commandbuilder.go CloudWalRestoreOptions reads WAL under the ObjectStore's configuration.serverName when set; pkg/command/backuplist.go GetBackupList lists backups under the Cluster's. cloudnative-pg v1.30.0 api/v1/cluster_funcs.go ExternalCluster.GetServerName: an in-tree source defaults to the external cluster's name.",
  fix: "Set the source's serverName to the server name the source Cluster archives (or archived) into; keep WAL archiving on in the source Cluster.",
  kinds: ['postgresql.cnpg.io/Cluster', 'barmancloud.cnpg.io/ObjectStore'],
  check(model, report) {
    const { clusters, index } = archiveInputs(model);
    for (const c of clusters) reportIssues(report, c, checkArchiveSources(c.raw, index));
  },
};
