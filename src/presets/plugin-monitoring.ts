import { ApiObject, Chart, Duration, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { CERT_MANAGER_DEFAULT_DURATION } from '../checks/certificate';
import { longestCronGapSeconds, parseCronSchedule } from '../checks/robfig-cron';
import { SCALE_TO_ZERO_ENABLED_ANNOTATION } from '../checks/scale-to-zero';
import { childObjectName } from '../common/names';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { parseGoDuration } from '../manifests/duration';
import { invalid } from '../manifests/errors';
import { Json, asObject, asString, dig } from '../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../manifests/known-plugins';
import { IPlugin } from '../plugins/plugin';
import { StandalonePlugin } from '../plugins/standalone-plugin';
import { Pooler } from '../postgres/pooler';
import { PostgresCluster } from '../postgres/postgres-cluster';
import { addChecks, addSchemaGuard, synthJson } from '../schema/guard';

/**
 * Props of {@link PluginMonitoring}.
 */
export interface PluginMonitoringProps {
  /**
   * The Clusters to monitor: a PodMonitor for each one's instances, and the alerts on its WAL
   * archiving and backups.
   * @default - every PostgresCluster of the app constructed before this construct
   */
  readonly clusters?: PostgresCluster[];
  /**
   * The plugins to monitor: an alert for each one's Deployment and Certificates, and a
   * PodMonitor for a plugin whose container declares a port named `metrics`. A plugin must run
   * in a Deployment of its own (a `StandalonePlugin`, or a preset holding one).
   * @default - every StandalonePlugin of the app constructed before this construct
   */
  readonly plugins?: IPlugin[];
  /**
   * The PgBouncer Poolers to monitor: a PodMonitor for each one's pods (PgBouncer's metrics on
   * port `metrics`), and an alert when its Deployment has no available pod.
   * @default - every Pooler of the app constructed before this construct
   */
  readonly poolers?: Pooler[];
  /**
   * Labels written on the PodMonitors and the PrometheusRule: what the Prometheus resource's
   * `podMonitorSelector` and `ruleSelector` select (kube-prometheus-stack selects
   * `release: <its Helm release>` by default).
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * How much later than the schedule allows a backup may be before `CnpgIBackupTooOld` fires:
   * added to the longest interval between two runs of the Cluster's ScheduledBackup.
   * @default Duration.hours(1)
   */
  readonly backupGrace?: Duration;
}

/** Alert names, one per condition (the guide, docs/guides/monitoring.md, has one section each). */
export enum PluginMonitoringAlert {
  /** A plugin Deployment has no available replica: the operator cannot reach the plugin. */
  PLUGIN_UNAVAILABLE = 'CnpgIPluginUnavailable',
  /** The last WAL archiving attempt on a Cluster's primary failed. */
  WAL_ARCHIVING_FAILING = 'CnpgIWalArchivingFailing',
  /** WAL segments wait to be archived and nothing has been archived for ten minutes. */
  WAL_ARCHIVING_STALLED = 'CnpgIWalArchivingStalled',
  /** The last successful backup is older than the ScheduledBackup's schedule allows. */
  BACKUP_TOO_OLD = 'CnpgIBackupTooOld',
  /** The first recoverability point is older than the ObjectStore's retention policy keeps. */
  RECOVERY_WINDOW_EXCEEDED = 'CnpgIRecoveryWindowExceeded',
  /** A plugin Certificate has not been Ready for fifteen minutes. */
  CERTIFICATE_NOT_READY = 'CnpgICertificateNotReady',
  /** A plugin Certificate expires within half of its renewal window: renewal is overdue. */
  CERTIFICATE_EXPIRING = 'CnpgICertificateExpiring',
  /** A Pooler's PgBouncer Deployment has no available pod: applications cannot connect through it. */
  POOLER_UNAVAILABLE = 'CnpgIPoolerUnavailable',
}

/**
 * The kinds of the pinned prometheus-operator v0.93.0 CRDs (imports/SOURCES.txt), which the
 * schema guard checks these objects against. Spelled here rather than taken from the generated
 * binding, so that loading the library does not load that module.
 */
const POD_MONITOR = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor' } as const;
const PROMETHEUS_RULE = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' } as const;

/** How long WAL may wait, with segments ready, before the archiving counts as stalled. */
const WAL_STALL_SECONDS = 600;

/**
 * The Barman Cloud plugin's timestamp of the last available backup, as the instance manager
 * exports it: plugin-barman-cloud v0.14.0 internal/cnpgi/instance/metrics.go names its metrics
 * after the plugin name with dots and hyphens as underscores (`buildFqName`), and CloudNativePG
 * v1.30.0 internal/cnpi/plugin/client/metrics.go exports them under that name, with no label of
 * their own. CloudNativePG's `cnpg_collector_last_available_backup_timestamp` (pkg/management/
 * postgres/webserver/metricserver/pg_collector.go newMetrics) is marked deprecated there.
 */
const BARMAN_METRIC_PREFIX = BARMAN_CLOUD_PLUGIN_NAME.replace(/[.-]/g, '_');
const BARMAN_LAST_BACKUP_METRIC = `${BARMAN_METRIC_PREFIX}_last_available_backup_timestamp`;
/** The same file's first point of recoverability (ObjectStore status.serverRecoveryWindow). */
const BARMAN_FIRST_POINT_METRIC = `${BARMAN_METRIC_PREFIX}_first_recoverability_point`;
/**
 * plugin-barman-cloud v0.14.0 api/v1/objectstore_types.go: retentionPolicy is `^[1-9][0-9]*[dwm]$`
 * (days, weeks, months; a month counted here as 31 days, the longest), applied by the instance
 * sidecar every `instanceSidecarConfiguration.retentionPolicyIntervalSeconds` (default 1800).
 */
const RETENTION_UNIT_SECONDS: Readonly<Record<string, number>> = { d: 86_400, w: 7 * 86_400, m: 31 * 86_400 };
const DEFAULT_RETENTION_INTERVAL_SECONDS = 1800;

/** One alerting rule of the PrometheusRule. */
interface AlertRule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}

