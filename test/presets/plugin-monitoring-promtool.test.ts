/*
 * The synthesized PrometheusRule against the real `promtool` (Prometheus' rule checker and
 * rule unit tester): `promtool check rules` on its groups, and `promtool test rules` with
 * series that must fire each alert and series that must not.
 *
 * promtool comes with Debian's `prometheus` package (.ci/run installs it). Without it, this
 * suite is skipped with one line; in CI (CI=true or CNPG_I_REQUIRE_SHARED=1) it fails instead.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { PluginMonitoringAlert } from '../../src';
import { monitoringApp } from './monitoring-app';

const REQUIRED = process.env.CI === 'true' || process.env.CNPG_I_REQUIRE_SHARED === '1';

function findPromtool(): string | undefined {
  const candidates = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((d) => d !== '')
    .map((d) => path.join(d, 'promtool'));
  return candidates.find((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

const promtool = findPromtool();
if (!promtool && REQUIRED) {
  throw new Error("the alert tests need promtool (Debian's prometheus package) and are required in CI (CI=true or CNPG_I_REQUIRE_SHARED=1)");
}
if (!promtool) console.warn("skipping the promtool tests: no promtool on PATH (Debian's prometheus package ships it)");
const describePromtool = promtool ? describe : describe.skip;

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

interface Group {
  name: string;
  rules: Rule[];
}

/** The groups of the PrometheusRule the monitoring app synthesizes. */
function synthesizedGroups(): Group[] {
  const { charts } = monitoringApp();
  const rule = charts.flatMap((c) => Testing.synth(c)).find((o) => o.kind === 'PrometheusRule');
  return rule.spec.groups as Group[];
}

/** The one rule of `alert` whose labels include `labels`. */
function ruleOf(groups: Group[], alert: string, labels: Record<string, string>): Rule {
  const found = groups.flatMap((g) => g.rules).filter((r) => r.alert === alert && Object.entries(labels).every(([k, v]) => r.labels[k] === v));
  expect(found).toHaveLength(1);
  return found[0];
}

/** An alert as promtool reports it: the rule's labels over the series', annotations expanded. */
function firing(rule: Rule, seriesLabels: Record<string, string>, value?: string) {
  const labels = { ...seriesLabels, ...rule.labels };
  const annotations = Object.fromEntries(
    Object.entries(rule.annotations).map(([k, v]) => [
      k,
      v.replace(/\{\{ \$labels\.(\w+) \}\}/g, (_m, name: string) => labels[name as keyof typeof labels] ?? '').replace('{{ $value }}', value ?? ''),
    ]),
  );
  return { exp_labels: labels, exp_annotations: annotations };
}

let work: string;

