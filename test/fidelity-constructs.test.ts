/*
 * Issue 12, "the constructs refuse the same mistakes": for each operator-fidelity rule of the
 * doctor where a construct could write the mistake, the mistake is built through the public API
 * (src/index.ts only) and the construct refuses it with a CnpgIValidationError; the same mistake
 * written by hand is what the doctor reports, under the rule named in each test. Where the
 * constructs cannot write the mistake at all, a test shows what they write instead.
 *
 * The construct layer is being redesigned (issue 13): the assertions name the construct path
 * and the words of the problem, not whole messages, so that a reworded message still passes
 * while a construct that lets the mistake through fails.
 */
import { Chart, Duration, Size, Testing } from 'cdk8s';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  ClusterBootstrap,
  CnpgIValidationError,
  ExternalClusterSource,
  ObjectStore,
  ObjectStoreCredentials,
  Plugin,
  PluginTls,
  PostgresCluster,
  PrivateKeyAlgorithm,
  RecoveryTarget,
  StandalonePlugin,
  checkManifests,
} from '../src';

const BARMAN = 'barman-cloud.cloudnative-pg.io';
const barmanRef = Plugin.fromPluginName(BARMAN);
const S3 = { accessKeyId: { name: 'aws', key: 'ID' }, secretAccessKey: { name: 'aws', key: 'SECRET' } };
const storage = { size: Size.gibibytes(1) };
const js = (v: unknown): any => v;

/**
 * Runs `build` (construction and synth) and returns the library's error: a CnpgIValidationError
 * thrown where the prop is written, or cdk8s's aggregated validation error at synth (the schema
 * guard and the synth-time checks); fails on anything else.
 */
function refusal(build: () => unknown): Error {
  let caught: unknown;
  try {
    build();
  } catch (e) {
    caught = e;
  }
  if (caught === undefined) throw new Error('the constructs accepted the mistake');
  if (!(caught instanceof CnpgIValidationError)) {
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toMatch(/^Validation failed with the following errors:/);
  }
  return caught as Error;
}
function expectRefused(build: () => unknown, ...words: string[]): void {
  const message = refusal(build).message;
  for (const w of words) expect(message).toContain(w);
}
const synthOf = (chart: Chart) => () => Testing.synth(chart);
/** A chart in the operator's namespace, where plugins live. */
const operatorChart = () => new Chart(Testing.app(), 'cnpg-system', { namespace: 'cnpg-system' });

/** The doctor's error rule ids on hand-written manifests. */
const doctorErrors = (objects: object[]) =>
  [
    ...new Set(
      checkManifests(objects, { knownPlugins: [BARMAN] })
        .filter((f) => f.severity === 'error')
        .map((f) => f.ruleId),
    ),
  ].sort();
const clusterDoc = (spec: object, namespace = 'db') => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace },
  spec: { instances: 1, storage: { size: '1Gi' }, ...spec },
});