/**
 * Prometheus Operator objects for the plugin path of an app, in one call: a `PodMonitor` for the
 * instances of each Cluster (and for each plugin whose container declares a `metrics` port),
 * and a `PrometheusRule` whose alerts follow what the app declares, read at synth:
 *
 * - `CnpgIPluginUnavailable`: a plugin Deployment with no available replica
 *   (kube-state-metrics `kube_deployment_status_replicas_available`);
 * - `CnpgIWalArchivingFailing` and `CnpgIWalArchivingStalled`, for each Cluster whose WAL
 *   archiver is a plugin (CloudNativePG's `cnpg_pg_stat_archiver_*` and
 *   `cnpg_collector_pg_wal_archive_status`);
 * - `CnpgIBackupTooOld`, for each Cluster with a ScheduledBackup through the Barman Cloud
 *   plugin: the threshold is the longest interval between two runs of the schedule plus
 *   `backupGrace`;
 * - `CnpgIRecoveryWindowExceeded`, for such a Cluster whose ObjectStore has a `retentionPolicy`:
 *   the first recoverability point is older than the policy keeps (plus one schedule interval,
 *   the grace and the ObjectStore's enforcement interval);
 * - `CnpgICertificateNotReady` and `CnpgICertificateExpiring`, for each cert-manager
 *   Certificate of the plugins (cert-manager's `certmanager_certificate_*`);
 * - `CnpgIPoolerUnavailable`, for each Pooler: its PgBouncer Deployment has no available pod.
 *
 * A Cluster hibernated by the Scale-to-Zero plugin has no instance pods, so none of its alerts
 * has a series to fire on; after it wakes up, `CnpgIBackupTooOld` waits one full threshold of
 * PostgreSQL uptime before it fires, because the sidecar suspended the ScheduledBackup while the
 * Cluster slept.
 *
 * ```ts
 * new PluginMonitoring(monitoringChart, 'monitoring', { labels: { release: 'kube-prometheus-stack' } });
 * ```
 */
