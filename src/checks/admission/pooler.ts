/*
 * The Pooler webhook (cloudnative-pg v1.30.0 internal/webhook/v1/pooler_webhook.go
 * PoolerCustomValidator): `validate` (validatePgBouncer with validatePgbouncerGenericParameters,
 * validateCluster, validateMonitoring) and the warnings of getAdmissionWarnings and
 * validateDeprecatedMonitoringFields, on the object as the API server leaves it (the Pooler has
 * no defaulting webhook). On create the webhook drops its warnings when it refuses the Pooler; on
 * update it returns both.
 */
import { Json, asArray, asObject, asString, dig, objectMeta } from '../../manifests/json';
import { isDns1035Label } from '../../manifests/k8s-names';
import { nearestName } from '../../manifests/nearest-name';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';

/**
 * The PgBouncer settings a Pooler may set in `spec.pgbouncer.parameters`
 * (AllowedPgbouncerGenericConfigurationParameters); the operator writes every other one itself,
 * or does not support it.
 */
const ALLOWED_PARAMETERS: ReadonlySet<string> = new Set([
  'application_name_add_host',
  'auth_type',
  'autodb_idle_timeout',
  'cancel_wait_timeout',
  'client_idle_timeout',
  'client_login_timeout',
  'client_tls_ciphers',
  'client_tls_sslmode',
  'client_tls13_ciphers',
  'default_pool_size',
  'disable_pqexec',
  'dns_max_ttl',
  'dns_nxdomain_ttl',
  'idle_transaction_timeout',
  'ignore_startup_parameters',
  'listen_backlog',
  'log_connections',
  'log_disconnections',
  'log_pooler_errors',
  'log_stats',
  'max_client_conn',
  'max_db_connections',
  'max_packet_size',
  'max_prepared_statements',
  'max_user_connections',
  'min_pool_size',
  'pkt_buf',
  'query_timeout',
  'query_wait_timeout',
  'reserve_pool_size',
  'reserve_pool_timeout',
  'sbuf_loopcnt',
  'server_check_delay',
  'server_check_query',
  'server_connect_timeout',
  'server_fast_close',
  'server_idle_timeout',
  'server_lifetime',
  'server_login_retry',
  'server_reset_query',
  'server_reset_query_always',
  'server_round_robin',
  'server_tls_ciphers',
  'server_tls13_ciphers',
  'server_tls_protocols',
  'server_tls_sslmode',
  'stats_period',
  'suspend_timeout',
  'tcp_defer_accept',
  'tcp_socket_buffer',
  'tcp_keepalive',
  'tcp_keepcnt',
  'tcp_keepidle',
  'tcp_keepintvl',
  'tcp_user_timeout',
  'track_extra_parameters',
  'verbose',
]);

/** PgBouncer settings the Pooler has a field of its own for. */
const PARAMETER_FIELDS: Readonly<Record<string, string>> = {
  pool_mode: 'spec.pgbouncer.poolMode',
  auth_query: 'spec.pgbouncer.authQuery',
};

/** `spec.pgbouncer`, when it is an object (Go: a nil pointer otherwise). */
const pgbouncerOf = (pooler: Json): Json | undefined => asObject(dig(pooler, 'spec', 'pgbouncer'));

/** A string field of `spec.pgbouncer` as Go reads it: `''` when absent. */
const text = (pgbouncer: Json | undefined, ...keys: string[]): string => asString(dig(pgbouncer, ...keys)) ?? '';

/**
 * The credentials fields that make PgBouncer authenticate on its own, in the order the webhook
 * reads them: an auth query secret or a server TLS secret with a name.
 */
function ownCredentials(pgbouncer: Json | undefined): string[] {
  return ['authQuerySecret', 'serverTLSSecret'].filter((key) => text(pgbouncer, key, 'name') !== '');
}

