/*
 * The constructs refuse at synth what CloudNativePG's admission refuses, through the checks the
 * doctor runs (src/checks/admission): the rendered object, after the CRD defaults and the
 * defaulting webhook, then every admission check registered for its kind.
 */
import { Size, Testing } from 'cdk8s';
import * as admission from '../../src/checks/admission/index';
import {
  BackupSchedule,
  ClusterBootstrap,
  ExternalClusterSource,
  ObjectStore,
  ObjectStoreCredentials,
  Plugin,
  PostgresCluster,
  PostgresClusterProps,
  checkManifests,
} from '../../src/index';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(1) };
const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');

function cluster(props: Partial<PostgresClusterProps> = {}): { chart: ReturnType<typeof Testing.chart>; pg: PostgresCluster } {
  const chart = Testing.chart();
  return { chart, pg: new PostgresCluster(chart, 'pg', { storage, ...props }) };
}

/** The rule ids of the doctor's errors on hand-written manifests. */
const doctorErrors = (objects: object[]) => [
  ...new Set(
    checkManifests(objects, { knownPlugins: [BARMAN.pluginName] })
      .filter((f) => f.severity === 'error')
      .map((f) => f.ruleId),
  ),
];

describe('PostgresCluster: admission at synth', () => {
  test('the image pull policy of the spec passthrough (CNPGI300, validateImagePullPolicy)', () => {
    const { chart } = cluster({ spec: { imagePullPolicy: 'Sometimes' } });
    expect(synthErrors(chart)).toEqual([
      "[test/pg] spec.imagePullPolicy 'Sometimes' the Cluster webhook refuses imagePullPolicy \"Sometimes\" (\"invalid imagePullPolicy, if defined must be one of 'Always', 'Never' or 'IfNotPresent'\"); use Always, Never, IfNotPresent, or leave it out (the kubelet's default for the image's tag)",
    ]);
    const written = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg', namespace: 'db' },
      spec: { instances: 1, storage: { size: '1Gi' }, imagePullPolicy: 'Sometimes' },
    };
    expect(doctorErrors([written])).toEqual(['CNPGI300']);
    for (const policy of ['Always', 'Never', 'IfNotPresent']) expect(synthErrors(cluster({ spec: { imagePullPolicy: policy } }).chart)).toEqual([]);
  });

  test('a replica cluster created by initdb, after the defaulter gives it initdb (CNPGI100, validateReplicaMode)', () => {
    const { chart, pg } = cluster({ replica: { source: 'origin' } });
    pg.addExternalCluster('origin', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'origin-rw' } }));
    expect(synthErrors(chart)).toEqual([
      '[test/pg] replica {"source":"origin"} makes this Cluster a replica cluster (spec.replica sets neither enabled nor primary) whose bootstrap is initdb (the default when none is written); ' +
        'the Cluster webhook refuses to create it ("replica mode bootstrap is compatible only with pg_basebackup or recovery"): a replica starts from a copy of its source, not from an empty database; ' +
        "bootstrap it with pg_basebackup or recovery from 'origin'; for the primary of a distributed topology, set spec.replica.primary to this Cluster's name",
    ]);
    const fixed = cluster({ replica: { source: 'origin' }, bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'origin' } }) });
    fixed.pg.addExternalCluster('origin', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'origin-rw' } }));
    expect(synthErrors(fixed.chart)).toEqual([]);
  });

  test('the first error in the webhook order is the one refused', () => {
    // validateImagePullPolicy is the webhook's 9th function, validateBootstrapPgBaseBackupSource its 20th.
    const { chart } = cluster({ spec: { imagePullPolicy: 'x' }, bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'nowhere' } }) });
    expect(synthErrors(chart)).toHaveLength(1);
    expect(synthErrors(chart)[0]).toMatch(/^\[test\/pg\] spec\.imagePullPolicy 'x' /);
  });

  test('the annotations of the Cluster count: cnpg.io/validation disabled makes the webhook accept it, as the construct does', () => {
    const { chart } = cluster({ metadata: { annotations: { 'cnpg.io/validation': 'disabled' } }, spec: { imagePullPolicy: 'Sometimes' } });
    expect(synthErrors(chart)).toEqual([]);
  });
});