export class PluginMonitoring extends Construct {
  /** The PrometheusRule holding the alerts. */
  public readonly prometheusRule: ApiObject;
  /** The PodMonitors, one per Cluster and one per plugin with a `metrics` port, in that order. */
  public readonly podMonitors: ApiObject[] = [];

  private readonly clusters: PostgresCluster[];
  private readonly plugins: StandalonePlugin[];
  private readonly poolers: Pooler[];
  private readonly backupGraceSeconds: number;

  public constructor(scope: Construct, id: string, props: PluginMonitoringProps = {}) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { optional: true }) ?? {};
    const found = this.node.root.node.findAll();
    this.clusters = p.clusters ? [...p.clusters] : found.filter((c): c is PostgresCluster => c instanceof PostgresCluster);
    this.plugins = p.plugins
      ? p.plugins.map((plugin, i) => standaloneOf(this, `plugins[${i}]`, plugin))
      : found.filter((c): c is StandalonePlugin => c instanceof StandalonePlugin);
    this.poolers = p.poolers ? [...p.poolers] : found.filter((c): c is Pooler => c instanceof Pooler);
    this.backupGraceSeconds = Math.round((p.backupGrace ?? Duration.hours(1)).toSeconds({ integral: false }));
    const labels = p.labels === undefined ? {} : { ...p.labels };

    const seen = new Set<string>();
    for (const cluster of this.clusters) {
      const key = `${cluster.namespace ?? Chart.of(cluster).namespace ?? ''}/${cluster.name}`;
      if (seen.has(key)) invalid(this, 'clusters', cluster.name, 'names the same Cluster twice', 'list each PostgresCluster once');
      seen.add(key);
      const monitor = this.guarded(
        new ApiObject(this, `Cluster-${cluster.node.addr}`, {
          ...POD_MONITOR,
          metadata: { name: cluster.name, labels, ...namespaceOf(cluster.namespace) },
          spec: Lazy.any({ produce: () => clusterPodMonitorSpec(cluster) }),
        }),
      );
      this.podMonitors.push(monitor);
      addChecks(this, () => refuseOperatorPodMonitor(this, cluster));
    }
    for (const plugin of this.plugins) {
      if (!plugin.container.ports.some((port) => port.name === 'metrics')) continue;
      this.podMonitors.push(
        this.guarded(
          new ApiObject(this, `Plugin-${plugin.node.addr}`, {
            ...POD_MONITOR,
            metadata: { name: `${plugin.deployment.name}-metrics`, labels, namespace: plugin.namespace },
            spec: { selector: { matchLabels: { ...plugin.selectorLabels } }, podMetricsEndpoints: [{ port: 'metrics' }] },
          }),
        ),
      );
    }
    for (const pooler of this.poolers) {
      // As CloudNativePG would write it (cloudnative-pg v1.30.0 pkg/specs/pgbouncer/podmonitor.go
      // BuildPodMonitor): the pods by cnpg.io/poolerName and cnpg.io/podRole: pooler, port metrics.
      this.podMonitors.push(
        this.guarded(
          new ApiObject(this, `Pooler-${pooler.node.addr}`, {
            ...POD_MONITOR,
            metadata: { name: pooler.name, labels, ...namespaceOf(pooler.apiObject.metadata.namespace) },
            spec: {
              selector: { matchLabels: { 'cnpg.io/poolerName': pooler.name, 'cnpg.io/podRole': 'pooler' } },
              podMetricsEndpoints: [{ port: 'metrics' }],
            },
          }),
        ),
      );
    }
    this.prometheusRule = this.guarded(
      new ApiObject(this, 'Rules', {
        ...PROMETHEUS_RULE,
        // cdk8s's default name keeps a `_` of any id on the path, which the API server refuses.
        metadata: { name: childObjectName(this, 'Rules', 'subdomain'), labels },
        spec: Lazy.any({ produce: () => ({ groups: this.groups() }) }),
      }),
    );
  }

  private guarded(apiObject: ApiObject): ApiObject {
    addSchemaGuard(this, apiObject);
    return apiObject;
  }

  /** The rule groups, rendered at synth from the app as it is then. */
  private groups(): { name: string; rules: AlertRule[] }[] {
    const pluginRules: AlertRule[] = [];
    for (const plugin of this.plugins) pluginRules.push(pluginUnavailable(plugin));
    for (const cert of certificatesOf(this.plugins)) pluginRules.push(...certificateRules(cert));
    const clusterRules: AlertRule[] = [];
    for (const cluster of this.clusters) clusterRules.push(...this.clusterRules(cluster));
    const groups = [];
    if (pluginRules.length) groups.push({ name: 'cnpg-i.plugins', rules: pluginRules });
    if (clusterRules.length) groups.push({ name: 'cnpg-i.clusters', rules: clusterRules });
    const poolerRules = this.poolers.map(poolerUnavailable);
    if (poolerRules.length) groups.push({ name: 'cnpg-i.poolers', rules: poolerRules });
    return groups;
  }

  private clusterRules(cluster: PostgresCluster): AlertRule[] {
    const namespace = cluster.namespace ?? Chart.of(cluster).namespace ?? 'default';
    const json = synthJson(cluster.apiObject) as Json;
    // Instance pods are named <cluster>-<serial> (cloudnative-pg v1.30.0 pkg/specs/pods.go
    // GetInstanceName); the PodMonitor gives every series its `namespace` and `pod`.
    const selector = `namespace="${namespace}",pod=~"${cluster.name}-[0-9]+"`;
    const labels = { namespace, cluster: cluster.name };
    const rules: AlertRule[] = [];
    const archiver = cluster.plugins.find((p) => p.enabled && p.isWalArchiver);
    if (archiver) {
      // config/manager/default-monitoring.yaml (cloudnative-pg v1.30.0), query pg_stat_archiver:
      // last_archived_time and last_failed_time are epochs, -1 when never; seconds_since_last_archival
      // likewise. The query runs on the primary (and on replicas with archive_mode=always).
      rules.push({
        alert: PluginMonitoringAlert.WAL_ARCHIVING_FAILING,
        expr: `cnpg_pg_stat_archiver_last_failed_time{${selector}} > cnpg_pg_stat_archiver_last_archived_time{${selector}}`,
        for: '5m',
        labels: { severity: 'critical', ...labels, plugin: archiver.pluginName },
        annotations: {
          summary: `WAL archiving through ${archiver.pluginName} fails on Cluster ${namespace}/${cluster.name}`,
          description:
            'The last archiving attempt of {{ $labels.pod }} failed after the last success. Check the plugin sidecar logs of that pod and the object store the plugin writes to.',
        },
      });
      // pg_collector.go newMetrics (cloudnative-pg v1.30.0): cnpg_collector_pg_wal_archive_status
      // counts the .ready and .done files of pg_wal/archive_status, by `value`.
      rules.push({
        alert: PluginMonitoringAlert.WAL_ARCHIVING_STALLED,
        expr:
          `cnpg_collector_pg_wal_archive_status{${selector},value="ready"} > 0` +
          ` and on (namespace, pod) (cnpg_pg_stat_archiver_seconds_since_last_archival{${selector}} > ${WAL_STALL_SECONDS}` +
          ` or cnpg_pg_stat_archiver_seconds_since_last_archival{${selector}} < 0)`,
        for: '5m',
        labels: { severity: 'critical', ...labels, plugin: archiver.pluginName },
        annotations: {
          summary: `WAL archiving through ${archiver.pluginName} is stalled on Cluster ${namespace}/${cluster.name}`,
          description: `{{ $labels.pod }} has {{ $value }} WAL segments ready and has archived none for more than ${WAL_STALL_SECONDS / 60} minutes. Check that the plugin sidecar runs in that pod.`,
        },
      });
    }
    const gap = this.shortestScheduleGap(cluster, namespace);
    const threshold = gap === undefined ? undefined : gap + this.backupGraceSeconds;
    const scaleToZero = asString(dig(json, 'metadata', 'annotations', SCALE_TO_ZERO_ENABLED_ANNOTATION)) === 'true';
    if (threshold !== undefined) {
      const last = `max by (namespace) (${BARMAN_LAST_BACKUP_METRIC}{${selector}})`;
      let expr = `(time() - ${last} > ${threshold}) and (${last} > 0)`;
      if (scaleToZero) {
        // cnpg_pg_postmaster_start_time (default-monitoring.yaml, query pg_postmaster): a Cluster
        // woken from hibernation is given one threshold to run its schedule again.
        expr += ` unless (min by (namespace) (time() - cnpg_pg_postmaster_start_time{${selector}}) < ${threshold})`;
      }
      rules.push({
        alert: PluginMonitoringAlert.BACKUP_TOO_OLD,
        expr,
        labels: { severity: 'warning', ...labels },
        annotations: {
          summary: `The last backup of Cluster ${namespace}/${cluster.name} is older than its schedule allows`,
          description: `The last available backup is older than ${threshold} seconds (the longest interval of the schedule plus the grace period). Check the ScheduledBackup (suspended?) and the status of the last Backup objects.`,
        },
      });
    }
    const retention = threshold === undefined ? undefined : this.retentionOf(cluster, namespace);
    if (threshold !== undefined && retention !== undefined) {
      // Barman keeps the last backup that starts before the window, so the first point may be
      // one schedule interval older than the policy; the sidecar applies it every interval.
      const limit = retention.seconds + threshold + retention.intervalSeconds;
      const first = `max by (namespace) (${BARMAN_FIRST_POINT_METRIC}{${selector}})`;
      let expr = `(time() - ${first} > ${limit}) and (${first} > 0)`;
      if (scaleToZero) {
        // a hibernated Cluster has no sidecar to apply the policy: one interval after waking up
        const wait = retention.intervalSeconds + this.backupGraceSeconds;
        expr += ` unless (min by (namespace) (time() - cnpg_pg_postmaster_start_time{${selector}}) < ${wait})`;
      }
      rules.push({
        alert: PluginMonitoringAlert.RECOVERY_WINDOW_EXCEEDED,
        expr,
        labels: { severity: 'warning', ...labels, objectstore: retention.objectStore },
        annotations: {
          summary: `Cluster ${namespace}/${cluster.name} keeps backups beyond the retention policy of ObjectStore ${retention.objectStore}`,
          description: `The first recoverability point is older than ${limit} seconds (the retention policy ${retention.policy}, one schedule interval, the grace period and the enforcement interval): old backups are not being deleted. Check the logs of the plugin sidecar in the primary.`,
        },
      });
    }
    return rules;
  }

  /**
   * The retention policy of the ObjectStore the Cluster archives to through Barman Cloud (its
   * `barmanObjectName` parameter), in seconds, with the ObjectStore's enforcement interval.
   */
  private retentionOf(
    cluster: PostgresCluster,
    namespace: string,
  ): { objectStore: string; policy: string; seconds: number; intervalSeconds: number } | undefined {
    const entry = cluster.plugins.find((p) => p.enabled && p.pluginName === BARMAN_CLOUD_PLUGIN_NAME);
    const name = entry?.parameters.barmanObjectName;
    if (name === undefined) return undefined;
    for (const c of this.node.root.node.findAll()) {
      if (!(c instanceof ApiObject) || c.kind !== 'ObjectStore' || !c.apiVersion.startsWith('barmancloud.cnpg.io/') || c.name !== name) continue;
      if ((c.metadata.namespace ?? Chart.of(c).namespace ?? 'default') !== namespace) continue;
      const json = synthJson(c) as Json;
      const policy = asString(dig(json, 'spec', 'retentionPolicy'));
      const m = policy === undefined ? null : /^([1-9][0-9]*)([dwm])$/.exec(policy);
      if (policy === undefined || m === null) return undefined;
      const interval = dig(json, 'spec', 'instanceSidecarConfiguration', 'retentionPolicyIntervalSeconds');
      return {
        objectStore: name,
        policy,
        seconds: Number(m[1]) * RETENTION_UNIT_SECONDS[m[2]],
        intervalSeconds: typeof interval === 'number' && interval > 0 ? interval : DEFAULT_RETENTION_INTERVAL_SECONDS,
      };
    }
    return undefined;
  }

  /**
   * The shortest "longest interval" among the Cluster's ScheduledBackups through the Barman Cloud plugin
   * that are not suspended, or undefined when it has none.
   */
  private shortestScheduleGap(cluster: PostgresCluster, namespace: string): number | undefined {
    let best: number | undefined;
    for (const c of this.node.root.node.findAll()) {
      if (!(c instanceof ApiObject) || c.kind !== 'ScheduledBackup' || !c.apiVersion.startsWith('postgresql.cnpg.io/')) continue;
      if ((c.metadata.namespace ?? Chart.of(c).namespace ?? 'default') !== namespace) continue;
      const json = synthJson(c) as Json;
      if (asString(dig(json, 'spec', 'cluster', 'name')) !== cluster.name) continue;
      if (asString(dig(json, 'spec', 'method')) !== 'plugin') continue;
      if (asString(dig(json, 'spec', 'pluginConfiguration', 'name')) !== BARMAN_CLOUD_PLUGIN_NAME) continue;
      if (dig(json, 'spec', 'suspend') === true) continue;
      const parsed = parseCronSchedule(asString(dig(json, 'spec', 'schedule')) ?? '');
      const gap = parsed.ok ? longestCronGapSeconds(parsed.schedule) : undefined;
      if (gap === undefined) continue;
      if (best === undefined || gap < best) best = gap;
    }
    return best;
  }
}

