/*
 * CNPGI121: a recovery or replica source that no Cluster of the input archives into, or whose
 * archive holds no usable WAL.
 */
import { checkArchiveSources } from '../../../checks/wal-archive';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';
import { archiveInputs } from './archive-inputs';

/** A Barman Cloud recovery or replica source that nothing archives into, or whose WAL is not there. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI121',
  name: 'recovery-source-not-archived',
  severities: [
    {
      severity: 'error',
      when: 'the Cluster archiving into the source archives no WAL (`cnpg.io/skipWalArchiving: enabled`), archives its WAL under another server name, or no Cluster archives into the source and the input is complete (`--complete`)',
    },
    { severity: 'warning', when: 'no Cluster in the input archives into the source: the source Cluster may live in another repository' },
  ],
  what: 'A Cluster recovers (`spec.bootstrap.recovery.source`) or replicates (`spec.replica.source`) from a Barman Cloud server name and store that no Cluster in the input archives into, or whose archiving Cluster archives no WAL there.',
  why: "plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster: the recovery serverName defaults to the recovering Cluster's own name; internal/cnpgi/restore/restore.go loadBackupObjectFromExternalCluster fails with \"no target backup found\" when that server name holds no backup, and ensureArchiveContainsLastCheckpointRedoWAL when the backup's first WAL is not archived. barman-cloud pkg/command/commandbuilder.go CloudWalRestoreOptions reads WAL under the ObjectStore's configuration.serverName when set; pkg/command/backuplist.go GetBackupList lists backups under the Cluster's. cloudnative-pg v1.30.0 api/v1/cluster_funcs.go ExternalCluster.GetServerName: an in-tree source defaults to the external cluster's name.",
  fix: "Set the source's serverName to the server name the source Cluster archives into; keep WAL archiving on in the source Cluster.",
  kinds: ['postgresql.cnpg.io/Cluster', 'barmancloud.cnpg.io/ObjectStore'],
  check(model, report) {
    const { clusters, index } = archiveInputs(model);
    for (const c of clusters) reportIssues(report, c, checkArchiveSources(c.raw, index));
  },
};
