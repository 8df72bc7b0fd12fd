/*
 * The Cluster webhook's checks of a Cluster's references: its bootstrap method and sources, its
 * external clusters, its replica configuration (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go). One check per upstream function; the doctor reports
 * them all as CNPGI100.
 */
import { Json, asArray, asObject, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { isReplicaCluster } from './cluster-reading';
import { isSet } from './go-values';

/** The external clusters of a Cluster, by position, with their names (an entry of another type reads as empty). */
function externalClusters(cluster: Json): Array<{ readonly entry: Json; readonly name: string }> {
  return asArray(dig(cluster, 'spec', 'externalClusters')).map((e) => {
    const entry = asObject(e) ?? {};
    return { entry, name: asString(entry.name) ?? '' };
  });
}

/** Finds external clusters by name, the first of a repeated name (api/v1 Cluster.ExternalCluster). */
function externalClusterLookup(cluster: Json): { readonly find: (name: string) => Json | undefined; readonly listed: string } {
  const all = externalClusters(cluster);
  return {
    find: (name) => all.find((e) => e.name === name)?.entry,
    listed: all.length ? all.map((e) => `'${e.name}'`).join(', ') : 'none',
  };
}

/** A reference to an external cluster that names none. */
function missingSource(cluster: Json, path: string, value: string, what: string, webhookPath?: string): CheckIssue {
  return {
    severity: 'error',
    path,
    ...(webhookPath === undefined ? {} : { webhookPath }),
    message: `${what} '${value}' names no entry of spec.externalClusters (defined: ${externalClusterLookup(cluster).listed}); the Cluster webhook refuses the Cluster`,
    fix:
      value === ''
        ? `set ${path} to the name of an externalClusters entry`
        : `add an externalClusters entry named '${value}', or set ${path} to one of the defined names`,
  };
}

/** An external cluster with connection parameters, an in-tree object store or a plugin (an empty one counts). */
function hasSourceConfig(e: Json): boolean {
  return ['connectionParameters', 'barmanObjectStore', 'plugin'].some((k) => isSet(e[k]));
}

/**
 * validateBootstrapMethod: at most one of `initdb`, `recovery` and `pg_basebackup`.
 */
function bootstrapMethod(cluster: Json): CheckIssue[] {
  const bootstrap = asObject(dig(cluster, 'spec', 'bootstrap'));
  const methods = ['initdb', 'recovery', 'pg_basebackup'].filter((m) => isSet(bootstrap?.[m]));
  if (methods.length <= 1) return [];
  return [
    {
      severity: 'error',
      path: 'spec.bootstrap',
      message: `sets ${methods.join(' and ')}; the Cluster webhook allows one bootstrap method`,
      fix: 'keep exactly one of initdb, recovery and pg_basebackup',
    },
  ];
}

/**
 * validateBootstrapPgBaseBackupSource: a `pg_basebackup` bootstrap's `source` names an external
 * cluster; an empty source too, as the webhook looks up whatever it holds.
 */
function pgBaseBackupSource(cluster: Json): CheckIssue[] {
  const pgb = asObject(dig(cluster, 'spec', 'bootstrap', 'pg_basebackup'));
  if (!pgb) return [];
  const source = asString(pgb.source) ?? '';
  return externalClusterLookup(cluster).find(source) ? [] : [missingSource(cluster, 'spec.bootstrap.pg_basebackup.source', source, 'pg_basebackup source')];
}

/**
 * validateBootstrapRecoverySource: a `recovery` bootstrap's non-empty `source` names an external
 * cluster that has connection parameters, an object store or a plugin. (An empty source is a
 * recovery from a Backup or volume snapshots.) The webhook answers both errors for a source
 * that is not found; one issue says it.
 */
function recoverySource(cluster: Json): CheckIssue[] {
  const source = asString(dig(cluster, 'spec', 'bootstrap', 'recovery', 'source')) ?? '';
  if (!asObject(dig(cluster, 'spec', 'bootstrap', 'recovery')) || source === '') return [];
  const found = externalClusterLookup(cluster).find(source);
  if (!found) return [missingSource(cluster, 'spec.bootstrap.recovery.source', source, 'recovery source')];
  if (hasSourceConfig(found)) return [];
  return [
    {
      severity: 'error',
      path: 'spec.bootstrap.recovery.source',
      message: `recovery source '${source}' has none of connectionParameters, barmanObjectStore and plugin; the Cluster webhook refuses it`,
      fix: `give externalClusters '${source}' a plugin (e.g. barman-cloud.cloudnative-pg.io with barmanObjectName) or connectionParameters`,
    },
  ];
}

/**
 * Whether the Cluster webhook refuses `name` as an external cluster name or a Secret name or key
 * of its TLS selectors: the operator joins them into file paths, so '.', '..', '/' and '\' are
 * refused (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go isUnsafePathComponent).
 * Shared by the constructs and the doctor.
 * @internal
 */
export function isRefusedExternalClusterName(name: string): boolean {
  return name === '.' || name === '..' || /[/\\]/.test(name);
}

/**
 * validateExternalClusters, with validateExternalCluster and isUnsafePathComponent: each entry has
 * connection parameters, an object store or a plugin, a path-safe name and path-safe TLS Secret
 * selectors (not `password`); then no name twice.
 */
function externalClustersCheck(cluster: Json): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const all = externalClusters(cluster);
  all.forEach(({ entry, name }, i) => {
    if (!hasSourceConfig(entry)) {
      issues.push({
        severity: 'error',
        path: `spec.externalClusters[${i}]`,
        message: `external cluster '${name}' has none of connectionParameters, plugin and barmanObjectStore; the Cluster webhook refuses the Cluster (one of them is required)`,
        fix: 'give it a plugin (e.g. name: barman-cloud.cloudnative-pg.io with parameters.barmanObjectName) or connectionParameters',
      });
    }
    if (isRefusedExternalClusterName(name)) {
      issues.push({
        severity: 'error',
        path: `spec.externalClusters[${i}].name`,
        message: `'${name}' is used as a path component and the Cluster webhook refuses '.', '..', '/' and '\\' in it`,
        fix: "use a plain name such as 'origin'",
      });
    }
    for (const sel of ['sslCert', 'sslKey', 'sslRootCert']) {
      for (const part of ['name', 'key']) {
        const v = asString(dig(entry, sel, part));
        if (v !== undefined && isRefusedExternalClusterName(v)) {
          issues.push({
            severity: 'error',
            path: `spec.externalClusters[${i}].${sel}.${part}`,
            message: `'${v}' is joined into a file path and the Cluster webhook refuses '.', '..', '/' and '\\' in a Secret ${part} of an external cluster`,
            fix: `use a plain Secret ${part}, e.g. '${part === 'name' ? 'origin-tls' : 'tls.crt'}'`,
          });
        }
      }
    }
  });
  const seen = new Set<string>();
  all.forEach(({ name }, i) => {
    if (seen.has(name)) {
      issues.push({
        severity: 'error',
        path: `spec.externalClusters[${i}].name`,
        webhookPath: 'spec.externalClusters',
        message: `'${name}' is defined twice; the Cluster webhook refuses duplicate external cluster names`,
        fix: `rename or remove one of the entries named '${name}'`,
      });
    }
    seen.add(name);
  });
  return issues;
}