const PROPS_SPEC: PropSpec<PluginMonitoringProps> = {
  clusters: Kind.any,
  plugins: Kind.any,
  poolers: Kind.each(Kind.instance((v) => v instanceof Pooler, 'a Pooler', 'pass Pooler constructs, e.g. cluster.addPooler(...)')),
  labels: Kind.labels,
  backupGrace: Kind.duration('Duration.hours(1)'),
};

function namespaceOf(namespace: string | undefined): { namespace?: string } {
  return namespace === undefined ? {} : { namespace };
}

/** The StandalonePlugin running `plugin`: itself, or the one a preset holds. */
function standaloneOf(scope: Construct, prop: string, plugin: IPlugin): StandalonePlugin {
  if (plugin instanceof StandalonePlugin) return plugin;
  const held = (plugin as Partial<IConstruct>).node?.findAll().find((c): c is StandalonePlugin => c instanceof StandalonePlugin);
  if (held === undefined) {
    invalid(
      scope,
      prop,
      plugin?.pluginName,
      'runs in no Deployment of its own (a sidecar plugin runs in the operator pod, a plugin by name is managed elsewhere)',
      'list StandalonePlugins and the presets that hold one; monitor the operator Deployment for a sidecar plugin',
    );
  }
  return held;
}

/**
 * The PodMonitor CloudNativePG would write for the Cluster (cloudnative-pg v1.30.0
 * pkg/specs/podmonitor.go BuildPodMonitor): its instance pods by `cnpg.io/cluster` and
 * `cnpg.io/podRole: instance`, port `metrics`, and HTTPS with the Cluster's CA when
 * `spec.monitoring.tls.enabled` is set.
 */
