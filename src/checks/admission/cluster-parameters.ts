/*
 * The Cluster webhook's check of the PostgreSQL configuration (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateConfiguration, with tryParseBooleanPostgresParameter,
 * validateWalSizeConfiguration, parsePostgresQuantityValue, validateSyncReplicaElectionConstraint;
 * the operator's configuration from pkg/postgres/configuration.go).
 *
 * validateConfiguration judges four unrelated things, which the doctor reports as four rules
 * (`configurationTopic`): the PostgreSQL major of the image, what may be written in
 * `spec.postgresql.parameters`, the WAL settings against the Cluster's shape, and the two ways of
 * configuring synchronous replicas.
 */
import { describeValue } from '../../manifests/errors';
import { Json, asArray, asObject, asString, dig, stringMap } from '../../manifests/json';
import { compareQuantities, parseQuantity, QuantityValue } from '../../manifests/quantity';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck, AdmissionContext } from './admission-check';
import { SKIP_WAL_ARCHIVING_ANNOTATION, isReplicaCluster, postgresMajor } from './cluster-reading';
import { operatorSettings } from './operator-settings';
import { parsePostgresConfigBoolean } from './parse-postgres-config-boolean';
import { OPERATOR_DEFAULT_PARAMETERS, instancesOf, isFixedParameter, operatorArchiveMode, operatorParameter } from './postgres-configuration';
import { parsePostgresQuantityValue } from './postgres-size';
import { webhookText } from './webhook-text';

const PARAMETERS = 'spec.postgresql.parameters';

/** A parameter name as PostgreSQL's configuration file reads it: an identifier, optionally with one dot. */
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/;

/** What to write instead of a fixed parameter, where the Cluster has its own field for it. */
const FIXED_PARAMETER_HINTS: Readonly<Record<string, string>> = {
  port: "PostgreSQL always listens on 5432; clients reach it through the Cluster's -rw, -ro and -r Services",
  listen_addresses: 'the operator listens on every address; restrict clients with spec.postgresql.pg_hba',
  shared_preload_libraries: 'list the libraries in spec.postgresql.shared_preload_libraries',
  synchronous_standby_names: 'configure synchronous replication in spec.postgresql.synchronous',
  archive_mode: 'archiving follows the backup configuration (a WAL archiver plugin or spec.backup)',
  archive_command: 'archiving follows the backup configuration (a WAL archiver plugin or spec.backup)',
  restore_command: 'recovery reads the WAL through the plugin or object store of the recovery source',
  recovery_min_apply_delay: 'set spec.replica.minApplyDelay on a replica cluster',
  temp_tablespaces: 'mark a tablespace `temporary: true` in spec.tablespaces',
  ssl: 'TLS is always on; give certificates in spec.certificates',
  ssl_ca_file: 'give certificates in spec.certificates',
  ssl_cert_file: 'give certificates in spec.certificates',
  ssl_key_file: 'give certificates in spec.certificates',
};

/** The settings a WAL-related issue is about (`configurationTopic` sorts by them). */
const WAL_PARAMETERS = ['wal_level', 'max_wal_senders', 'wal_log_hints', 'min_wal_size', 'max_wal_size'];

/**
 * The four subjects of validateConfiguration, by the path of an issue it returned: `version` (the
 * major of the image), `wal` (wal_level, max_wal_senders, wal_log_hints, min/max_wal_size),
 * `synchronous` (the new and the legacy synchronous settings) and `parameters` (everything else
 * written in `spec.postgresql.parameters`).
 * @internal
 */
export type ConfigurationTopic = 'version' | 'parameters' | 'wal' | 'synchronous';

/** @internal */
export function configurationTopic(issue: CheckIssue): ConfigurationTopic {
  const path = issue.webhookPath ?? issue.path;
  if (path === 'spec.imageName') return 'version';
  if (path.startsWith('spec.postgresql.synchronous') || path.startsWith('spec.postgresql.syncReplicaElectionConstraint')) return 'synchronous';
  if (WAL_PARAMETERS.some((p) => path === `${PARAMETERS}.${p}`)) return 'wal';
  return 'parameters';
}

const integer = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/** The parameter's path as the webhook writes it; a name that is no identifier is quoted in the JSON path. */
function parameterPaths(key: string): { path: string; webhookPath?: string } {
  // field.NewPath(..., "parameters", key): Path.String() writes an empty child name as `[]`
  // (k8s.io/apimachinery v0.36.3 pkg/util/validation/field/path.go), as the real webhook answers
  const webhookPath = key === '' ? `${PARAMETERS}[]` : `${PARAMETERS}.${key}`;
  return PARAMETER_NAME.test(key) ? { path: webhookPath } : { path: `${PARAMETERS}[${JSON.stringify(key)}]`, webhookPath };
}

