import { Json, asArray, asObject, asString, dig } from '../manifests/json';
import { CheckIssue } from './issue';

/**
 * Class 1: the cross-references the Cluster webhook checks (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateBootstrapPgBaseBackupSource,
 * validateBootstrapRecoverySource, validateReplicaClusterExternalClusters, validateReplicaMode,
 * validateExternalClusters, validateExternalCluster (names and sslCert/sslKey/sslRootCert
 * selectors through isUnsafePathComponent), validateBootstrapMethod).
 * @internal
 */
export function checkClusterReferences(cluster: Json): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const externals = asArray(dig(cluster, 'spec', 'externalClusters')).map((e) => asObject(e) ?? {});
  const names = externals.map((e) => asString(e.name) ?? '');
  const byName = new Map<string, Json>();
  externals.forEach((e, i) => {
    if (!byName.has(names[i])) byName.set(names[i], e);
  });
  const listed = names.length ? names.map((n) => `'${n}'`).join(', ') : 'none';
  const missing = (path: string, value: string, what: string): void => {
    issues.push({
      severity: 'error',
      path,
      message: `${what} '${value}' names no entry of spec.externalClusters (defined: ${listed}); the Cluster webhook refuses the Cluster`,
      fix:
        value === ''
          ? `set ${path} to the name of an externalClusters entry`
          : `add an externalClusters entry named '${value}', or set ${path} to one of the defined names`,
    });
  };

  const bootstrap = asObject(dig(cluster, 'spec', 'bootstrap'));
  if (bootstrap) {
    const methods = ['initdb', 'recovery', 'pg_basebackup'].filter((m) => bootstrap[m] !== undefined && bootstrap[m] !== null);
    if (methods.length > 1) {
      issues.push({
        severity: 'error',
        path: 'spec.bootstrap',
        message: `sets ${methods.join(' and ')}; the Cluster webhook allows one bootstrap method`,
        fix: 'keep exactly one of initdb, recovery and pg_basebackup',
      });
    }
    const pgb = asObject(bootstrap.pg_basebackup);
    if (pgb) {
      // Checked even when empty: the webhook looks up whatever source holds.
      const source = asString(pgb.source) ?? '';
      if (!byName.has(source)) missing('spec.bootstrap.pg_basebackup.source', source, 'pg_basebackup source');
    }
    const recovery = asObject(bootstrap.recovery);
    const source = asString(recovery?.source) ?? '';
    if (recovery && source !== '') {
      const ext = byName.get(source);
      if (!ext) {
        missing('spec.bootstrap.recovery.source', source, 'recovery source');
      } else if (!hasSourceConfig(ext)) {
        issues.push({
          severity: 'error',
          path: 'spec.bootstrap.recovery.source',
          message: `recovery source '${source}' has none of connectionParameters, barmanObjectStore and plugin; the Cluster webhook refuses it`,
          fix: `give externalClusters '${source}' a plugin (e.g. barman-cloud.cloudnative-pg.io with barmanObjectName) or connectionParameters`,
        });
      }
    }
  }

  const replica = asObject(dig(cluster, 'spec', 'replica'));
  if (replica) {
    const source = asString(replica.source) ?? '';
    if (!byName.has(source)) missing('spec.replica.source', source, 'replica source');
    for (const key of ['self', 'primary']) {
      const v = asString(replica[key]) ?? '';
      if (v !== '' && !byName.has(v)) missing(`spec.replica.${key}`, v, `replica ${key}`);
    }
    if (replica.enabled !== undefined && replica.enabled !== null && (asString(replica.primary) ?? '') !== '') {
      issues.push({
        severity: 'error',
        path: 'spec.replica.enabled',
        message: 'is set together with spec.replica.primary; the Cluster webhook forbids it (primary selects the automatic mode, enabled the manual one)',
        fix: 'remove spec.replica.enabled, or remove spec.replica.primary and spec.replica.self',
      });
    }
  }

  const seen = new Set<string>();
  externals.forEach((e, i) => {
    const n = names[i];
    if (seen.has(n)) {
      issues.push({
        severity: 'error',
        path: `spec.externalClusters[${i}].name`,
        message: `'${n}' is defined twice; the Cluster webhook refuses duplicate external cluster names`,
        fix: `rename or remove one of the entries named '${n}'`,
      });
    }
    seen.add(n);
    if (!hasSourceConfig(e)) {
      issues.push({
        severity: 'error',
        path: `spec.externalClusters[${i}]`,
        message: `external cluster '${n}' has none of connectionParameters, plugin and barmanObjectStore; the Cluster webhook refuses the Cluster (one of them is required)`,
        fix: 'give it a plugin (e.g. name: barman-cloud.cloudnative-pg.io with parameters.barmanObjectName) or connectionParameters',
      });
    }
    if (isRefusedExternalClusterName(n)) {
      issues.push({
        severity: 'error',
        path: `spec.externalClusters[${i}].name`,
        message: `'${n}' is used as a path component and the Cluster webhook refuses '.', '..', '/' and '\\' in it`,
        fix: "use a plain name such as 'origin'",
      });
    }
    // the TLS Secret selectors are joined into file paths the same way
    for (const sel of ['sslCert', 'sslKey', 'sslRootCert']) {
      for (const part of ['name', 'key']) {
        const v = asString(dig(e, sel, part));
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
  return issues;
}

function hasSourceConfig(e: Json): boolean {
  return ['connectionParameters', 'barmanObjectStore', 'plugin'].some((k) => e[k] !== undefined && e[k] !== null);
}

/**
 * Whether the Cluster webhook refuses `name` as an external cluster name: the operator uses it as
 * a path component, so '.', '..', '/' and '\' are refused (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateExternalClusters). Shared by the constructs and
 * the doctor (CNPGI100).
 * @internal
 */
export function isRefusedExternalClusterName(name: string): boolean {
  return name === '.' || name === '..' || /[/\\]/.test(name);
}