describe('CNPGI100 cluster references', () => {
  test('a recovery source that names no external cluster', () => {
    const chart = Testing.chart();
    new PostgresCluster(chart, 'pg', { storage, bootstrap: ClusterBootstrap.fromSpec({ recovery: { source: 'origin' } }) });
    expectRefused(synthOf(chart), 'origin');
    expect(doctorErrors([clusterDoc({ bootstrap: { recovery: { source: 'origin' } } })])).toContain('CNPGI100');
  });
  test('a pg_basebackup source, a replica source and a replica primary that name no external cluster', () => {
    for (const props of [
      { bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'origin' } }) },
      // A replica cluster is created from pg_basebackup or recovery (validateReplicaMode).
      { bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'other' } }), replica: { source: 'origin' } },
    ]) {
      const chart = Testing.chart();
      const pg = new PostgresCluster(chart, 'pg', { storage, ...props });
      pg.addExternalCluster('other', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' } }));
      expectRefused(synthOf(chart), 'origin');
    }
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', {
      storage,
      bootstrap: ClusterBootstrap.fromSpec({ pgBasebackup: { source: 'a' } }),
      replica: { source: 'a', primary: 'x' },
    });
    pg.addExternalCluster('a', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'a' } }));
    expectRefused(synthOf(chart), 'replica.primary', "'x'");
    expect(
      doctorErrors([
        clusterDoc({
          bootstrap: { pg_basebackup: { source: 'a' } },
          replica: { source: 'a', primary: 'x' },
          externalClusters: [{ name: 'a', connectionParameters: { host: 'a' } }],
        }),
      ]),
    ).toContain('CNPGI100');
  });
  test('replica.enabled together with replica.primary', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage, replica: { source: 'b', enabled: true, primary: 'a' } });
    pg.addExternalCluster('a', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'a' } }));
    pg.addExternalCluster('b', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'b' } }));
    expectRefused(synthOf(chart), 'replica.enabled', 'primary');
  });
  test('duplicate external cluster names, an external cluster without a source, and path-component names', () => {
    const pg = new PostgresCluster(Testing.chart(), 'pg', { storage });
    pg.addExternalCluster('origin', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' } }));
    expectRefused(() => pg.addExternalCluster('origin', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' } })), 'origin');
    expectRefused(() => pg.addExternalCluster('empty', js({})), 'empty', 'connectionParameters');
    for (const name of ['.', '..', 'a/b', 'a\\b'])
      expectRefused(() => pg.addExternalCluster(name, ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' } })), name);
    expectRefused(() => ClusterBootstrap.recoveryFromPlugin(barmanRef, { sourceName: '../up', parameters: { barmanObjectName: 's' } }), 'sourceName');
    expect(
      doctorErrors([
        clusterDoc({
          externalClusters: [
            { name: 'empty' },
            { name: 'a/b', connectionParameters: {} },
            { name: 'o', connectionParameters: {} },
            { name: 'o', connectionParameters: {} },
          ],
        }),
      ]),
    ).toEqual(['CNPGI100']);
  });
  test('two bootstrap methods cannot be written: a bootstrap is one ClusterBootstrap', () => {
    expectRefused(() => ClusterBootstrap.fromSpec(js({ initdb: {}, recovery: { source: 'o' } })), 'bootstrap');
  });
});

describe('CNPGI101/CNPGI102 backups and schedules', () => {
  const cluster = () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(barmanRef, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    return { chart, pg };
  };
  test('a 5-field schedule is refused with the 6-field form; 7 fields are refused', () => {
    expectRefused(() => cluster().pg.addScheduledBackup('nightly', { plugin: barmanRef, schedule: BackupSchedule.expression('0 2 * * *') }), '0 0 2 * * *');
    expectRefused(() => cluster().pg.addScheduledBackup('nightly', { plugin: barmanRef, schedule: BackupSchedule.expression('0 0 2 * * * 2026') }), '7 fields');
    const schedule = (s: string) =>
      doctorErrors([
        clusterDoc({ plugins: [{ name: BARMAN, parameters: { barmanObjectName: 'store' } }] }),
        {
          apiVersion: 'postgresql.cnpg.io/v1',
          kind: 'ScheduledBackup',
          metadata: { name: 'n', namespace: 'db' },
          spec: { cluster: { name: 'pg' }, schedule: s, method: 'plugin', pluginConfiguration: { name: BARMAN } },
        },
      ]);
    expect(schedule('0 2 * * *')).toContain('CNPGI102');
    expect(schedule('0 0 2 * * *')).not.toContain('CNPGI102');
  });
  test('descriptors and 6 fields are accepted, as robfig/cron reads them', () => {
    for (const s of ['@daily', '@every 1h30m', '0 0 2 * * *']) {
      const { chart, pg } = cluster();
      pg.addScheduledBackup(`b${s.length}`, { plugin: barmanRef, schedule: BackupSchedule.expression(s) });
      expect(Testing.synth(chart).find((o) => o.kind === 'ScheduledBackup')?.spec.schedule).toBe(s);
    }
  });
  test('method and enums are written as the CRD spells them (a plugin backup is always method: plugin)', () => {
    const { chart, pg } = cluster();
    pg.addBackup('now', { plugin: barmanRef });
    const backup = Testing.synth(chart).find((o) => o.kind === 'Backup');
    expect(backup?.spec).toMatchObject({ method: 'plugin', pluginConfiguration: { name: BARMAN } });
    expectRefused(
      () => {
        const c = cluster();
        c.pg.addBackup('now', js({ plugin: barmanRef, target: 'Primary' }));
        Testing.synth(c.chart);
      },
      'target',
      'Primary',
    );
  });
});

describe('CNPGI103 backup prerequisites', () => {
  test('a backup through a plugin the Cluster does not enable', () => {
    for (const enable of [undefined, false]) {
      const chart = Testing.chart();
      const pg = new PostgresCluster(chart, 'pg', { storage });
      if (enable === false) pg.addPlugin(barmanRef, { enabled: false, parameters: { barmanObjectName: 'store' } });
      expectRefused(() => {
        pg.addBackup('now', { plugin: barmanRef });
        Testing.synth(chart);
      }, BARMAN);
      expectRefused(() => {
        pg.addScheduledBackup('nightly', { plugin: barmanRef, schedule: BackupSchedule.expression('@daily') });
        Testing.synth(chart);
      }, BARMAN);
    }
    expect(
      doctorErrors([
        clusterDoc({}),
        {
          apiVersion: 'postgresql.cnpg.io/v1',
          kind: 'Backup',
          metadata: { name: 'b', namespace: 'db' },
          spec: { cluster: { name: 'pg' }, method: 'plugin', pluginConfiguration: { name: BARMAN } },
        },
      ]),
    ).toContain('CNPGI103');
  });
});

describe('CNPGI106 Barman Cloud', () => {
  test('a Cluster parameter other than barmanObjectName/serverName: ignored by the plugin, so accepted; the missing barmanObjectName is the error', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', { storage });
    pg.addPlugin(barmanRef, { isWalArchiver: true, parameters: { barmanObjectName: 'store', objectStore: 'store' } });
    expect(synthOf(chart)).not.toThrow();
    // by hand without barmanObjectName, the doctor's error is the missing name; the ignored key a warning
    const findings = checkManifests([clusterDoc({ plugins: [{ name: BARMAN, isWALArchiver: true, parameters: { objectStore: 'store' } }] })], {
      knownPlugins: [BARMAN],
    }).filter((f) => f.ruleId === 'CNPGI106');
    expect(findings.map((f) => `${f.severity} ${f.path}`)).toEqual([
      'error spec.plugins[0].parameters.barmanObjectName',
      'warning spec.plugins[0].parameters.objectStore',
    ]);
  });
  test('an ObjectStore in another namespace than the Cluster', () => {
    const app = Testing.app();
    const storeChart = new Chart(app, 'stores', { namespace: 'backups' });
    const dbChart = new Chart(app, 'db', { namespace: 'db' });
    const store = new ObjectStore(storeChart, 'store', { destinationPath: 's3://b/pg', credentials: ObjectStoreCredentials.s3AccessKeys(S3) });
    const pg = new PostgresCluster(dbChart, 'pg', { storage });
    pg.addPlugin(barmanRef, { isWalArchiver: true, parameters: { barmanObjectName: store.name } });
    expectRefused(() => app.synth(), store.name, 'namespace');
    expect(
      doctorErrors([
        clusterDoc({ plugins: [{ name: BARMAN, isWALArchiver: true, parameters: { barmanObjectName: 'store' } }] }),
        {
          apiVersion: 'barmancloud.cnpg.io/v1',
          kind: 'ObjectStore',
          metadata: { name: 'store', namespace: 'backups' },
          spec: { configuration: { destinationPath: 's3://b/pg' } },
        },
      ]),
    ).toContain('CNPGI106');
  });
  test('a recovered Cluster that archives into its source destination and serverName', () => {
    const chart = Testing.chart();
    const pg = new PostgresCluster(chart, 'pg', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(barmanRef, { sourceName: 'origin', parameters: { barmanObjectName: 'store', serverName: 'pg' } }),
    });
    pg.addPlugin(barmanRef, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    expectRefused(synthOf(chart), 'serverName');
    // with its own serverName it is accepted
    const ok = Testing.chart();
    const pg2 = new PostgresCluster(ok, 'pg', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(barmanRef, { sourceName: 'origin', parameters: { barmanObjectName: 'store', serverName: 'pg' } }),
    });
    pg2.addPlugin(barmanRef, { isWalArchiver: true, parameters: { barmanObjectName: 'store', serverName: 'pg-v2' } });
    expect(() => Testing.synth(ok)).not.toThrow();
  });
});

describe('CNPGI105/CNPGI107 plugin identity and the Barman Cloud Deployment', () => {
  test('BarmanCloudPlugin labels its Service with the name the image reports and always sets SIDECAR_IMAGE', () => {
    const chart = operatorChart();
    new BarmanCloudPlugin(chart, 'barman');
    const out = Testing.synth(chart);
    expect(out.find((o) => o.kind === 'Service')?.metadata.labels['cnpg.io/pluginName']).toBe(BARMAN);
    const container = out.find((o) => o.kind === 'Deployment')?.spec.template.spec.containers[0];
    expect(container.env.map((e: { name: string }) => e.name)).toContain('SIDECAR_IMAGE');
    expect(doctorErrors(out)).toEqual([]);
  });
  test('a known image under another plugin name: StandalonePlugin refuses it, and the doctor reports it written by hand (CNPGI105)', () => {
    expectRefused(
      () =>
        new StandalonePlugin(operatorChart(), 'p', {
          pluginName: 'backups.example.com',
          image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0',
          args: ['operator'],
        }),
      'pluginName',
      BARMAN,
    );
    const chart = operatorChart();
    new BarmanCloudPlugin(chart, 'barman');
    const out = Testing.synth(chart);
    const service = out.find((o) => o.kind === 'Service');
    service.metadata.labels['cnpg.io/pluginName'] = 'backups.example.com';
    expect(doctorErrors(out)).toContain('CNPGI105');
  });
});

describe('CNPGI108 cert-manager admission', () => {
  test('key sizes per algorithm, renewBefore against duration', () => {
    expectRefused(
      () =>
        new StandalonePlugin(operatorChart(), 'p', {
          pluginName: 'a.example.com',
          image: 'x:1',
          tls: PluginTls.selfSigned({ privateKeyAlgorithm: PrivateKeyAlgorithm.RSA, privateKeySize: 1024 }),
        }),
      'privateKeySize',
    );
    expectRefused(
      () =>
        new StandalonePlugin(operatorChart(), 'p', {
          pluginName: 'a.example.com',
          image: 'x:1',
          tls: PluginTls.selfSigned({ privateKeyAlgorithm: PrivateKeyAlgorithm.ECDSA, privateKeySize: 300 }),
        }),
      'privateKeySize',
    );
    expectRefused(
      () =>
        new StandalonePlugin(operatorChart(), 'p', {
          pluginName: 'a.example.com',
          image: 'x:1',
          tls: PluginTls.selfSigned({ duration: Duration.hours(2), renewBefore: Duration.hours(3) }),
        }),
      'renewBefore',
    );
  });
});

describe('CNPGI110/CNPGI112 TLS files and trust', () => {
  test('every TLS mode trusts the client Secret (never another Secret) and names keys cert-manager writes', () => {
    for (const tls of [undefined, PluginTls.privateCa(), PluginTls.fromSecrets({ clientSecretName: 'c', serverSecretName: 's', clientCaKey: 'tls.crt' })]) {
      const chart = operatorChart();
      const plugin = new StandalonePlugin(chart, 'p', { pluginName: 'a.example.com', image: 'x:1', ...(tls ? { tls } : {}) });
      const out = Testing.synth(chart);
      const dep = out.find((o) => o.kind === 'Deployment');
      const pod = dep.spec.template.spec;
      const args: string[] = pod.containers[0].args;
      const clientCert = args.find((a) => a.startsWith('--client-cert='))!.slice('--client-cert='.length);
      const mount = pod.containers[0].volumeMounts.find((m: { mountPath: string }) => clientCert.startsWith(`${m.mountPath}/`));
      expect(pod.volumes.find((v: { name: string }) => v.name === mount.name).secret.secretName).toBe(plugin.clientSecretName);
      expect(
        checkManifests(out, { knownPlugins: [] }).filter((f) => ['CNPGI110', 'CNPGI112', 'CNPGI025'].includes(f.ruleId) && f.severity === 'error'),
      ).toEqual([]);
    }
  });
  test('no Secret data is written, so CNPGI115 has nothing to find in construct output', () => {
    const chart = operatorChart();
    new BarmanCloudPlugin(chart, 'barman');
    expect(Testing.synth(chart).filter((o) => o.kind === 'Secret')).toEqual([]);
  });
});

describe('CNPGI114 Kubernetes names', () => {
  test('a plugin name that is no valid label value (over 63 characters, bad characters)', () => {
    expectRefused(() => new StandalonePlugin(operatorChart(), 'p', { pluginName: `${'a'.repeat(60)}.example.com`, image: 'x:1' }), 'pluginName');
    expectRefused(() => new StandalonePlugin(operatorChart(), 'p', { pluginName: 'bad name', image: 'x:1' }), 'pluginName');
  });
});

/*
 * Issue 22, section 2: the app of the issue (daily Barman Cloud backups of a Cluster that forgot
 * isWalArchiver, and a point-in-time recovery from that Cluster's server name), built through the
 * public API. At the pinned versions Barman Cloud archives the WAL anyway (cloudnative-pg v1.30.0
 * pkg/management/postgres/archiver/archiver.go archiveWALViaPlugins; plugin-barman-cloud v0.14.0
 * internal/cnpgi/common/wal.go Archive never reads isWALArchiver), so the constructs accept it and
 * the doctor warns (CNPGI123); what cannot be restored is refused (CNPGI120-122).
 */
describe('CNPGI120-123 restorability', () => {
  function issueApp(options: { isWalArchiver?: boolean; serverName?: string; annotations?: Record<string, string> } = {}) {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    const store = new ObjectStore(chart, 'store', { destinationPath: 's3://b/db', credentials: ObjectStoreCredentials.s3AccessKeys(S3) });
    const pg = new PostgresCluster(chart, 'pg', { storage, metadata: { annotations: options.annotations } });
    pg.addPlugin(barmanRef, { isWalArchiver: options.isWalArchiver, objectStore: store });
    pg.addScheduledBackup('daily', { plugin: barmanRef, schedule: BackupSchedule.daily(2) });
    new PostgresCluster(chart, 'pitr', {
      storage,
      bootstrap: ClusterBootstrap.recoveryFromPlugin(barmanRef, {
        sourceName: 'origin',
        objectStore: store,
        parameters: options.serverName === undefined ? undefined : { serverName: options.serverName },
        recoveryTarget: RecoveryTarget.timestamp('2026-01-01 00:00:00+00'),
      }),
    });
    return app;
  }
  const findings = (app: ReturnType<typeof Testing.app>) =>
    checkManifests(
      app.charts.flatMap((c) => c.toJson()),
      { knownPlugins: [BARMAN] },
    )
      .filter((f) => /^CNPGI12[0-3]$/.test(f.ruleId))
      .map((f) => `${f.ruleId} ${f.severity} ${f.object}`);

  test('isWalArchiver forgotten: accepted (the WAL is archived), and the doctor warns', () => {
    const app = issueApp({ serverName: 'pg' });
    expect(() => app.synth()).not.toThrow();
    expect(findings(app)).toEqual(['CNPGI123 warning Cluster/db/pg']);
    expect(findings(issueApp({ isWalArchiver: true, serverName: 'pg' }))).toEqual([]);
  });

  test("the recovery without serverName reads the recovering Cluster's own name: the doctor warns, naming the fix", () => {
    const app = issueApp({ isWalArchiver: true });
    const f = checkManifests(
      app.charts.flatMap((c) => c.toJson()),
      { knownPlugins: [BARMAN] },
    ).filter((x) => x.ruleId === 'CNPGI121');
    expect(f.map((x) => [x.severity, x.object, x.fix])).toEqual([
      ['warning', 'Cluster/db/pitr', "if the backups are those of Cluster 'pg', set parameters.serverName: pg on external cluster 'origin'"],
    ]);
  });

  test('a source that archives no WAL: its backups and the recovery are refused', () => {
    const app = issueApp({ isWalArchiver: true, serverName: 'pg', annotations: { 'cnpg.io/skipWalArchiving': 'enabled' } });
    expectRefused(() => app.synth(), 'db/pg/daily', 'cnpg.io/skipWalArchiving', 'cannot be restored');
    expectRefused(() => app.synth(), 'db/pitr', 'archives no WAL');
  });
});
