import { isRefusedExternalClusterName } from '../../common/validate';
import { FidelityIssue, Obj, arr, at, obj, str } from './issue';

/**
 * Class 1: the cross-references the Cluster webhook checks (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateBootstrapPgBaseBackupSource,
 * validateBootstrapRecoverySource, validateReplicaClusterExternalClusters, validateReplicaMode,
 * validateExternalClusters, validateExternalCluster (names and sslCert/sslKey/sslRootCert
 * selectors through isUnsafePathComponent), validateBootstrapMethod).
 * @internal
 */
export function checkClusterReferences(cluster: Obj): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  const externals = arr(at(cluster, 'spec', 'externalClusters')).map((e) => obj(e) ?? {});
  const names = externals.map((e) => str(e.name) ?? '');
  const byName = new Map<string, Obj>();
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

  const bootstrap = obj(at(cluster, 'spec', 'bootstrap'));
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
    const pgb = obj(bootstrap.pg_basebackup);
    if (pgb) {
      // Checked even when empty: the webhook looks up whatever source holds.
      const source = str(pgb.source) ?? '';
      if (!byName.has(source)) missing('spec.bootstrap.pg_basebackup.source', source, 'pg_basebackup source');
    }
    const recovery = obj(bootstrap.recovery);
    const source = str(recovery?.source) ?? '';
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

  const replica = obj(at(cluster, 'spec', 'replica'));
  if (replica) {
    const source = str(replica.source) ?? '';
    if (!byName.has(source)) missing('spec.replica.source', source, 'replica source');
    for (const key of ['self', 'primary']) {
      const v = str(replica[key]) ?? '';
      if (v !== '' && !byName.has(v)) missing(`spec.replica.${key}`, v, `replica ${key}`);
    }
    if (replica.enabled !== undefined && replica.enabled !== null && (str(replica.primary) ?? '') !== '') {
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
        const v = str(at(e, sel, part));
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

function hasSourceConfig(e: Obj): boolean {
  return ['connectionParameters', 'barmanObjectStore', 'plugin'].some((k) => e[k] !== undefined && e[k] !== null);
}
