import { ApiObject, App, Chart, Duration, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  OperatorDeployment,
  Plugin,
  PluginMonitoring,
  PluginMonitoringAlert,
  PostgresCluster,
  SidecarPlugin,
  StandalonePlugin,
} from '../../src';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';
import { monitoringApp } from './monitoring-app';

function objects(charts: Chart[]): any[] {
  return charts.flatMap((c) => Testing.synth(c));
}

function rulesOf(all: any[]): any[] {
  return all.filter((o) => o.kind === 'PrometheusRule').flatMap((r) => r.spec.groups.flatMap((g: any) => g.rules));
}

describe('PluginMonitoring', () => {
  test('monitors every Cluster, plugin Deployment and Pooler of the app by default', () => {
    const { charts, monitoring } = monitoringApp();
    const all = objects(charts);
    const podMonitors = all.filter((o) => o.kind === 'PodMonitor');
    expect(podMonitors.map((m) => `${m.metadata.namespace}/${m.metadata.name}`)).toEqual(['databases/pg', 'databases/sleepy', 'databases/pg-pooler-rw']);
    expect(monitoring.podMonitors).toHaveLength(3);
    // what cloudnative-pg v1.30.0 pkg/specs/podmonitor.go BuildPodMonitor writes, without TLS
    expect(podMonitors[0].spec).toEqual({
      selector: { matchLabels: { 'cnpg.io/cluster': 'pg', 'cnpg.io/podRole': 'instance' } },
      podMetricsEndpoints: [{ port: 'metrics' }],
    });
    // what cloudnative-pg v1.30.0 pkg/specs/pgbouncer/podmonitor.go BuildPodMonitor writes, without TLS
    expect(podMonitors[2].spec).toEqual({
      selector: { matchLabels: { 'cnpg.io/poolerName': 'pg-pooler-rw', 'cnpg.io/podRole': 'pooler' } },
      podMetricsEndpoints: [{ port: 'metrics' }],
    });
    const rule = all.filter((o) => o.kind === 'PrometheusRule');
    expect(rule).toHaveLength(1);
    expect(rule[0].metadata.namespace).toBe('monitoring');
    expect(rule[0].spec.groups.map((g: any) => g.name)).toEqual(['cnpg-i.plugins', 'cnpg-i.clusters', 'cnpg-i.poolers']);
    const alerts = rulesOf(all).map((r) => [r.alert, r.labels.plugin, r.labels.cluster].filter((x) => x !== undefined).join(' '));
    expect(alerts).toEqual([
      'CnpgIPluginUnavailable barman-cloud.cloudnative-pg.io',
      'CnpgIPluginUnavailable cnpg-i-scale-to-zero.xata.io',
      ...['barman-cloud.cloudnative-pg.io', 'barman-cloud.cloudnative-pg.io', 'cnpg-i-scale-to-zero.xata.io', 'cnpg-i-scale-to-zero.xata.io'].flatMap((p) => [
        `CnpgICertificateNotReady ${p}`,
        `CnpgICertificateExpiring ${p}`,
      ]),
      'CnpgIWalArchivingFailing barman-cloud.cloudnative-pg.io pg',
      'CnpgIWalArchivingStalled barman-cloud.cloudnative-pg.io pg',
      'CnpgIBackupTooOld pg',
      'CnpgIRecoveryWindowExceeded pg',
      'CnpgIWalArchivingFailing barman-cloud.cloudnative-pg.io sleepy',
      'CnpgIWalArchivingStalled barman-cloud.cloudnative-pg.io sleepy',
      'CnpgIBackupTooOld sleepy',
      'CnpgIRecoveryWindowExceeded sleepy',
      'CnpgIPoolerUnavailable pg',
    ]);
  });

  test('poolers: an explicit list replaces the default; anything but a Pooler is refused', () => {
    const none = objects(monitoringApp({ poolers: [] }).charts);
    expect(none.filter((o) => o.kind === 'PodMonitor').map((m) => m.metadata.name)).toEqual(['pg', 'sleepy']);
    expect(rulesOf(none).filter((r) => r.alert === PluginMonitoringAlert.POOLER_UNAVAILABLE)).toEqual([]);
    expect(() => monitoringApp({ poolers: ['pg-pooler-rw' as any] })).toThrow(
      "poolers[0] 'pg-pooler-rw' must be a Pooler, not a string; pass Pooler constructs, e.g. cluster.addPooler(...)",
    );
  });

  test('writes labels on every object (the default: none) for the Prometheus selectors', () => {
    const unlabelled = objects(monitoringApp().charts).filter((o) => o.apiVersion === 'monitoring.coreos.com/v1');
    expect(unlabelled.map((o) => o.metadata.labels)).toEqual([undefined, undefined, undefined, undefined]);
    const labelled = objects(monitoringApp({ labels: { release: 'kube-prometheus-stack' } }).charts).filter((o) => o.apiVersion === 'monitoring.coreos.com/v1');
    expect(labelled.map((o) => o.metadata.labels)).toEqual(Array(4).fill({ release: 'kube-prometheus-stack' }));
  });

  test('derives the backup threshold from the schedule plus backupGrace (default one hour)', () => {
    const threshold = (props?: ConstructorParameters<typeof PluginMonitoring>[2]) =>
      rulesOf(objects(monitoringApp(props).charts)).find((r) => r.alert === PluginMonitoringAlert.BACKUP_TOO_OLD && r.labels.cluster === 'pg').expr;
    expect(threshold()).toContain('> 90000)');
    expect(threshold({ backupGrace: Duration.hours(6) })).toContain('> 108000)');
  });

  test('waits one threshold of uptime only on a Cluster that enables Scale-to-Zero', () => {
    const rules = rulesOf(objects(monitoringApp().charts)).filter((r) => r.alert === PluginMonitoringAlert.BACKUP_TOO_OLD);
    expect(rules.map((r) => [r.labels.cluster, r.expr.includes('unless')])).toEqual([
      ['pg', false],
      ['sleepy', true],
    ]);
  });

  test('reads what is added after it: a schedule added later gets its alert, a suspended one none', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    const barman = new BarmanCloudPlugin(chart, 'barman');
    const pg = new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) } });
    const monitoring = new PluginMonitoring(chart, 'monitoring');
    pg.addPlugin(barman, { parameters: { barmanObjectName: 'store' } });
    pg.addScheduledBackup('hourly', { plugin: barman, schedule: BackupSchedule.expression('0 0 * * * *') });
    pg.addScheduledBackup('weekly', { plugin: barman, schedule: BackupSchedule.expression('@weekly'), suspend: true });
    const rules = rulesOf(Testing.synth(chart));
    // the hourly schedule decides (the smallest threshold); the Cluster archives through no plugin
    expect(rules.filter((r) => r.labels.cluster === 'pg').map((r) => [r.alert, r.expr.match(/> (\d+)\)/)?.[1]])).toEqual([
      [PluginMonitoringAlert.BACKUP_TOO_OLD, String(3600 + 3600)],
    ]);
    expect(monitoring.prometheusRule.kind).toBe('PrometheusRule');
  });

  test('scrapes over HTTPS with the Cluster CA when the Cluster enables metrics TLS', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, spec: { monitoring: { tls: { enabled: true } } } });
    new PluginMonitoring(chart, 'monitoring');
    const monitor = Testing.synth(chart).find((o) => o.kind === 'PodMonitor');
    expect(monitor.spec.podMetricsEndpoints).toEqual([
      { port: 'metrics', scheme: 'https', tlsConfig: { ca: { secret: { name: 'pg-ca', key: 'ca.crt' } }, serverName: 'pg-rw', insecureSkipVerify: true } },
    ]);
  });

  test('writes a PodMonitor for a plugin whose container declares a metrics port', () => {
    const chart = new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
    const plugin = new StandalonePlugin(chart, 'hello', { pluginName: 'hello.example.com', image: 'registry.example.com/hello:v1', args: ['plugin'] });
    plugin.container.addPort({ name: 'metrics', number: 8080 });
    const monitoring = new PluginMonitoring(chart, 'monitoring');
    const monitors = Testing.synth(chart).filter((o) => o.kind === 'PodMonitor');
    expect(monitors).toEqual([
      expect.objectContaining({
        metadata: { name: `${plugin.deployment.name}-metrics`, namespace: 'cnpg-system' },
        spec: { selector: { matchLabels: plugin.selectorLabels }, podMetricsEndpoints: [{ port: 'metrics' }] },
      }),
    ]);
    expect(monitoring.podMonitors).toHaveLength(1);
  });

  test('monitors only the Clusters and plugins it is given', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'db', { namespace: 'db' });
    const barman = new BarmanCloudPlugin(chart, 'barman');
    const a = new PostgresCluster(chart, 'a', { storage: { size: Size.gibibytes(1) } });
    new PostgresCluster(chart, 'b', { storage: { size: Size.gibibytes(1) } });
    new PluginMonitoring(chart, 'monitoring', { clusters: [a], plugins: [barman] });
    const all = Testing.synth(chart);
    expect(all.filter((o) => o.kind === 'PodMonitor').map((o) => o.metadata.name)).toEqual(['a']);
    expect(rulesOf(all).filter((r) => r.alert === PluginMonitoringAlert.PLUGIN_UNAVAILABLE)).toHaveLength(1);
  });

  test('writes no group when there is nothing to alert on, and the schema guard accepts the objects', () => {
    const chart = new Chart(Testing.app(), 'db', { namespace: 'db' });
    new PluginMonitoring(chart, 'monitoring');
    expect(Testing.synth(chart)).toEqual([expect.objectContaining({ kind: 'PrometheusRule', spec: { groups: [] } })]);
  });

  test('the schema guard checks the objects against the pinned CRDs (prometheus-operator v0.93.0) at synth', () => {
    const chart = new Chart(Testing.app(), 'db', { namespace: 'db' });
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) } });
    const monitoring = new PluginMonitoring(chart, 'monitoring');
    monitoring.podMonitors[0].addJsonPatch(JsonPatch.add('/spec/podMetricsEndpoints/0/scheme', 'ftp'));
    expect(synthErrors(chart).join('\n')).toContain('spec.podMetricsEndpoints[0].scheme');
  });

  test('refuses a plugin with no Deployment of its own', () => {
    const chart = new Chart(new App(), 'system', { namespace: 'cnpg-system' });
    expectValidationError(
      () => new PluginMonitoring(chart, 'monitoring', { plugins: [Plugin.fromPluginName('audit.example.com')] }),
      "system/monitoring: plugins[0] 'audit.example.com' runs in no Deployment of its own (a sidecar plugin runs in the operator pod, a plugin by name is managed elsewhere); list StandalonePlugins and the presets that hold one; monitor the operator Deployment for a sidecar plugin",
    );
    const operator = new kplus.Deployment(chart, 'operator', {
      containers: [
        {
          image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
          args: ['controller'],
          envVariables: { OPERATOR_NAMESPACE: kplus.EnvValue.fromValue('cnpg-system') },
        },
      ],
    });
    const sidecar = new SidecarPlugin(chart, 'audit', {
      operator: OperatorDeployment.fromDeployment(operator),
      pluginName: 'audit.example.com',
      image: 'registry.example.com/audit:v1',
    });
    expect(() => new PluginMonitoring(chart, 'monitoring2', { plugins: [sidecar] })).toThrow('runs in no Deployment of its own');
  });

  test('refuses a Cluster listed twice, and bad props', () => {
    const chart = new Chart(new App(), 'db', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) } });
    expectValidationError(
      () => new PluginMonitoring(chart, 'monitoring', { clusters: [pg, pg] }),
      "db/monitoring: clusters 'pg' names the same Cluster twice; list each PostgresCluster once",
    );
    expect(() => new PluginMonitoring(chart, 'm2', { backupGrace: 3600 as never })).toThrow(/backupGrace/);
  });

  test("refuses a Cluster whose operator PodMonitor would scrape the same pods (CloudNativePG's enablePodMonitor)", () => {
    const chart = new Chart(Testing.app(), 'db', { namespace: 'db' });
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, monitoring: { enablePodMonitor: true } });
    new PluginMonitoring(chart, 'monitoring');
    expect(synthErrors(chart)).toEqual([
      "[db/monitoring] clusters 'pg' has monitoring.enablePodMonitor: true, so CloudNativePG writes a PodMonitor for the same pods and every series would be scraped twice; leave enablePodMonitor unset on the PostgresCluster (upstream deprecates it), or leave the Cluster out of clusters",
    ]);
  });
});

describe('the cost of the checks', () => {
  test('one synth renders each object once, however many checks of the presets read it', () => {
    const { app } = monitoringApp();
    const render = jest.spyOn(ApiObject.prototype, 'toJson');
    try {
      app.synthYaml();
      const counts = new Map<ApiObject, number>();
      for (const o of render.mock.contexts as ApiObject[]) counts.set(o, (counts.get(o) ?? 0) + 1);
      // the objects the checks read are among them (Certificates, ScheduledBackups), and none twice
      expect([...counts.keys()].map((o) => o.kind)).toEqual(expect.arrayContaining(['Certificate', 'ScheduledBackup']));
      expect([...counts].filter(([, n]) => n > 1).map(([o]) => `${o.kind}/${o.name}`)).toEqual([]);
    } finally {
      render.mockRestore();
    }
  });
});