/** validatePgBouncer: the PgBouncer stanza, and an auth query with the credentials to run it (its parameters are the next check's). */
function pgBouncer(pooler: Json): CheckIssue[] {
  const pgbouncer = pgbouncerOf(pooler);
  if (!pgbouncer) {
    return [
      {
        severity: 'error',
        path: 'spec.pgbouncer',
        message: 'the Pooler webhook refuses a Pooler without pgbouncer ("required pgbouncer configuration"); the CRD requires it too',
        fix: 'add spec.pgbouncer, e.g. pgbouncer: { poolMode: session }',
      },
    ];
  }
  const credentials = ownCredentials(pgbouncer);
  const authQuery = text(pgbouncer, 'authQuery');
  if (credentials.length > 0 && authQuery === '') {
    return [
      {
        severity: 'error',
        path: 'spec.pgbouncer.authQuery',
        message: `the Pooler webhook refuses ${credentials.join(' and ')} without authQuery ("must specify an auth query when providing an auth query secret"): with credentials of its own, PgBouncer needs the query that looks up the users it lets in`,
        fix: `set spec.pgbouncer.authQuery to that query, or remove ${credentials.join(' and ')} so that the operator sets up the Pooler's access to the Cluster`,
      },
    ];
  }
  if (credentials.length === 0 && authQuery !== '') {
    return [
      {
        severity: 'error',
        path: 'spec.pgbouncer.authQuerySecret.name',
        message:
          'the Pooler webhook refuses authQuery without authQuerySecret or serverTLSSecret ("must specify an existing auth query secret when providing an auth query secret"): PgBouncer would have no credentials to run the query with',
        fix: "set spec.pgbouncer.serverTLSSecret.name (a client certificate for PostgreSQL) or the deprecated authQuerySecret.name, or remove authQuery so that the operator sets up the Pooler's access to the Cluster",
      },
    ];
  }
  return [];
}

/** validatePgbouncerGenericParameters: each parameter must be one the operator lets a Pooler set. */
function pgbouncerParameters(pooler: Json): CheckIssue[] {
  const parameters = asObject(dig(pgbouncerOf(pooler), 'parameters'));
  if (!parameters) return [];
  return Object.keys(parameters)
    .filter((key) => !ALLOWED_PARAMETERS.has(key))
    .map((key) => {
      const field = PARAMETER_FIELDS[key];
      const near = field ? undefined : nearestName(key, ALLOWED_PARAMETERS);
      return {
        severity: 'error' as const,
        path: `spec.pgbouncer.parameters.${key}`,
        webhookPath: 'spec.cluster.parameters',
        message: `the Pooler webhook refuses PgBouncer parameter '${key}' (spec.cluster.parameters: "Invalid or reserved parameter"): it is not one of the settings a Pooler may pass to PgBouncer; the operator writes the others itself, or does not support them`,
        fix: field ? `remove it and set ${field} instead` : near ? `write '${near}'` : 'remove it',
      };
    });
}

/** validateCluster: the Cluster the Pooler points to is named, and not like the Pooler. */
function cluster(pooler: Json): CheckIssue[] {
  const clusterName = asString(dig(pooler, 'spec', 'cluster', 'name')) ?? '';
  const { name } = objectMeta(pooler);
  const issues: CheckIssue[] = [];
  if (clusterName === '') {
    issues.push({
      severity: 'error',
      path: 'spec.cluster.name',
      message: 'the Pooler webhook refuses a Pooler without a cluster name ("must specify a cluster name"): it would not know whose instances to pool',
      fix: "set spec.cluster.name to the name of the Cluster in the Pooler's namespace",
    });
  }
  if (clusterName === name) {
    const type = asString(dig(pooler, 'spec', 'type')) ?? 'rw';
    const suggestion = `${name}-pooler-${type}`;
    issues.push({
      severity: 'error',
      path: 'metadata.name',
      message: `the Pooler webhook refuses a Pooler named like the Cluster it points to, '${name}' ("the pooler resource cannot have the same name of a cluster")`,
      fix: name !== '' && isDns1035Label(suggestion) ? `rename the Pooler, e.g. '${suggestion}'` : "give the Pooler a name other than its Cluster's",
    });
  }
  return issues;
}

/** validateMonitoring: TLS metrics with the operator's PodMonitor need the Pooler's own certificate. */
function monitoring(pooler: Json): CheckIssue[] {
  const monitoringSpec = asObject(dig(pooler, 'spec', 'monitoring'));
  if (dig(monitoringSpec, 'tls', 'enabled') !== true || dig(monitoringSpec, 'enablePodMonitor') !== true) return [];
  if (text(pgbouncerOf(pooler), 'clientTLSSecret', 'name') !== '') return [];
  return [
    {
      severity: 'error',
      path: 'spec.pgbouncer.clientTLSSecret',
      message:
        "the Pooler webhook refuses metrics over TLS with the operator's PodMonitor and no clientTLSSecret (Required value: \"clientTLSSecret is required when spec.monitoring.tls.enabled is true and the operator-generated PodMonitor is enabled\"): the metrics endpoint would serve the Cluster's server certificate, which names the Cluster's Services, not the Pooler",
      fix: "set spec.pgbouncer.clientTLSSecret.name to a TLS Secret whose certificate names the Pooler, or set spec.monitoring.enablePodMonitor: false and write the Pooler's PodMonitor yourself",
    },
  ];
}

