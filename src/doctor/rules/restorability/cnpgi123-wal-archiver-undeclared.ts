/*
 * CNPGI123: Barman Cloud archives a Cluster's WAL without being marked isWALArchiver.
 */
import { checkUndeclaredWalArchiver } from '../../../checks/wal-archive';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from '../operator-fidelity/fidelity-inputs';

/** Barman Cloud archives the WAL, but no plugin is the Cluster's declared WAL archiver. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI123',
  name: 'wal-archiver-undeclared',
  severities: [{ severity: 'warning', when: 'always' }],
  what: 'A Cluster enables Barman Cloud with a barmanObjectName, so Barman Cloud archives its WAL, but no enabled plugin has `isWALArchiver: true` and there is no `spec.backup.barmanObjectStore`.',
  why: 'The WAL is archived (cloudnative-pg v1.30.0 pkg/management/postgres/archiver/archiver.go archiveWALViaPlugins asks every enabled plugin with the capability; plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go Archive never reads isWALArchiver), but only the plugin marked isWALArchiver must be loaded (ErrMissingWALArchiverPlugin): internal/cnpi/plugin/client/create.go innerNewClient drops an enabled plugin whose socket is absent, and the segment is then reported archived without being stored, a silent gap in the archive. internal/controller/cluster_upgrade.go archiverSidecarMissingOnPrimary, pkg/reconciler/persistentvolumeclaim/storagesource.go and the metrics also look only at the declared archiver.',
  fix: 'Set `isWALArchiver: true` on the Barman Cloud entry of `spec.plugins`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const c of model.index.ofKind('Cluster')) reportIssues(report, c, checkUndeclaredWalArchiver(c.raw));
  },
};
