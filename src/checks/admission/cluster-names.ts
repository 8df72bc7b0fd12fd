/*
 * The Cluster webhook's checks of names (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go): the Cluster's own name, and its tablespaces' names
 * (pkg/postgres/identifier.go IsTablespaceNameValid, pkg/specs/volumes.go
 * VolumeMountNameForTablespace) and the tablespaces a volume snapshot backup configures.
 */
import { describeValue } from '../../manifests/errors';
import { Json, asObject, asString, dig, objectsOf } from '../../manifests/json';
import { isDns1035Label } from '../../manifests/k8s-names';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { goString } from './go-values';

/** The longest Cluster name: the operator derives longer names (Pods, Services, PVCs) from it. */
const MAX_CLUSTER_NAME = 50;

/**
 * validateName: a DNS-1035 label (validationutil.IsDNS1035Label), of at most 50 bytes. A Cluster
 * without a name is not judged: the API server refuses it, or generates the name from
 * `generateName` (which the doctor does not read).
 */
function name(cluster: Json): CheckIssue[] {
  const clusterName = asString(dig(cluster, 'metadata', 'name'));
  if (clusterName === undefined || clusterName === '') return [];
  const issues: CheckIssue[] = [];
  if (!isDns1035Label(clusterName)) {
    issues.push({
      severity: 'error',
      path: 'metadata.name',
      message: `the Cluster webhook refuses the Cluster name ${describeValue(clusterName)} ("cluster name must be a valid DNS label"): it must be a DNS-1035 label (lower-case letters, digits and '-', a letter first, alphanumeric last), since the operator names Services after it`,
      fix: "use lower-case letters, digits and '-', starting with a letter, such as 'orders-db'",
    });
  }
  const bytes = Buffer.byteLength(clusterName, 'utf8');
  if (bytes > MAX_CLUSTER_NAME) {
    issues.push({
      severity: 'error',
      path: 'metadata.name',
      message: `the Cluster webhook refuses the Cluster name ${describeValue(clusterName)}, ${bytes} characters long ("the maximum length of a cluster name is 50 characters"): the operator derives the names of Pods, Services and volumes from it`,
      fix: `shorten it to at most ${MAX_CLUSTER_NAME} characters`,
    });
  }
  return issues;
}

/** Go's strings.ToLower: each code point's simple lower case (no context, İ is i). */
function goLower(text: string): string {
  return Array.from(text, (c) => (c === '\u0130' ? 'i' : c.toLowerCase())).join('');
}

/** specs.VolumeMountNameForTablespace: `tbs-`, a leading `_` as `1`, `$` and `_` as `-`, lower case. */
function tablespaceVolumeName(tablespace: string): string {
  const first = tablespace.startsWith('_') ? `1${tablespace.slice(1)}` : tablespace;
  return `tbs-${goLower(first.replace(/\$/g, '-').replace(/_/g, '-'))}`;
}

/** postgres.IsTablespaceNameValid: the first problem of a tablespace name, as the webhook words it. */
function tablespaceNameProblem(tablespace: string): string | undefined {
  if (tablespace.startsWith('pg_')) return "tablespace names beginning 'pg_' are reserved for Postgres";
  if (!/^[a-zA-Z_][a-zA-Z0-9_$]*$/.test(tablespace)) {
    return "tablespace names must be valid Postgres identifiers: alphanumeric characters, '_', '$', and must start with a letter or an underscore";
  }
  if (tablespace.length > 63) return 'the maximum length of an identifier is 63 characters';
  return undefined;
}

/**
 * validateTablespaceNames: each name once (PostgreSQL folds case), a valid PostgreSQL identifier
 * that is not reserved, and a distinct volume name once sanitised for Kubernetes.
 */
function tablespaceNames(cluster: Json): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const seen = new Set<string>();
  const volumes = new Set<string>();
  for (const { item, i } of objectsOf(dig(cluster, 'spec', 'tablespaces'))) {
    const tablespace = goString(item.name);
    const at = { path: `spec.tablespaces[${i}].name`, webhookPath: `spec.tablespaces[${i}]` };
    const lower = goLower(tablespace);
    if (seen.has(lower)) {
      issues.push({
        severity: 'error',
        ...at,
        message: `the Cluster webhook refuses tablespace ${describeValue(tablespace)} ("duplicate tablespace name", at spec.tablespaces[${i}]): an earlier tablespace has the same name, and PostgreSQL does not tell names apart by case`,
        fix: 'give each tablespace its own name, or remove the repeated one',
      });
      continue;
    }
    seen.add(lower);
    const problem = tablespaceNameProblem(tablespace);
    if (problem !== undefined) {
      issues.push({
        severity: 'error',
        ...at,
        message: `the Cluster webhook refuses tablespace ${describeValue(tablespace)} ("${problem}", at spec.tablespaces[${i}])`,
        fix: "use a PostgreSQL identifier of at most 63 characters: letters, digits, '_' and '$', a letter or '_' first, not starting with 'pg_'",
      });
    }
    const volume = tablespaceVolumeName(tablespace);
    if (volumes.has(volume)) {
      issues.push({
        severity: 'error',
        ...at,
        message: `the Cluster webhook refuses tablespace ${describeValue(tablespace)} ("tablespace name results in duplicate volume name "${volume}" after sanitization (special characters are converted to hyphens)", at spec.tablespaces[${i}]): the operator names each tablespace's volume after it, with '_' and '$' as '-' and in lower case`,
        fix: `rename it so that it differs from the other tablespaces by more than '_', '$' and case`,
      });
    }
    volumes.add(volume);
  }
  return issues;
}

/** validateTablespaceBackupSnapshot: every tablespace given a snapshot class is a tablespace of the Cluster. */
function tablespaceBackupSnapshot(cluster: Json): CheckIssue[] {
  const classes = asObject(dig(cluster, 'spec', 'backup', 'volumeSnapshot', 'tablespaceClassName'));
  if (!classes) return [];
  const names = new Set(objectsOf(dig(cluster, 'spec', 'tablespaces')).map(({ item }) => goString(item.name)));
  // The webhook ranges over a Go map (no order); sorted here so the output is deterministic.
  return Object.keys(classes)
    .sort()
    .filter((tablespace) => !names.has(tablespace))
    .map((tablespace) => ({
      severity: 'error' as const,
      path: `spec.backup.volumeSnapshot.tablespaceClassName.${tablespace}`,
      webhookPath: 'spec.backup.volumeSnapshot.tablespaceClassName',
      message: `the Cluster webhook refuses a snapshot class for tablespace ${describeValue(tablespace)} ("specified the VolumeSnapshot backup configuration for the tablespace: ${tablespace}, but it can't be found in the '.spec.tablespaces' stanza", at spec.backup.volumeSnapshot.tablespaceClassName): the Cluster has no tablespace of that name`,
      fix: `name a tablespace of spec.tablespaces (names are case sensitive here), or remove the entry`,
    }));
}

/** The name checks, in the webhook's order. @internal */
export const CLUSTER_NAME_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateName', check: name },
  { kind: 'Cluster', upstream: 'validateTablespaceNames', check: tablespaceNames },
  { kind: 'Cluster', upstream: 'validateTablespaceBackupSnapshot', check: tablespaceBackupSnapshot },
];
