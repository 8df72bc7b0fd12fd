import * as path from 'path';
import { ApiObject, App, Chart, JsonPatch, Size, Testing } from 'cdk8s';
import { analyzeManifests, checkManifests } from '../../src/doctor/check-manifests';
import { DOCTOR_RULES } from '../../src/doctor/registry';
import { Doctor, formatFinding } from '../../src/doctor/synth-validation';
import { CnpgOperator } from '../../src/plugins/cnpg-operator';
import { Plugin } from '../../src/plugins/plugin';
import { StandalonePlugin } from '../../src/plugins/standalone-plugin';
import { BackupSchedule, PluginBackup, PostgresCluster } from '../../src/postgres';
import { IssuerRef } from '../../src/tls/issuer-ref';
import { PluginTls } from '../../src/tls/plugin-tls';

const OPERATOR = path.join(__dirname, '..', 'fixtures', 'operator', 'operator.yaml');
const HELLO = { pluginName: 'cnpg-i-hello-world.cloudnative-pg.io', image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0', args: ['plugin'] };

function cluster(chart: Chart, pluginName: string) {
  return new ApiObject(chart, `pg-${pluginName}`, {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', namespace: 'app' },
    spec: { instances: 1, storage: { size: '1Gi' }, plugins: [{ name: pluginName }] },
  } as any);
}

describe('Doctor at synth', () => {
  test.each<[string, () => PluginTls]>([
    ['selfSigned (default)', () => PluginTls.selfSigned()],
    ['privateCa', () => PluginTls.privateCa()],
    ['fromIssuer Issuer', () => PluginTls.fromIssuer(IssuerRef.issuer('corp-ca'))],
    ['fromIssuer ClusterIssuer', () => PluginTls.fromIssuer(IssuerRef.clusterIssuer('corp-ca'))],
    ['fromIssuer external', () => PluginTls.fromIssuer(IssuerRef.external({ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'pca' }))],
    ['fromSecrets', () => PluginTls.fromSecrets({ clientSecretName: 'hello-client', serverSecretName: 'hello-server' })],
  ])('StandalonePlugin with %s has no doctor errors', (_mode, tls) => {
    const app = Testing.app();
    const chart = new Chart(app, 'plugins', { namespace: 'cnpg-system' });
    new StandalonePlugin(chart, 'hello', { ...HELLO, tls: tls() });
    cluster(chart, HELLO.pluginName);
    const report = Doctor.analyze(app, { operatorNamespace: 'cnpg-system' });
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    // warnings only where the doctor cannot see something outside the app
    for (const w of report.findings) expect(['CNPGI020', 'CNPGI024']).toContain(w.ruleId);
    expect(report.plugins.map((p) => p.name)).toEqual([HELLO.pluginName]);
  });

  test('with a serverName, the verified name is the annotation and the SAN covers it', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'plugins', { namespace: 'cnpg-system' });
    new StandalonePlugin(chart, 'hello', { ...HELLO, serverName: 'hello.plugins.internal', tls: PluginTls.privateCa() });
    const report = Doctor.analyze(app, { operatorNamespace: 'cnpg-system' });
    expect(report.findings).toEqual([]);
    expect(report.plugins[0].serverName).toBe('hello.plugins.internal');
    // an operator that predates the annotation verifies the short name, which the library also covers
    const old = Doctor.analyze(app, { operatorNamespace: 'cnpg-system', cnpgVersion: '1.26.2' });
    expect(old.findings.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['CNPGI019 warning']);
  });

  test('the operator release manifest and a sidecar plugin: the sidecar name is known from the construct', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'operator');
    const operator = CnpgOperator.fromManifest(chart, 'cnpg', { path: OPERATOR });
    operator.addSidecarPlugin('hello', HELLO);
    const apps = new Chart(app, 'apps', { namespace: 'app' });
    cluster(apps, HELLO.pluginName);
    const report = Doctor.analyze(app);
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.operatorNamespace).toBe('pg-operator');
    expect(report.plugins.map((p) => p.name)).toContain(HELLO.pluginName);
  });

  test('SidecarPlugin passes its container and plugin name: a misspelled name in a Cluster is an error', () => {
    const app = Testing.app();
    const operator = CnpgOperator.fromManifest(new Chart(app, 'operator'), 'cnpg', { path: OPERATOR });
    const sidecar = operator.addSidecarPlugin('hello', HELLO);
    cluster(new Chart(app, 'apps', { namespace: 'app' }), 'cnpg-i-hello-world.cloudnative-pg.com');
    const report = Doctor.analyze(app);
    expect(report.plugins.find((p) => p.name === HELLO.pluginName)).toMatchObject({ source: 'sidecar', address: `unix:///plugins/${HELLO.pluginName}` });
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => `${f.ruleId} ${f.object}`)).toEqual(['CNPGI040 Cluster/app/pg']);
    expect(sidecar.containerName).toBe('cnpg-i-hello-world');
  });

  test('addValidation prints warnings without failing', () => {
    const app = Testing.app();
    new ApiObject(new Chart(app, 'c'), 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    const printed: string[] = [];
    Doctor.addValidation(app, { printWarning: (line) => printed.push(line) });
    expect(() => app.synthYaml()).not.toThrow();
    expect(printed).toEqual([
      "cnpg-i-doctor warning CNPGI001 warning input: no operator namespace given and no operator Deployment in the input; assumed 'cnpg-system'; fix: pass --operator-namespace <namespace> (operatorNamespace), or include the operator Deployment",
    ]);
    const spy = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const other = Testing.app();
      new ApiObject(new Chart(other, 'c'), 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
      Doctor.addValidation(other);
      other.synthYaml();
      expect(spy.mock.calls.map((c) => String(c[0]))).toEqual([`${printed[0]}\n`]);
    } finally {
      spy.mockRestore();
    }
    expect(() => Doctor.addValidation(app, { printWarning: 'x' as any })).toThrow("Doctor.addValidation: options.printWarning 'x' is not a function");
  });

  test('addValidation makes synth fail on errors only', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'apps', { namespace: 'app' });
    cluster(chart, 'missing.example.com');
    Doctor.addValidation(app, { operatorNamespace: 'cnpg-system', complete: true });
    expect(() => app.synth()).toThrow(
      /Validation failed with the following errors:\n {2}\[\] CNPGI040 error Cluster\/app\/pg \(spec.plugins\[0\].name\): Cluster names plugin 'missing.example.com', which is not discovered/,
    );
    // each finding says which construct writes its object (the Cluster, not its ApiObject `Resource`)
    expect(() => app.synth()).toThrow(/; fix: [^\n]*\n {4}at construct apps\/pg-missing\.example\.com$/m);

    const ok = Testing.app();
    const okChart = new Chart(ok, 'apps', { namespace: 'app' });
    cluster(okChart, 'missing.example.com');
    Doctor.addValidation(ok, { operatorNamespace: 'cnpg-system', knownPlugins: ['missing.example.com'], complete: true });
    expect(() => ok.synthYaml()).not.toThrow();

    // an app of Clusters only does not show which plugins are installed: a warning, printed
    const partial = Testing.app();
    cluster(new Chart(partial, 'apps', { namespace: 'app' }), 'missing.example.com');
    const printed: string[] = [];
    Doctor.addValidation(partial, { operatorNamespace: 'cnpg-system', printWarning: (line) => printed.push(line) });
    expect(() => partial.synthYaml()).not.toThrow();
    expect(printed).toEqual([
      expect.stringContaining(
        "CNPGI040 warning Cluster/app/pg (spec.plugins[0].name): Cluster names plugin 'missing.example.com', which the input does not install",
      ),
    ]);
  });

  test('addValidation analyzes the app once per synth call, and afresh at the next one', () => {
    // two charts: cdk8s validates the app three times in one synthYaml() (once, then before each chart)
    const app = Testing.app();
    const pg = new PostgresCluster(new Chart(app, 'apps', { namespace: 'app' }), 'pg', { instances: 1, storage: { size: Size.gibibytes(1) } });
    new ApiObject(new Chart(app, 'other', { namespace: 'app' }), 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    Doctor.addValidation(app, { operatorNamespace: 'cnpg-system', knownPlugins: ['missing.example.com'], complete: true, printWarning: () => {} });
    const spy = jest.spyOn(Doctor, 'validateApp');
    try {
      expect(() => app.synthYaml()).not.toThrow();
      expect(spy).toHaveBeenCalledTimes(1);
      // a change between two synths is seen by the next one
      pg.apiObject.addJsonPatch(JsonPatch.add('/spec/plugins', [{ name: 'absent.example.com' }]));
      expect(() => app.synthYaml()).toThrow(/CNPGI040 error Cluster\/app\/pg \(spec.plugins\[0\].name\)/);
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  test('failOnWarnings fails on warnings', () => {
    const app = new App({ outdir: path.join(__dirname, 'never-written') });
    new ApiObject(new Chart(app, 'c'), 'x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    Doctor.addValidation(app, { failOnWarnings: true });
    expect(() => app.synthYaml()).toThrow(/CNPGI001 warning input: no operator namespace given/);
  });

  test('objects added after addValidation are checked (lazy)', () => {
    const app = Testing.app();
    Doctor.addValidation(app, { operatorNamespace: 'cnpg-system', complete: true });
    cluster(new Chart(app, 'late', { namespace: 'app' }), 'late.example.com');
    expect(() => app.synthYaml()).toThrow(/late.example.com/);
  });

  test('bad scope throws a validation error', () => {
    expect(() => Doctor.addValidation(undefined as any)).toThrow('Doctor.addValidation: scope is not a construct; pass the cdk8s App or a Chart');
    expect(formatFinding({ ruleId: 'CNPGI090', ruleName: 'not-a-kubernetes-object', severity: 'error', object: 'o', message: 'm', fix: 'f' })).toBe(
      'CNPGI090 error o: m; fix: f',
    );
  });
});

describe('Doctor at synth: the Cluster a backup names (CNPGI118), the Secrets a Cluster reads (CNPGI119)', () => {
  const BARMAN = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
  const options = { operatorNamespace: 'cnpg-system', knownPlugins: [BARMAN.pluginName] };

  /** An app with a PostgresCluster 'orders' in namespace 'db' that archives through Barman Cloud. */
  function ordersApp() {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    const orders = new PostgresCluster(chart, 'orders', { storage: { size: Size.gibibytes(1) }, metadata: { name: 'orders' } });
    orders.addPlugin(BARMAN, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } });
    return { app, chart, orders };
  }
  const lines = (app: App, ruleId: string, complete = false) =>
    Doctor.analyze(app, { ...options, complete })
      .findings.filter((f) => f.ruleId === ruleId)
      .map(formatFinding);

  test('addBackup and addScheduledBackup name their own Cluster: nothing to report, even with complete', () => {
    const { app, orders } = ordersApp();
    orders.addBackup('now', { plugin: BARMAN });
    orders.addScheduledBackup('nightly', { plugin: BARMAN, schedule: BackupSchedule.daily(2) });
    expect(lines(app, 'CNPGI118', true)).toEqual([]);
  });

  // Not declared external, the construct refuses the misspelling itself (test/plugins/plugin.test.ts).
  test('a PluginBackup of an external PostgresCluster.fromClusterName near an app Cluster: a printed warning by default, a failed synth with complete', () => {
    const make = () => {
      const { app, chart } = ordersApp();
      new PluginBackup(chart, 'adhoc', { cluster: PostgresCluster.fromClusterName('ordres', { external: true }), plugin: BARMAN, metadata: { name: 'adhoc' } });
      return app;
    };
    const message =
      "CNPGI118 %s Backup/db/adhoc (spec.cluster.name): Cluster 'ordres' is not in the input in namespace 'db' (did you mean 'orders'?); the operator keeps the Backup pending and retries every 30 seconds (event FindingCluster \"Unknown cluster ordres\"); no backup is taken until it exists%s; fix: write spec.cluster.name: orders";
    // the app's default: not complete, since a backup may name a Cluster managed elsewhere
    const printed: string[] = [];
    const partial = make();
    Doctor.addValidation(partial, { ...options, printWarning: (line) => printed.push(line) });
    expect(() => partial.synthYaml()).not.toThrow();
    expect(printed.filter((l) => l.includes('CNPGI118'))).toEqual([`cnpg-i-doctor warning ${message.replace('%s', 'warning').replace('%s', '')}`]);
    const complete = make();
    Doctor.addValidation(complete, { ...options, complete: true });
    expect(() => complete.synthYaml()).toThrow(message.replace('%s', 'error').replace('%s', '; the input is said to be complete, so nothing else provides it'));
  });

  test('a user-written ApiObject ScheduledBackup naming a Cluster the app does not hold', () => {
    const { app, chart } = ordersApp();
    new ApiObject(chart, 'raw', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'ScheduledBackup',
      metadata: { name: 'raw' },
      spec: { cluster: { name: 'reports' }, schedule: '0 0 2 * * *', method: 'plugin', pluginConfiguration: { name: BARMAN.pluginName } },
    });
    expect(lines(app, 'CNPGI118')).toEqual([
      "CNPGI118 warning ScheduledBackup/db/raw (spec.cluster.name): Cluster 'reports' is not in the input in namespace 'db'; the operator still creates a Backup at every scheduled time, and each stays pending (event FindingCluster) until it exists; fix: name a Cluster of namespace 'db' in spec.cluster.name, or add Cluster 'reports' to the input",
    ]);
    expect(lines(app, 'CNPGI118', true).map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual(['CNPGI118 error ScheduledBackup/db/raw']);
  });

  test('with complete, a Secret a PostgresCluster reads must be in the app; the Secrets the operator writes need not', () => {
    const { app, chart, orders } = ordersApp();
    new ApiObject(chart, 'repl', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'orders-replica' },
      spec: {
        instances: 1,
        storage: { size: '1Gi' },
        bootstrap: { pg_basebackup: { source: 'orders' } },
        replica: { enabled: true, source: 'orders' },
        externalClusters: [
          {
            name: 'orders',
            connectionParameters: { host: 'orders-rw', user: 'streaming_replica' },
            sslKey: { name: `${orders.name}-replication`, key: 'tls.key' },
            sslCert: { name: `${orders.name}-replication`, key: 'tls.crt' },
            sslRootCert: { name: `${orders.name}-ca`, key: 'ca.crt' },
            password: { name: 'orders-monitor', key: 'password' },
          },
        ],
      },
    });
    expect(lines(app, 'CNPGI119', true).map((l) => l.split(':')[0])).toEqual(['CNPGI119 error Cluster/db/orders-replica (spec.externalClusters[0].password)']);
    expect(lines(app, 'CNPGI119')).toEqual([]);
  });
});

describe('Doctor: every doctor function and constant is also a static member (jsii languages)', () => {
  const docs = [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'p', namespace: 'cnpg-system', labels: { 'cnpg.io/pluginName': 'p.example.com' } },
      spec: { ports: [{ port: 9090 }] },
    },
  ];
  test('the statics give what the plain exports give', () => {
    expect(Doctor.checkManifests(docs)).toEqual(checkManifests(docs));
    expect(Doctor.checkManifests(docs).length).toBeGreaterThan(0);
    expect(Doctor.analyzeManifests(docs, { operatorNamespace: 'cnpg-system' })).toEqual(analyzeManifests(docs, { operatorNamespace: 'cnpg-system' }));
    const f = Doctor.checkManifests(docs)[0];
    expect(Doctor.formatFinding(f)).toBe(formatFinding(f));
    expect(Doctor.DOCTOR_RULES).toBe(DOCTOR_RULES);
  });
  test('one name each: no second spelling of a function or type is exported', () => {
    const lib = require('../../src');
    expect(lib.addDoctorValidation).toBeUndefined();
    expect((Doctor as unknown as Record<string, unknown>).plan).toBeUndefined();
    expect(typeof lib.planChanges).toBe('function');
  });
});