function clusterPodMonitorSpec(cluster: PostgresCluster): object {
  const json = synthJson(cluster.apiObject) as Json;
  const endpoint: { [key: string]: unknown } = { port: 'metrics' };
  if (dig(json, 'spec', 'monitoring', 'tls', 'enabled') === true) {
    // api/v1/cluster_funcs.go GetServerCASecretName (<cluster>-ca, or spec.certificates.serverCASecret)
    // and GetServiceReadWriteName (<cluster>-rw); ssl verify-ca, hence no host name check.
    const ca = asString(dig(json, 'spec', 'certificates', 'serverCASecret')) ?? `${cluster.name}-ca`;
    endpoint.scheme = 'https';
    endpoint.tlsConfig = { ca: { secret: { name: ca, key: 'ca.crt' } }, serverName: `${cluster.name}-rw`, insecureSkipVerify: true };
  }
  return { selector: { matchLabels: { 'cnpg.io/cluster': cluster.name, 'cnpg.io/podRole': 'instance' } }, podMetricsEndpoints: [endpoint] };
}

/** Two PodMonitors on the same pods would scrape every series twice. */
function refuseOperatorPodMonitor(scope: Construct, cluster: PostgresCluster): void {
  const json = synthJson(cluster.apiObject) as Json;
  if (dig(json, 'spec', 'monitoring', 'enablePodMonitor') === true) {
    invalid(
      scope,
      'clusters',
      cluster.name,
      'has monitoring.enablePodMonitor: true, so CloudNativePG writes a PodMonitor for the same pods and every series would be scraped twice',
      'leave enablePodMonitor unset on the PostgresCluster (upstream deprecates it), or leave the Cluster out of clusters',
    );
  }
}