function synchronousStyles(cluster: Json): CheckIssue[] {
  const legacy = ['minSyncReplicas', 'maxSyncReplicas'].filter((f) => (integer(dig(cluster, 'spec', f)) ?? 0) > 0);
  if (asObject(dig(cluster, 'spec', 'postgresql', 'synchronous')) === undefined || legacy.length === 0) return [];
  return [
    {
      severity: 'error',
      path: 'spec.postgresql.synchronous',
      message: `the Cluster webhook refuses spec.postgresql.synchronous beside ${legacy.join(' and ')} (${webhookText("Can't have both legacy synchronous replica configuration and new one")})`,
      fix: 'keep spec.postgresql.synchronous and remove minSyncReplicas and maxSyncReplicas (or set them to 0)',
    },
  ];
}

function version(cluster: Json, major: number, context: AdmissionContext): CheckIssue[] {
  if (major >= 13) return [];
  const text = webhookText('Unsupported PostgreSQL version. Versions 13 or newer are supported');
  const fix = 'use an image of PostgreSQL 13 or later, e.g. ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';
  if (asObject(dig(cluster, 'spec', 'imageCatalogRef')) !== undefined) {
    return [
      {
        severity: 'error',
        path: 'spec.imageCatalogRef.major',
        webhookPath: 'spec.imageName',
        message: `the Cluster webhook refuses PostgreSQL ${major} from the image catalog (${text})`,
        fix: 'pick a major of 13 or later from the catalog',
      },
    ];
  }
  const image = asString(dig(cluster, 'spec', 'imageName')) || undefined;
  return [
    {
      severity: 'error',
      path: 'spec.imageName',
      message: image
        ? `the Cluster webhook refuses the image ${describeValue(image)}, PostgreSQL ${major} (${text})`
        : `the Cluster webhook refuses the operator's default image ${describeValue(operatorSettings(context).defaultImageName)}, PostgreSQL ${major} (${text})`,
      fix,
    },
  ];
}

function parameterNames(cluster: Json): CheckIssue[] {
  const out: CheckIssue[] = [];
  const parameters = asObject(dig(cluster, 'spec', 'postgresql', 'parameters')) ?? {};
  const values = stringMap(parameters);
  // The webhook ranges over a Go map, in no fixed order; here the names are judged in sorted order,
  // so that the same Cluster always gives the same findings (the defaulter rebuilds the map first).
  for (const key of Object.keys(parameters).sort()) {
    // The operator's own default, as the defaulter writes it, is a valid name and, when fixed, its
    // one accepted value (operatorParameter): nothing to find. archive_mode depends on the Cluster.
    if (key !== 'archive_mode' && Object.prototype.hasOwnProperty.call(OPERATOR_DEFAULT_PARAMETERS, key) && values[key] === OPERATOR_DEFAULT_PARAMETERS[key])
      continue;
    if (!PARAMETER_NAME.test(key)) {
      out.push({
        severity: 'error',
        ...parameterPaths(key),
        message: `the Cluster webhook refuses the parameter name ${describeValue(key)} (${webhookText('must be a valid PostgreSQL configuration parameter name (a GUC name, optionally namespaced with a single dot)')}): the operator writes each name into postgresql.conf as it is`,
        fix: "use a PostgreSQL setting name, such as 'work_mem' or 'auto_explain.log_min_duration' (letters, digits, '_' and '$', at most one dot)",
      });
      continue;
    }
    const value = values[key];
    if (!isFixedParameter(key) || value === undefined) continue;
    const own = operatorParameter(cluster, key);
    if (own === value) continue;
    const accepted = own === undefined ? '' : ` (the one value that passes is ${describeValue(own)}, which the operator writes itself)`;
    const hint = FIXED_PARAMETER_HINTS[key];
    out.push({
      severity: 'error',
      path: `${PARAMETERS}.${key}`,
      message: `the Cluster webhook refuses ${key}: ${describeValue(value)} (${webhookText("Can't set fixed configuration parameter")}): the operator manages ${key}${accepted}`,
      fix: `remove ${key} from spec.postgresql.parameters${hint ? `; ${hint}` : ''}`,
    });
  }
  return out;
}

