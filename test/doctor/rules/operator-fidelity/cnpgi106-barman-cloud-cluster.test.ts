// plugin-barman-cloud v0.14.0 internal/cnpgi/restore/restore.go checkBackupDestination,
// resolveRestoreEmptyWalArchiveCheck; cloudnative-pg v1.30.0 pkg/utils/labels_annotations.go
// IsEmptyWalArchiveCheckEnabled (the check is skipped only when the annotation is exactly `enabled`).
import { BARMAN, barman, cluster, findings, objectStore, recovering } from '../restorability/archive-objects';

const INTO_SOURCE =
  "Cluster 'pg' recovers from ObjectStore 'store' server 'pg' and archives into the same ObjectStore and server name; Barman Cloud's empty-archive check fails before restoring and the recovery stops";
const SKIPS = "; cnpg.io/skipEmptyWalArchiveCheck: enabled skips the check and continues the source's archive on a new timeline";

/** Cluster `pg` recovering from its own server name in ObjectStore `store` and archiving there, with `annotations`. */
function intoSource(annotations?: Record<string, string>) {
  const pg = recovering('pg', 'store', undefined, { plugins: [barman('store')] });
  if (annotations) pg.metadata.annotations = annotations;
  return [objectStore('store', 's3://b/x'), pg];
}

describe('CNPGI106 barman-cloud-cluster: recovering into the source destination', () => {
  test('error: the empty-archive check finds the source WAL and the recovery stops', () => {
    expect(findings(intoSource(), 'CNPGI106')).toEqual([
      [
        'error',
        'Cluster/db/pg',
        'spec.plugins[0].parameters',
        `${INTO_SOURCE}${SKIPS}`,
        'give the new Cluster its own serverName (e.g. parameters.serverName: pg-v2) or its own ObjectStore',
      ],
    ]);
  });

  // cloudnative-pg v1.30.0 pkg/management/postgres/restore.go RestoreSnapshot (no check before restoring),
  // concludeRestore (the marker), archiver/archiver.go checkWalArchive; plugin-barman-cloud common/wal.go Archive.
  test('error: a recovery from volume snapshots is not stopped, but its first archived WAL fails the check', () => {
    const docs = intoSource();
    docs[1].spec.bootstrap.recovery.volumeSnapshots = { storage: { name: 'pg-snap', kind: 'VolumeSnapshot', apiGroup: 'snapshot.storage.k8s.io' } };
    expect(findings(docs, 'CNPGI106').map((f) => [f[0], f[3]])).toEqual([
      [
        'error',
        "Cluster 'pg' recovers from ObjectStore 'store' server 'pg' and archives into the same ObjectStore and server name; the recovery from volume snapshots skips the check before restoring, but Barman Cloud's empty-archive check fails on the first WAL it archives and no WAL is archived" +
          SKIPS,
      ],
    ]);
  });

  test('error: an annotation value other than exactly `enabled` does not skip the check, and the message says so', () => {
    for (const value of ['true', 'Enabled', 'ENABLED', 'yes', 'disabled']) {
      expect(findings(intoSource({ 'cnpg.io/skipEmptyWalArchiveCheck': value }), 'CNPGI106').map((f) => [f[0], f[3]])).toEqual([
        [
          'error',
          `${INTO_SOURCE} (its cnpg.io/skipEmptyWalArchiveCheck is '${value}', which does not skip the check: only the exact value 'enabled' does)${SKIPS}`,
        ],
      ]);
    }
  });

  test('near miss: `cnpg.io/skipEmptyWalArchiveCheck: enabled` on the Cluster skips the check, nothing is reported', () => {
    expect(findings(intoSource({ 'cnpg.io/skipEmptyWalArchiveCheck': 'enabled' }), 'CNPGI106')).toEqual([]);
    // the annotation on the ObjectStore is not read
    const docs = intoSource();
    docs[0].metadata.annotations = { 'cnpg.io/skipEmptyWalArchiveCheck': 'enabled' };
    expect(findings(docs, 'CNPGI106').map((f) => f[0])).toEqual(['error']);
  });
});

describe('CNPGI106 barman-cloud-cluster: parameters', () => {
  test('error: an enabled Barman Cloud entry without barmanObjectName; warning: a parameter it ignores', () => {
    expect(findings([cluster('pg', { plugins: [{ name: BARMAN, parameters: {} }] })], 'CNPGI106')).toEqual([
      [
        'error',
        'Cluster/db/pg',
        'spec.plugins[0].parameters.barmanObjectName',
        "is missing; Barman Cloud's configuration check fails, its lifecycle hook injects no sidecar, and WAL archiving through the plugin fails",
        "set parameters.barmanObjectName to the name of an ObjectStore in the Cluster's namespace",
      ],
    ]);
    const extra = cluster('pg', { plugins: [{ name: BARMAN, parameters: { barmanObjectName: 'store', extra: 'x' } }] });
    expect(findings([objectStore('store', 's3://b/x'), extra], 'CNPGI106')).toEqual([
      [
        'warning',
        'Cluster/db/pg',
        'spec.plugins[0].parameters.extra',
        "Barman Cloud reads only barmanObjectName and serverName; 'extra' is ignored",
        'remove it',
      ],
    ]);
  });
});