describe('PluginBackup and PluginScheduledBackup: admission at synth', () => {
  afterEach(() => jest.restoreAllMocks());

  test.each(['Backup', 'ScheduledBackup'] as const)('a %s is admitted as rendered, and its first admission error refused', (kind) => {
    const realAdmit = admission.admit;
    // As if a check judged the kind (until one is registered, the construct skips admitting it).
    jest.spyOn(admission, 'hasAdmissionChecks').mockReturnValue(true);
    const admit = jest.spyOn(admission, 'admit');
    const { chart, pg } = cluster();
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    if (kind === 'Backup') pg.addBackup('now', { plugin: BARMAN });
    else pg.addScheduledBackup('nightly', { plugin: BARMAN, schedule: BackupSchedule.daily(0) });
    expect(synthErrors(chart)).toEqual([]);
    const judged = admit.mock.calls.filter(([k]) => k === kind);
    expect(judged).toHaveLength(1);
    expect(judged[0][1]).toMatchObject({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind,
      spec: { cluster: { name: 'pg' }, method: 'plugin', pluginConfiguration: { name: BARMAN.pluginName } },
    });

    // A check registered for the kind refuses through the construct (here a stand-in for one).
    admit.mockImplementation((k, object, context) => {
      const real = realAdmit(k, object, context);
      if (k !== kind) return real;
      const refusal = { severity: 'error' as const, path: 'spec.method', message: 'is refused by a check', fix: 'fix it' };
      return { ...real, issues: new Map([['validate', [refusal]]]) };
    });
    const again = cluster();
    again.pg.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    if (kind === 'Backup') again.pg.addBackup('now', { plugin: BARMAN });
    else again.pg.addScheduledBackup('nightly', { plugin: BARMAN, schedule: BackupSchedule.daily(0) });
    const path = kind === 'Backup' ? 'test/pg/now' : 'test/pg/nightly';
    expect(synthErrors(again.chart)).toEqual([`[${path}] spec.method 'plugin' is refused by a check; fix it`]);
  });
});

/*
 * Restorability across the Clusters of an app (the doctor's CNPGI121 and CNPGI122 errors, with the
 * same checks, src/checks/wal-archive.ts): plugin-barman-cloud v0.14.0 internal/cnpgi/common/wal.go
 * Archive runs barman-cloud-check-wal-archive on a new Cluster's first WAL (CheckBackupDestination);
 * internal/cnpgi/restore/restore.go ensureArchiveContainsLastCheckpointRedoWAL.
 */