function walLevel(cluster: Json): CheckIssue[] {
  const level = operatorParameter(cluster, 'wal_level') ?? '';
  const path = `${PARAMETERS}.wal_level`;
  if (!['logical', 'replica', 'minimal'].includes(level)) {
    return [
      {
        severity: 'error',
        path,
        message: `the Cluster webhook refuses wal_level ${describeValue(level)} (${webhookText('unrecognized `wal_level` value - allowed values: `logical`, `replica`, `minimal`')})`,
        fix: "use 'logical' (the operator's default), 'replica' or 'minimal'",
      },
    ];
  }
  const out: CheckIssue[] = [];
  if (level === 'minimal') {
    const archiveMode = operatorArchiveMode(cluster);
    const reasons = [
      ...(instancesOf(cluster) > 1 ? [`it has ${instancesOf(cluster)} instances, whose replicas stream the WAL`] : []),
      ...(archiveMode !== 'off'
        ? [`WAL archiving is on (archive_mode ${archiveMode}; only the annotation ${SKIP_WAL_ARCHIVING_ANNOTATION}: enabled turns it off)`]
        : []),
      ...(isReplicaCluster(cluster) ? ['it is a replica cluster'] : []),
    ];
    if (reasons.length > 0) {
      out.push({
        severity: 'error',
        path,
        message: `the Cluster webhook refuses wal_level 'minimal' because ${reasons.join(', and ')} (${webhookText("`wal_level` should be set at `logical` or `replica` when `archive_mode` is `on`, '.instances' field is greater than 1, or this is a replica cluster")})`,
        fix: "use wal_level 'replica' or 'logical' (or leave it out for 'logical')",
      });
    }
    const senders = operatorParameter(cluster, 'max_wal_senders');
    if (senders !== '0') {
      out.push({
        severity: 'error',
        path: `${PARAMETERS}.max_wal_senders`,
        message: `the Cluster webhook refuses wal_level 'minimal' with max_wal_senders ${senders === undefined ? 'left out' : describeValue(senders)} (${webhookText('`max_wal_senders` should be set at `0` when `wal_level` is `minimal`')}): PostgreSQL does not start with WAL senders and minimal WAL`,
        fix: "set max_wal_senders: '0' with wal_level 'minimal'",
      });
    }
  }
  return out;
}

function sharedBuffers(parameters: Record<string, string>): CheckIssue[] {
  const value = parameters.shared_buffers;
  if (value === undefined || value === '' || parsePostgresQuantityValue(value) !== undefined) return [];
  return [
    {
      severity: 'error',
      path: `${PARAMETERS}.shared_buffers`,
      message: `the Cluster webhook refuses shared_buffers ${describeValue(value)} (${webhookText('Invalid value for configuration parameter shared_buffers. More info on accepted values format: https://www.postgresql.org/docs/current/config-setting.html#CONFIG-SETTING-NAMES-VALUES')}): it reads a size as megabytes or a number with kB, MB, GB or TB`,
      fix: "write a PostgreSQL size such as '512MB' or '2GB' (the unit ends in B)",
    },
  ];
}