/**
 * validateReplicaMode, but for the references it checks through
 * validateReplicaClusterExternalClusters (a check of its own, right after it): `enabled` and
 * `primary` are exclusive, and a replica cluster needs a bootstrap, which on creation must be
 * pg_basebackup or recovery. A manifest is judged as a creation unless it carries a
 * `metadata.resourceVersion`. After defaulting a Cluster always has a bootstrap (initdb when none
 * is written).
 */
function replicaMode(cluster: Json): CheckIssue[] {
  const replica = asObject(dig(cluster, 'spec', 'replica'));
  if (!replica) return [];
  const issues: CheckIssue[] = [];
  if (isSet(replica.enabled) && (asString(replica.primary) ?? '') !== '') {
    issues.push({
      severity: 'error',
      path: 'spec.replica.enabled',
      webhookPath: 'spec.replicaCluster.enabled',
      message: 'is set together with spec.replica.primary; the Cluster webhook forbids it (primary selects the automatic mode, enabled the manual one)',
      fix: 'remove spec.replica.enabled, or remove spec.replica.primary and spec.replica.self',
    });
  }
  if (!isReplicaCluster(cluster)) return issues;
  const bootstrap = asObject(dig(cluster, 'spec', 'bootstrap'));
  const source = asString(replica.source) ?? '';
  const from = source === '' ? 'its source' : `'${source}'`;
  const primary = asString(replica.primary) ?? '';
  const why =
    typeof replica.enabled === 'boolean'
      ? 'spec.replica.enabled is true'
      : primary === ''
        ? 'spec.replica sets neither enabled nor primary'
        : `this Cluster ('${asString(replica.self) || asString(dig(cluster, 'metadata', 'name')) || ''}') is not spec.replica.primary ('${primary}')`;
  if (!bootstrap) {
    issues.push({
      severity: 'error',
      path: 'spec.bootstrap',
      message: `is missing on a replica cluster (${why}); the Cluster webhook refuses it ("bootstrap configuration is required for replica mode")`,
      fix: `bootstrap it with pg_basebackup or recovery from ${from}`,
    });
  } else if (!isSet(bootstrap.pg_basebackup) && !isSet(bootstrap.recovery) && !asString(dig(cluster, 'metadata', 'resourceVersion'))) {
    issues.push({
      severity: 'error',
      path: 'spec.replica',
      webhookPath: 'spec.replicaCluster',
      message:
        `makes this Cluster a replica cluster (${why}) whose bootstrap is initdb (the default when none is written); the Cluster webhook refuses to create it ` +
        '("replica mode bootstrap is compatible only with pg_basebackup or recovery"): a replica starts from a copy of its source, not from an empty database',
      fix: `bootstrap it with pg_basebackup or recovery from ${from}; for the primary of a distributed topology, set spec.replica.primary to this Cluster's name`,
    });
  }
  return issues;
}