describe('PostgresCluster: where the Clusters of an app archive', () => {
  const archiving = (chart: ReturnType<typeof Testing.chart>, id: string, parameters: Record<string, string>, props: Partial<PostgresClusterProps> = {}) => {
    const pg = new PostgresCluster(chart, id, { storage, ...props });
    pg.addPlugin(BARMAN, { isWalArchiver: true, parameters });
    return pg;
  };
  const SHARED = (who: string, other: string, fix: string) =>
    `[test/${who}] plugins[barman-cloud.cloudnative-pg.io].parameters.barmanObjectName 'store' is where Cluster '${who}' archives (server 'pg' of ObjectStore 'store'), and Cluster '${other}' archives there too: whichever archives its first WAL second fails Barman Cloud's empty-archive check (barman-cloud-check-wal-archive finds WAL there) and its WAL is never archived; with cnpg.io/skipEmptyWalArchiveCheck: enabled (or once both archived before) two databases mix in one archive and a recovery may pick the other Cluster's backup; give each Cluster its own server name (e.g. parameters.serverName: ${fix}) or its own ObjectStore`;

  test('two Clusters archiving into one ObjectStore and server name are both refused, and the doctor agrees (CNPGI122)', () => {
    const chart = Testing.chart();
    archiving(chart, 'pg', { barmanObjectName: 'store' });
    archiving(chart, 'pg2', { barmanObjectName: 'store', serverName: 'pg' });
    expect(synthErrors(chart)).toEqual([SHARED('pg', 'pg2', 'pg-default'), SHARED('pg2', 'pg', 'pg2')]);
    const written = (name: string, parameters: object) => ({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name, namespace: 'db' },
      spec: { instances: 1, storage: { size: '1Gi' }, plugins: [{ name: BARMAN.pluginName, isWALArchiver: true, parameters }] },
    });
    expect(doctorErrors([written('pg', { barmanObjectName: 'store' }), written('pg2', { barmanObjectName: 'store', serverName: 'pg' })])).toEqual(['CNPGI122']);
  });

  test('near misses: distinct server names, the same store name in another namespace, a disabled entry, a recovery reading the archive', () => {
    const names = Testing.chart();
    archiving(names, 'pg', { barmanObjectName: 'store' });
    archiving(names, 'pg2', { barmanObjectName: 'store' });
    expect(synthErrors(names)).toEqual([]);
    const namespaces = Testing.chart();
    archiving(namespaces, 'pg', { barmanObjectName: 'store' });
    archiving(namespaces, 'pg2', { barmanObjectName: 'store', serverName: 'pg' }, { metadata: { namespace: 'other' } });
    expect(synthErrors(namespaces)).toEqual([]);
    const disabled = Testing.chart();
    archiving(disabled, 'pg', { barmanObjectName: 'store' });
    new PostgresCluster(disabled, 'pg2', { storage }).addPlugin(BARMAN, { enabled: false, parameters: { barmanObjectName: 'store', serverName: 'pg' } });
    expect(synthErrors(disabled)).toEqual([]);
    const recovery = Testing.chart();
    archiving(recovery, 'pg', { barmanObjectName: 'store' });
    new PostgresCluster(recovery, 'restored', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin', parameters: { barmanObjectName: 'store', serverName: 'pg' } }),
    });
    expect(synthErrors(recovery)).toEqual([]);
  });

  test('two ObjectStores of the app on one destinationPath are one archive (CNPGI122 by path)', () => {
    const make = (second: string) => {
      const chart = Testing.chart();
      const credentials = ObjectStoreCredentials.s3AccessKeys({ accessKeyId: { name: 'c', key: 'id' }, secretAccessKey: { name: 'c', key: 'secret' } });
      const a = new ObjectStore(chart, 'a', { destinationPath: 's3://bucket/x', credentials });
      const b = new ObjectStore(chart, 'b', { destinationPath: second, credentials });
      new PostgresCluster(chart, 'pg', { storage }).addPlugin(BARMAN, { isWalArchiver: true, objectStore: a });
      new PostgresCluster(chart, 'pg2', { storage }).addPlugin(BARMAN, { isWalArchiver: true, objectStore: b, parameters: { serverName: 'pg' } });
      return synthErrors(chart);
    };
    expect(make('s3://bucket/x/').map((l) => l.slice(0, l.indexOf(' whichever')))).toEqual([
      "[test/pg] plugins[barman-cloud.cloudnative-pg.io].parameters.barmanObjectName 'a' is where Cluster 'pg' archives (server 'pg' of ObjectStore 'a' (s3://bucket/x)), and Cluster 'pg2' archives there too:",
      "[test/pg2] plugins[barman-cloud.cloudnative-pg.io].parameters.barmanObjectName 'b' is where Cluster 'pg2' archives (server 'pg' of ObjectStore 'b' (s3://bucket/x/)), and Cluster 'pg' archives there too:",
    ]);
    expect(make('s3://bucket/y')).toEqual([]);
  });

  test('a recovery from the archive of a Cluster that archives no WAL (CNPGI121), and a source archived elsewhere (not refused)', () => {
    const recover = (annotations: Record<string, string>, serverName: string) => {
      const chart = Testing.chart();
      archiving(chart, 'pg', { barmanObjectName: 'store' }, { metadata: { annotations } });
      new PostgresCluster(chart, 'restored', {
        storage,
        bootstrap: ClusterBootstrap.recoveryFromPlugin(BARMAN, { sourceName: 'origin', parameters: { barmanObjectName: 'store', serverName } }),
      });
      return synthErrors(chart);
    };
    expect(recover({ 'cnpg.io/skipWalArchiving': 'enabled' }, 'pg')).toEqual([
      "[test/restored] externalClusters[origin].plugin.parameters.serverName 'pg' points the recovery of Cluster 'restored' at server 'pg' of ObjectStore 'store', the archive of Cluster 'pg', which has cnpg.io/skipWalArchiving: enabled and archives no WAL; Barman Cloud refuses a backup whose first WAL is not in the archive, and no recovery target past the backup can be reached; remove the cnpg.io/skipWalArchiving annotation from Cluster 'pg'",
    ]);
    // another server name: the source may be a Cluster of another repository (the doctor warns, CNPGI121)
    expect(recover({ 'cnpg.io/skipWalArchiving': 'enabled' }, 'legacy')).toEqual([]);
    expect(recover({}, 'pg')).toEqual([]);
  });
});