/**
 * kube-state-metrics (v2.17.0 internal/store/deployment.go) exports
 * `kube_deployment_status_replicas_available{namespace, deployment}`.
 */
function pluginUnavailable(plugin: StandalonePlugin): AlertRule {
  const deployment = plugin.deployment.name;
  return {
    alert: PluginMonitoringAlert.PLUGIN_UNAVAILABLE,
    expr: `kube_deployment_status_replicas_available{namespace="${plugin.namespace}",deployment="${deployment}"} < 1`,
    for: '5m',
    labels: { severity: 'critical', namespace: plugin.namespace, deployment, plugin: plugin.pluginName },
    annotations: {
      summary: `Plugin ${plugin.pluginName} has no available replica`,
      description: `Deployment ${plugin.namespace}/${deployment} has had no available replica for 5 minutes: the operator cannot call the plugin, so the Clusters using it cannot be reconciled, archive WAL or back up through it. Check the Deployment's pods and events.`,
    },
  };
}

interface CertificateInfo {
  readonly namespace: string;
  readonly name: string;
  readonly plugin: string;
  readonly renewBeforeSeconds: number;
}

/** The cert-manager Certificates under the plugins, in construct order. */
function certificatesOf(plugins: readonly StandalonePlugin[]): CertificateInfo[] {
  const out: CertificateInfo[] = [];
  for (const plugin of plugins) {
    for (const c of plugin.node.findAll()) {
      if (!(c instanceof ApiObject) || c.kind !== 'Certificate' || !c.apiVersion.startsWith('cert-manager.io/')) continue;
      const json = synthJson(c) as Json;
      out.push({
        namespace: c.metadata.namespace ?? Chart.of(c).namespace ?? 'default',
        name: c.name,
        plugin: plugin.pluginName,
        renewBeforeSeconds: renewBeforeSeconds(asObject(json.spec) ?? {}),
      });
    }
  }
  return out;
}

