/*
 * CNPGI106: a Cluster's Barman Cloud plugin settings, as the plugin reads them.
 */
import { checkBarmanCloudCluster, referencedObjectStores } from '../../../checks/barman-cloud';
import { Json, asArray, dig } from '../../../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../../../manifests/known-plugins';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

/** Barman Cloud parameters, the ObjectStore's namespace, recovery into the source destination. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI106',
  name: 'barman-cloud-cluster',
  severities: [
    { severity: 'error', when: 'otherwise' },
    {
      severity: 'warning',
      when: "for ignored keys, ObjectStores outside an input that is not said to be complete (`--complete`), and an ObjectStore in another namespace when the Cluster's or its namespace is assumed (the object has none and no `--namespace` is given)",
    },
  ],
  what: 'Barman Cloud parameters, ObjectStore namespace, recovery into the source destination and serverName.',
  why: "plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go NewFromCluster, Validate, GetBarmanObjectKey; internal/cnpgi/operator/lifecycle.go LifecycleHook; internal/cnpgi/restore/restore.go checkBackupDestination: before restoring, the recovery checks that the Cluster's own destination holds no WAL, unless resolveRestoreEmptyWalArchiveCheck finds the Cluster annotated `cnpg.io/skipEmptyWalArchiveCheck: enabled` (cloudnative-pg v1.30.0 pkg/utils/labels_annotations.go IsEmptyWalArchiveCheckEnabled: exactly `enabled`; internal/cnpi/plugin/client/restore_job.go innerRestore sends the Cluster and no decision of its own); with it, recovering into the source destination is not reported. A recovery from volume snapshots (cloudnative-pg pkg/management/postgres/restore.go RestoreSnapshot) skips the check before restoring, but leaves the `.check-empty-wal-archive` marker (concludeRestore), so its first archived WAL fails the same check (plugin-barman-cloud internal/cnpgi/common/wal.go Archive).",
  fix: "Use barmanObjectName/serverName; keep the ObjectStore in the Cluster namespace; give a recovered Cluster its own serverName (or, to continue the source's archive on a new timeline, annotate it `cnpg.io/skipEmptyWalArchiveCheck: enabled`).",
  kinds: ['postgresql.cnpg.io/Cluster', 'barmancloud.cnpg.io/ObjectStore'],
  check(model, report) {
    // an input without any ObjectStore does not show where they are, unless it is complete
    const anyStore = model.complete || model.index.ofKind('ObjectStore').length > 0;
    for (const c of model.index.ofKind('Cluster')) {
      if (!mentionsBarmanCloud(c.raw)) continue;
      const stores = anyStore ? referencedObjectStores(c.raw).flatMap((n) => model.index.named('ObjectStore', n).map((m) => m.raw)) : undefined;
      reportIssues(report, c, checkBarmanCloudCluster(c.raw, stores, { namespaceOf: model.index.namespaceOf, complete: model.complete }), model);
    }
  },
};

function mentionsBarmanCloud(c: Json): boolean {
  return (
    asArray(dig(c, 'spec', 'plugins')).some((p) => dig(p, 'name') === BARMAN_CLOUD_PLUGIN_NAME) ||
    asArray(dig(c, 'spec', 'externalClusters')).some((e) => dig(e, 'plugin', 'name') === BARMAN_CLOUD_PLUGIN_NAME)
  );
}