function booleans(cluster: Json, parameters: Record<string, string>): CheckIssue[] {
  const out: CheckIssue[] = [];
  for (const name of ['hot_standby_feedback', 'sync_replication_slots', 'wal_log_hints']) {
    const value = parameters[name];
    if (value === undefined || parsePostgresConfigBoolean(value) !== undefined) continue;
    out.push({
      severity: 'error',
      path: `${PARAMETERS}.${name}`,
      message: `the Cluster webhook refuses ${name} ${describeValue(value)} (${webhookText(`invalid \`${name}\` value. Must be a postgres boolean`)})`,
      fix: "write 'on' or 'off' (PostgreSQL also reads true, false, yes, no, 1 and 0)",
    });
  }
  const hints = parameters.wal_log_hints;
  if (hints !== undefined && parsePostgresConfigBoolean(hints) === false && instancesOf(cluster) > 1) {
    out.push({
      severity: 'error',
      path: `${PARAMETERS}.wal_log_hints`,
      message: `the Cluster webhook refuses wal_log_hints ${describeValue(hints)} with ${instancesOf(cluster)} instances (${webhookText('`wal_log_hints` must be set to `on` when `instances` > 1')}): pg_rewind needs it to bring a former primary back as a replica`,
      fix: "set wal_log_hints: 'on', or leave it out (the operator's default is on)",
    });
  }
  return out;
}

/** The size of the WAL volume as the operator reads it (api/v1 GetSizeOrNil): `size`, else the PVC template's request. */
function walVolumeSize(cluster: Json): QuantityValue | undefined {
  const storage = asObject(dig(cluster, 'spec', 'walStorage'));
  if (storage === undefined) return undefined;
  const size = asString(storage.size);
  if (size !== undefined && size !== '') return parseQuantity(size);
  if (asObject(storage.pvcTemplate) === undefined) return undefined;
  // a template without a storage request reads as a zero quantity
  const request = dig(storage, 'pvcTemplate', 'resources', 'requests', 'storage');
  return request === undefined ? { num: 0n, den: 1n } : parseQuantity(request);
}

/** validateWalSizeConfiguration: min_wal_size (default 80MB) below max_wal_size (default 1GB), both below the WAL volume when set. */
function walSizes(cluster: Json, parameters: Record<string, string>): CheckIssue[] {
  const out: CheckIssue[] = [];
  const read = (name: 'min_wal_size' | 'max_wal_size', fallback: string) => {
    const userSet = parameters[name] !== undefined && parameters[name] !== '';
    const text = userSet ? parameters[name] : fallback;
    const size = parsePostgresQuantityValue(text);
    if (size === undefined) {
      out.push({
        severity: 'error',
        path: `${PARAMETERS}.${name}`,
        message: `the Cluster webhook refuses ${name} ${describeValue(text)} (${webhookText(`Invalid value for configuration parameter ${name}`)}): it reads a size as megabytes or a number with kB, MB, GB or TB`,
        fix: `write a PostgreSQL size such as '${fallback}' (the unit ends in B)`,
      });
    }
    const zero = size === undefined || size.value.num === 0n;
    return { text, userSet, size: zero ? undefined : size };
  };
  const min = read('min_wal_size', '80MB');
  const max = read('max_wal_size', '1GB');
  if (min.size && max.size && compareQuantities(min.size.value, max.size.value) >= 0) {
    out.push({
      severity: 'error',
      path: `${PARAMETERS}.min_wal_size`,
      message: `the Cluster webhook refuses min_wal_size ${describeValue(min.text)}${min.userSet ? '' : ' (the default)'}, not below max_wal_size ${describeValue(max.text)}${max.userSet ? '' : ' (the default)'} (${webhookText('Invalid vale. Parameter min_wal_size (default 80MB) should be smaller than parameter max_wal_size (default 1GB)')})`,
      fix: 'make min_wal_size smaller than max_wal_size',
    });
  }
  const volume = walVolumeSize(cluster);
  if (volume === undefined) return out;
  for (const [name, side, fallback] of [
    ['min_wal_size', min, '80MB'],
    ['max_wal_size', max, '1GB'],
  ] as const) {
    if (!side.userSet || !side.size || compareQuantities(side.size.value, volume) < 0) continue;
    out.push({
      severity: 'error',
      path: `${PARAMETERS}.${name}`,
      message: `the Cluster webhook refuses ${name} ${describeValue(side.text)} (${side.size.quantity}), not below the WAL volume (spec.walStorage) (${webhookText(`Invalid value. Parameter ${name} (default ${fallback}) should be smaller than WAL volume size`)}): PostgreSQL would fill the volume before recycling WAL`,
      fix: `make ${name} smaller than spec.walStorage's size, or the WAL volume larger`,
    });
  }
  return out;
}

function electionConstraint(cluster: Json): CheckIssue[] {
  const constraint = asObject(dig(cluster, 'spec', 'postgresql', 'syncReplicaElectionConstraint'));
  if (constraint?.enabled !== true || asArray(constraint.nodeLabelsAntiAffinity).length > 0) return [];
  return [
    {
      severity: 'error',
      path: 'spec.postgresql.syncReplicaElectionConstraint.nodeLabelsAntiAffinity',
      message: `the Cluster webhook refuses syncReplicaElectionConstraint enabled without nodeLabelsAntiAffinity (${webhookText("Can't enable syncReplicaConstraints without passing labels for comparison inside nodeLabelsAntiAffinity")})`,
      fix: "list the node labels that must differ between the primary and a synchronous replica, e.g. nodeLabelsAntiAffinity: ['topology.kubernetes.io/zone']",
    },
  ];
}

/** validateConfiguration, in the webhook's order; the rest is skipped when the major cannot be read. */
function configuration(cluster: Json, context: AdmissionContext): CheckIssue[] {
  const out = synchronousStyles(cluster);
  const major = postgresMajor(cluster, context);
  if (major === undefined) return out;
  // the user's parameters with string values (the CRD refuses others)
  const parameters = stringMap(dig(cluster, 'spec', 'postgresql', 'parameters'));
  return [
    ...out,
    ...version(cluster, major, context),
    ...parameterNames(cluster),
    ...walLevel(cluster),
    ...sharedBuffers(parameters),
    ...booleans(cluster, parameters),
    ...walSizes(cluster, parameters),
    ...electionConstraint(cluster),
  ];
}

/** The PostgreSQL configuration check. @internal */
export const CLUSTER_PARAMETER_CHECKS: readonly AdmissionCheck[] = [{ kind: 'Cluster', upstream: 'validateConfiguration', check: configuration }];