/**
 * How long before expiry cert-manager renews (cert-manager v1.21.1 pkg/util/pki/renewaltime.go
 * desiredRenewalTime): spec.renewBefore when shorter than the lifetime, else
 * spec.renewBeforePercentage of the lifetime, else a third of it.
 */
function renewBeforeSeconds(spec: Json): number {
  const seconds = (text: string | undefined): number | undefined => {
    const nanos = text === undefined ? undefined : parseGoDuration(text);
    return nanos === undefined ? undefined : Number(nanos / 1_000_000_000n);
  };
  const lifetime = seconds(asString(spec.duration)) ?? Number(CERT_MANAGER_DEFAULT_DURATION / 1_000_000_000n);
  const before = seconds(asString(spec.renewBefore));
  if (before !== undefined && before > 0 && before < lifetime) return before;
  const pct = typeof spec.renewBeforePercentage === 'number' ? spec.renewBeforePercentage : undefined;
  if (pct !== undefined && pct > 0 && pct < 100) return Math.floor((lifetime * pct) / 100);
  return Math.floor(lifetime / 3);
}

/**
 * cert-manager v1.21.1 pkg/metrics/metrics.go: `certmanager_certificate_ready_status{name,
 * namespace, condition}` (1 on the series of the current condition) and
 * `certmanager_certificate_expiration_timestamp_seconds{name, namespace}`.
 */