/**
 * validateReplicaClusterExternalClusters: `replica.source` (even empty), and `self` and
 * `primary` when set, name external clusters. The webhook names `source` `primaryServerName`.
 */
function replicaClusterExternalClusters(cluster: Json): CheckIssue[] {
  const replica = asObject(dig(cluster, 'spec', 'replica'));
  if (!replica) return [];
  const { find } = externalClusterLookup(cluster);
  const issues: CheckIssue[] = [];
  const source = asString(replica.source) ?? '';
  if (!find(source)) issues.push(missingSource(cluster, 'spec.replica.source', source, 'replica source', 'spec.replicaCluster.primaryServerName'));
  for (const key of ['self', 'primary']) {
    const v = asString(replica[key]) ?? '';
    if (v !== '' && !find(v)) issues.push(missingSource(cluster, `spec.replica.${key}`, v, `replica ${key}`, `spec.replicaCluster.${key}`));
  }
  return issues;
}

/** The reference checks of the Cluster webhook. @internal */
export const CLUSTER_REFERENCE_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateBootstrapMethod', check: bootstrapMethod },
  { kind: 'Cluster', upstream: 'validateBootstrapPgBaseBackupSource', check: pgBaseBackupSource },
  { kind: 'Cluster', upstream: 'validateBootstrapRecoverySource', check: recoverySource },
  { kind: 'Cluster', upstream: 'validateExternalClusters', check: externalClustersCheck },
  { kind: 'Cluster', upstream: 'validateReplicaMode', check: replicaMode },
  { kind: 'Cluster', upstream: 'validateReplicaClusterExternalClusters', check: replicaClusterExternalClusters },
];