function runPromtool(args: string[]): { status: number | null; output: string } {
  const r = spawnSync(promtool!, args, { cwd: work, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** Runs `promtool test rules` on one test group and expects it to pass. */
function expectPromtoolPasses(test: object): void {
  fs.writeFileSync(path.join(work, 'test.yaml'), YAML.stringify({ rule_files: ['rules.yaml'], evaluation_interval: '1m', tests: [test] }));
  const r = runPromtool(['test', 'rules', 'test.yaml']);
  expect({ status: r.status, output: r.output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });
}

describePromtool('the PluginMonitoring alerts, under promtool', () => {
  let groups: Group[];

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-promtool-'));
    groups = synthesizedGroups();
    fs.writeFileSync(path.join(work, 'rules.yaml'), YAML.stringify({ groups }));
  });

  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  test('promtool check rules accepts the groups', () => {
    const r = runPromtool(['check', 'rules', 'rules.yaml']);
    expect(r.status).toBe(0);
    expect(r.output).toMatch(/SUCCESS: \d+ rules found/);
    // (a rule promtool refuses fails here with its message: the version is printed for the record)
    expect(execFileSync(promtool!, ['--version'], { encoding: 'utf8' })).toMatch(/^promtool, version \d+\./);
  });

  test(`${PluginMonitoringAlert.PLUGIN_UNAVAILABLE}: fires after 5 minutes without an available replica, not while one is available`, () => {
    const barman = ruleOf(groups, PluginMonitoringAlert.PLUGIN_UNAVAILABLE, { plugin: 'barman-cloud.cloudnative-pg.io' });
    const s2z = ruleOf(groups, PluginMonitoringAlert.PLUGIN_UNAVAILABLE, { plugin: 'cnpg-i-scale-to-zero.xata.io' });
    const series = (rule: Rule, values: string) => ({
      series: `kube_deployment_status_replicas_available{namespace="cnpg-system",deployment="${rule.labels.deployment}",job="kube-state-metrics"}`,
      values,
    });
    const ksm = (rule: Rule) => ({ namespace: 'cnpg-system', deployment: rule.labels.deployment, job: 'kube-state-metrics' });
    expectPromtoolPasses({
      interval: '1m',
      input_series: [series(barman, '0x20'), series(s2z, '1x20')],
      alert_rule_test: [
        // pending, not firing, during the first 5 minutes
        { eval_time: '3m', alertname: PluginMonitoringAlert.PLUGIN_UNAVAILABLE, exp_alerts: [] },
        { eval_time: '10m', alertname: PluginMonitoringAlert.PLUGIN_UNAVAILABLE, exp_alerts: [firing(barman, ksm(barman))] },
      ],
    });
  });

  test(`${PluginMonitoringAlert.POOLER_UNAVAILABLE}: fires after 5 minutes without an available PgBouncer pod, not while one is available`, () => {
    const rule = ruleOf(groups, PluginMonitoringAlert.POOLER_UNAVAILABLE, { deployment: 'pg-pooler-rw' });
    const series = (deployment: string, values: string) => ({
      series: `kube_deployment_status_replicas_available{namespace="databases",deployment="${deployment}",job="kube-state-metrics"}`,
      values,
    });
    expectPromtoolPasses({
      interval: '1m',
      // another Deployment of the namespace without a pod does not fire it
      input_series: [series('pg-pooler-rw', '1x4 0x20'), series('other', '0x25')],
      alert_rule_test: [
        { eval_time: '3m', alertname: PluginMonitoringAlert.POOLER_UNAVAILABLE, exp_alerts: [] },
        { eval_time: '8m', alertname: PluginMonitoringAlert.POOLER_UNAVAILABLE, exp_alerts: [] },
        {
          eval_time: '15m',
          alertname: PluginMonitoringAlert.POOLER_UNAVAILABLE,
          exp_alerts: [firing(rule, { namespace: 'databases', deployment: 'pg-pooler-rw', job: 'kube-state-metrics' })],
        },
      ],
    });
  });

  const instance = (pod: string) => ({ namespace: 'databases', pod, job: 'databases/pg' });
  const sel = (labels: Record<string, string>) =>
    `{${Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .join(',')}}`;

  test(`${PluginMonitoringAlert.WAL_ARCHIVING_FAILING}: fires when the last failure is newer than the last success, not otherwise`, () => {
    const rule = ruleOf(groups, PluginMonitoringAlert.WAL_ARCHIVING_FAILING, { cluster: 'pg' });
    expectPromtoolPasses({
      interval: '1m',
      input_series: [
        { series: `cnpg_pg_stat_archiver_last_failed_time${sel(instance('pg-1'))}`, values: '1000x20' },
        { series: `cnpg_pg_stat_archiver_last_archived_time${sel(instance('pg-1'))}`, values: '900x20' },
        // pg-2 failed once, then archived again: recovered
        { series: `cnpg_pg_stat_archiver_last_failed_time${sel(instance('pg-2'))}`, values: '1000x20' },
        { series: `cnpg_pg_stat_archiver_last_archived_time${sel(instance('pg-2'))}`, values: '1100x20' },
        // a primary that has neither archived nor failed yet reports -1 for both
        { series: `cnpg_pg_stat_archiver_last_failed_time${sel(instance('pg-3'))}`, values: '-1x20' },
        { series: `cnpg_pg_stat_archiver_last_archived_time${sel(instance('pg-3'))}`, values: '-1x20' },
        // another Cluster's pod, failing, is not pg's
        { series: `cnpg_pg_stat_archiver_last_failed_time${sel(instance('pg-other-1'))}`, values: '1000x20' },
        { series: `cnpg_pg_stat_archiver_last_archived_time${sel(instance('pg-other-1'))}`, values: '-1x20' },
      ],
      alert_rule_test: [{ eval_time: '10m', alertname: PluginMonitoringAlert.WAL_ARCHIVING_FAILING, exp_alerts: [firing(rule, instance('pg-1'))] }],
    });
  });

  test(`${PluginMonitoringAlert.WAL_ARCHIVING_STALLED}: fires with segments ready and no archival for 10 minutes, not on an idle or a healthy primary`, () => {
    const rule = ruleOf(groups, PluginMonitoringAlert.WAL_ARCHIVING_STALLED, { cluster: 'pg' });
    const ready = (pod: string, values: string) => ({ series: `cnpg_collector_pg_wal_archive_status${sel({ ...instance(pod), value: 'ready' })}`, values });
    const since = (pod: string, values: string) => ({ series: `cnpg_pg_stat_archiver_seconds_since_last_archival${sel(instance(pod))}`, values });
    expectPromtoolPasses({
      interval: '1m',
      input_series: [
        ready('pg-1', '3x20'),
        since('pg-1', '900+60x20'),
        // idle: nothing to archive, however long ago the last archival was
        ready('pg-2', '0x20'),
        since('pg-2', '900+60x20'),
        // busy and healthy: segments ready, archived a minute ago
        ready('pg-3', '3x20'),
        since('pg-3', '60x20'),
      ],
      alert_rule_test: [
        { eval_time: '10m', alertname: PluginMonitoringAlert.WAL_ARCHIVING_STALLED, exp_alerts: [firing(rule, { ...instance('pg-1'), value: 'ready' }, '3')] },
      ],
    });
  });

  // pg's nightly schedule runs every 24 h: the threshold is 24 h + 1 h of grace = 90000 s.
  test(`${PluginMonitoringAlert.BACKUP_TOO_OLD}: fires past the schedule's longest interval plus the grace, not before`, () => {
    const rule = ruleOf(groups, PluginMonitoringAlert.BACKUP_TOO_OLD, { cluster: 'pg' });
    expect(rule.expr).toContain('> 90000');
    const backup = (pod: string, values: string) => ({ series: `barman_cloud_cloudnative_pg_io_last_available_backup_timestamp${sel(instance(pod))}`, values });
    expectPromtoolPasses({
      interval: '10m',
      input_series: [backup('pg-1', '1000x200'), backup('pg-2', '1000x200')],
      alert_rule_test: [
        // at 25 h the backup is 89000 s old: within the threshold
        { eval_time: '25h', alertname: PluginMonitoringAlert.BACKUP_TOO_OLD, exp_alerts: [] },
        // at 26 h it is 92600 s old
        { eval_time: '26h', alertname: PluginMonitoringAlert.BACKUP_TOO_OLD, exp_alerts: [firing(rule, { namespace: 'databases' })] },
      ],
    });
    // a Cluster with no backup yet reports 0 (plugin-barman-cloud v0.14.0 metrics.go Collect): silent
    expectPromtoolPasses({
      interval: '10m',
      input_series: [backup('pg-1', '0x200')],
      alert_rule_test: [{ eval_time: '26h', alertname: PluginMonitoringAlert.BACKUP_TOO_OLD, exp_alerts: [] }],
    });
  });

  test(`${PluginMonitoringAlert.BACKUP_TOO_OLD}: a Cluster hibernated by Scale-to-Zero does not page, asleep or just woken up`, () => {
    const rule = ruleOf(groups, PluginMonitoringAlert.BACKUP_TOO_OLD, { cluster: 'sleepy' });
    const pod = { namespace: 'databases', pod: 'sleepy-1', job: 'databases/sleepy' };
    const backup = (values: string) => ({ series: `barman_cloud_cloudnative_pg_io_last_available_backup_timestamp${sel(pod)}`, values });
    const started = (values: string) => ({ series: `cnpg_pg_postmaster_start_time${sel(pod)}`, values });
    // Asleep from 1 h to 40 h: no pod, no series (`_` is a missing sample); woken at 40 h.
    expectPromtoolPasses({
      interval: '1h',
      input_series: [backup('1000 _x38 1000x30'), started('0 _x38 144000x30')],
      alert_rule_test: [
        { eval_time: '30h', alertname: PluginMonitoringAlert.BACKUP_TOO_OLD, exp_alerts: [] },
        { eval_time: '41h', alertname: PluginMonitoringAlert.BACKUP_TOO_OLD, exp_alerts: [] },
        // awake for a whole threshold and still no backup: the suspended schedule was never resumed
        { eval_time: '66h', alertname: PluginMonitoringAlert.BACKUP_TOO_OLD, exp_alerts: [firing(rule, { namespace: 'databases' })] },
      ],
    });
  });

  // pg's ObjectStore keeps 30 days (2592000 s); one schedule interval with its grace (90000 s) and
  // the default enforcement interval (1800 s) on top: 2683800 s.
  test(`${PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED}: fires when the first point is older than the policy keeps, not within it`, () => {
    const rule = ruleOf(groups, PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED, { cluster: 'pg' });
    expect(rule.expr).toContain('> 2683800)');
    const first = (pod: string, values: string) => ({ series: `barman_cloud_cloudnative_pg_io_first_recoverability_point${sel(instance(pod))}`, values });
    const start = 834 * 3600; // the eval time below, in seconds, on a sample (hourly series)
    expectPromtoolPasses({
      interval: '1h',
      input_series: [first('pg-1', `${start - 2_700_000}x900`)],
      alert_rule_test: [
        { eval_time: `${start}s`, alertname: PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED, exp_alerts: [firing(rule, { namespace: 'databases' })] },
      ],
    });
    expectPromtoolPasses({
      interval: '1h',
      // 31 days old, within the limit; and a Cluster with no backup yet reports 0
      input_series: [first('pg-1', `${start - 31 * 86_400}x900`), first('pg-2', '0x900')],
      alert_rule_test: [{ eval_time: `${start}s`, alertname: PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED, exp_alerts: [] }],
    });
  });

  test(`${PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED}: a Cluster woken from Scale-to-Zero gets one enforcement interval first`, () => {
    const rule = ruleOf(groups, PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED, { cluster: 'sleepy' });
    const pod = { namespace: 'databases', pod: 'sleepy-1', job: 'databases/sleepy' };
    const start = 834 * 3600;
    // woken one hour before `start`; the first point is far older than the policy keeps
    const woken = start - 3600;
    const series = [
      { series: `barman_cloud_cloudnative_pg_io_first_recoverability_point${sel(pod)}`, values: `1000x900` },
      { series: `cnpg_pg_postmaster_start_time${sel(pod)}`, values: `${woken}x900` },
    ];
    expectPromtoolPasses({
      interval: '1h',
      input_series: series,
      alert_rule_test: [
        // 1 h after waking: the sidecar has had less than its 30 min interval plus the 1 h grace
        { eval_time: `${start}s`, alertname: PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED, exp_alerts: [] },
        { eval_time: `${start + 3600}s`, alertname: PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED, exp_alerts: [firing(rule, { namespace: 'databases' })] },
      ],
    });
  });

  test(`${PluginMonitoringAlert.CERTIFICATE_NOT_READY}: fires after 15 minutes not Ready, not while Ready`, () => {
    const [server, client] = ['servercertificate', 'clientcertificate'].map((n) =>
      groups
        .flatMap((g) => g.rules)
        .find((r) => r.alert === PluginMonitoringAlert.CERTIFICATE_NOT_READY && r.labels.certificate.includes(`barman-plugin-tls-${n}`)),
    ) as Rule[];
    const cm = (rule: Rule, condition: string) => ({
      namespace: 'cnpg-system',
      name: rule.labels.certificate,
      condition,
      issuer_name: 'ca',
      issuer_kind: 'Issuer',
      issuer_group: 'cert-manager.io',
      job: 'cert-manager',
    });
    expectPromtoolPasses({
      interval: '1m',
      input_series: [
        { series: `certmanager_certificate_ready_status${sel(cm(server, 'True'))}`, values: '0x30' },
        { series: `certmanager_certificate_ready_status${sel(cm(server, 'False'))}`, values: '1x30' },
        { series: `certmanager_certificate_ready_status${sel(cm(client, 'True'))}`, values: '1x30' },
        { series: `certmanager_certificate_ready_status${sel(cm(client, 'False'))}`, values: '0x30' },
      ],
      alert_rule_test: [
        { eval_time: '10m', alertname: PluginMonitoringAlert.CERTIFICATE_NOT_READY, exp_alerts: [] },
        { eval_time: '20m', alertname: PluginMonitoringAlert.CERTIFICATE_NOT_READY, exp_alerts: [firing(server, cm(server, 'True'))] },
      ],
    });
  });

  // The plugin certificates are renewed 15 days before expiry (PluginTls's default renewBefore,
  // written on the Certificate): the alert fires with less than 7.5 days left.
  test(`${PluginMonitoringAlert.CERTIFICATE_EXPIRING}: fires within half of the renewal window, not before`, () => {
    const [server, client] = ['servercertificate', 'clientcertificate'].map((n) =>
      groups
        .flatMap((g) => g.rules)
        .find((r) => r.alert === PluginMonitoringAlert.CERTIFICATE_EXPIRING && r.labels.certificate.includes(`barman-plugin-tls-${n}`)),
    ) as Rule[];
    expect(server.expr).toContain('< 648000');
    const cm = (rule: Rule) => ({ namespace: 'cnpg-system', name: rule.labels.certificate, job: 'cert-manager' });
    const day = 86_400;
    expectPromtoolPasses({
      interval: '1h',
      input_series: [
        { series: `certmanager_certificate_expiration_timestamp_seconds${sel(cm(server))}`, values: `${7 * day + 3600}x10` },
        { series: `certmanager_certificate_expiration_timestamp_seconds${sel(cm(client))}`, values: `${8 * day + 3600}x10` },
      ],
      alert_rule_test: [{ eval_time: '1h', alertname: PluginMonitoringAlert.CERTIFICATE_EXPIRING, exp_alerts: [firing(server, cm(server))] }],
    });
  });
});