/** getAdmissionWarnings: a Pooler the operator does not integrate with its Cluster, and the deprecated auth query secret. */
function admissionWarnings(pooler: Json): CheckIssue[] {
  const pgbouncer = pgbouncerOf(pooler);
  if (!pgbouncer) return [];
  const issues: CheckIssue[] = [];
  const manual = [...(text(pgbouncer, 'authQuery') !== '' ? ['authQuery'] : []), ...ownCredentials(pgbouncer)];
  if (manual.length > 0) {
    const { name, namespace } = objectMeta(pooler);
    const clusterName = asString(dig(pooler, 'spec', 'cluster', 'name')) ?? '';
    const answer = `The operator won't handle the Pooler "${name}" integration with the Cluster "${clusterName}" ("${namespace ?? '<namespace>'}"). Manually configure it as described in the docs.`;
    issues.push({
      severity: 'warning',
      path: `spec.pgbouncer.${manual[0] === 'authQuery' ? 'authQuery' : `${manual[0]}.name`}`,
      message: `the Pooler webhook warns "${answer}": with ${manual.join(' and ')} set, the PgBouncer user, its lookup function and its credentials are yours to set up in the Cluster`,
      fix: `remove ${manual.join(' and ')} so that the operator sets the integration up, or keep them and configure the Cluster yourself`,
    });
  }
  if (text(pgbouncer, 'authQuerySecret', 'name') !== '') {
    issues.push({
      severity: 'warning',
      path: 'spec.pgbouncer.authQuerySecret',
      message: 'the Pooler webhook warns "The .spec.pgbouncer.authQuerySecret field has been deprecated"',
      fix: 'authenticate PgBouncer to PostgreSQL with a client certificate in spec.pgbouncer.serverTLSSecret instead, or remove both authQuerySecret and authQuery so that the operator sets the integration up',
    });
  }
  return issues;
}

/** validateDeprecatedMonitoringFields: the PodMonitor the operator generates for a Pooler is deprecated. */
function deprecatedMonitoring(pooler: Json): CheckIssue[] {
  const monitoringSpec = asObject(dig(pooler, 'spec', 'monitoring'));
  if (!monitoringSpec) return [];
  const used = [
    ...(monitoringSpec.enablePodMonitor === true ? ['enablePodMonitor'] : []),
    ...['podMonitorMetricRelabelings', 'podMonitorRelabelings'].filter((key) => asArray(monitoringSpec[key]).length > 0),
  ];
  if (used.length === 0) return [];
  return [
    {
      severity: 'warning',
      path: `spec.monitoring.${used[0]}`,
      message: `the Pooler webhook warns "spec.monitoring is deprecated and will be removed in a future release. Set this field to false and create a PodMonitor resource for your pooler as described in the documentation": ${used.join(' and ')} ${used.length === 1 ? 'asks' : 'ask'} for the PodMonitor the operator generates, which a later release drops`,
      fix: "remove enablePodMonitor and the PodMonitor relabelings, and write a PodMonitor that selects the Pooler's pods",
    },
  ];
}

/**
 * The Pooler webhook, one check per function, in its order: the errors of `validate`, then the
 * warnings. validatePgbouncerGenericParameters is a check of its own (the webhook runs it from
 * validatePgBouncer when there are parameters).
 * @internal
 */
export const POOLER_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Pooler', upstream: 'validatePgBouncer', check: pgBouncer },
  { kind: 'Pooler', upstream: 'validatePgbouncerGenericParameters', check: pgbouncerParameters },
  { kind: 'Pooler', upstream: 'validateCluster', check: cluster },
  { kind: 'Pooler', upstream: 'validateMonitoring', check: monitoring },
  { kind: 'Pooler', upstream: 'getAdmissionWarnings', check: admissionWarnings },
  { kind: 'Pooler', upstream: 'validateDeprecatedMonitoringFields', check: deprecatedMonitoring },
];