function certificateRules(cert: CertificateInfo): AlertRule[] {
  const selector = `namespace="${cert.namespace}",name="${cert.name}"`;
  const labels = { namespace: cert.namespace, certificate: cert.name, plugin: cert.plugin };
  const margin = Math.floor(cert.renewBeforeSeconds / 2);
  return [
    {
      alert: PluginMonitoringAlert.CERTIFICATE_NOT_READY,
      expr: `certmanager_certificate_ready_status{${selector},condition="True"} < 1`,
      for: '15m',
      labels: { severity: 'warning', ...labels },
      annotations: {
        summary: `Certificate ${cert.namespace}/${cert.name} of plugin ${cert.plugin} is not Ready`,
        description: 'cert-manager has not issued the certificate for 15 minutes. Check the Certificate, its CertificateRequest and the issuer.',
      },
    },
    {
      alert: PluginMonitoringAlert.CERTIFICATE_EXPIRING,
      expr: `certmanager_certificate_expiration_timestamp_seconds{${selector}} - time() < ${margin}`,
      labels: { severity: 'critical', ...labels },
      annotations: {
        summary: `Certificate ${cert.namespace}/${cert.name} of plugin ${cert.plugin} expires soon`,
        description: `It expires in less than ${margin} seconds, half of its renewal window: cert-manager should have renewed it. When it expires the operator's TLS handshake with the plugin fails. Check the Certificate's status and the issuer.`,
      },
    },
  ];
}

/**
 * The operator runs a Pooler's PgBouncer pods in a Deployment named after the Pooler
 * (cloudnative-pg v1.30.0 pkg/specs/pgbouncer/deployments.go Deployment); kube-state-metrics
 * exports its available replicas as for a plugin's.
 */
function poolerUnavailable(pooler: Pooler): AlertRule {
  const namespace = pooler.apiObject.metadata.namespace ?? Chart.of(pooler).namespace ?? 'default';
  return {
    alert: PluginMonitoringAlert.POOLER_UNAVAILABLE,
    expr: `kube_deployment_status_replicas_available{namespace="${namespace}",deployment="${pooler.name}"} < 1`,
    for: '5m',
    labels: { severity: 'critical', namespace, deployment: pooler.name, cluster: pooler.clusterName },
    annotations: {
      summary: `Pooler ${namespace}/${pooler.name} has no available PgBouncer pod`,
      description: `Applications that connect through the Service ${pooler.serviceName} cannot reach Cluster ${pooler.clusterName}. Check the Pooler's status and its Deployment's pods.`,
    },
  };
}
