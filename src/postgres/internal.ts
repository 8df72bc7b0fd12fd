import { ApiObject, ApiObjectMetadata, Chart } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { isRefusedExternalClusterName } from '../checks/cluster-references';
import { refuseUnknownKeys, declaredKeys } from '../common/keys';
import { validateMetadata } from '../common/metadata';
import { validateJson } from '../common/plain-json';
import { claimName } from '../common/stable-names';
import { pluginNameProblem, validateStringMap } from '../common/validate';
import { ErrorScope, describeValue, invalid, refuseProblem, wrongType } from '../manifests/errors';
import { isDnsSubdomain } from '../manifests/k8s-names';
import { IPlugin } from '../plugins/plugin';
import { addChecks, addSchemaGuard } from '../schema/guard';
import type { SecretKeyReference } from './secret-key-reference';

/**
 * An options object as the user wrote it: refused unless it is an object whose keys are all
 * declared (the nearest declared key is suggested for a misspelt one), then returned typed.
 * `undefined` stays `undefined`, for optional options.
 * @internal
 */
export function ownKeys<T>(scope: ErrorScope, prop: string, value: T | undefined, keys: readonly string[]): T | undefined {
  return propsOf(scope, prop, value, keys, true);
}

/**
 * A required props object: like `ownKeys`, but `undefined` is refused too; `required` are the
 * keys named in the fix when it is not an object.
 * @internal
 */
export function propsOf<T>(scope: ErrorScope, prop: string, value: T, keys: readonly string[], optional = false, required?: readonly string[]): T {
  refuseUnknownKeys(scope, prop, value, keys, { optional, required });
  return value;
}

/**
 * Refuses values written as given that are not plain JSON (a Date, a Duration, a function):
 * cdk8s cannot render them and would fail with its own error at synth. Their shape is then the
 * schema guard's to judge. Returns the values.
 * @internal
 */
export function plainJson<T extends Record<string, unknown>>(scope: ErrorScope, values: T): T {
  for (const [prop, value] of Object.entries(values)) if (value !== undefined) validateJson(scope, prop, value);
  return values;
}

/**
 * A value of one of the union-like classes (`ClusterImage`, `ClusterBootstrap`, `BackupSchedule`,
 * `ExternalClusterSource`, `ObjectStoreCredentials`): refused unless it was made by the class's
 * static factories. `undefined` passes when `optional`.
 * @internal
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- the classes have private constructors
export function classOf<T>(scope: ErrorScope, prop: string, value: T, cls: Function, optional = false): T {
  if (!(value instanceof cls) && !(optional && value === undefined)) {
    invalid(
      scope,
      prop,
      value,
      wrongType(`${/^[AEIOU]/.test(cls.name) ? 'an' : 'a'} ${cls.name}`, value),
      `use ${FACTORY_EXAMPLES[cls.name] ?? `a static factory of ${cls.name}`}`,
    );
  }
  return value;
}

const FACTORY_EXAMPLES: Record<string, string> = {
  ClusterImage: "ClusterImage.fromName('ghcr.io/cloudnative-pg/postgresql:17.5') or ClusterImage.fromCatalog({ name, major })",
  ClusterBootstrap: 'ClusterBootstrap.initdb(), ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName }) or ClusterBootstrap.fromSpec({ ... })',
  BackupSchedule: "BackupSchedule.daily(2), BackupSchedule.cron({ hour: '2' }) or BackupSchedule.expression('0 0 2 * * *')",
  ExternalClusterSource:
    'ExternalClusterSource.fromPlugin(plugin), ExternalClusterSource.fromConnection({ connectionParameters }) or ExternalClusterSource.fromBarmanObjectStore({ ... })',
  ObjectStoreCredentials: 'a factory such as ObjectStoreCredentials.s3AccessKeys({ accessKeyId, secretAccessKey }) or ObjectStoreCredentials.s3IamRole()',
};

/**
 * The name of an `IPlugin`. Only the interface is taken: a plain string or any other value is
 * refused with the two ways to make one.
 * @internal
 */
export function pluginNameOf(scope: ErrorScope, prop: string, plugin: unknown): string {
  const isPlugin = plugin !== null && typeof plugin === 'object' && 'pluginName' in plugin;
  refuseProblem(
    scope,
    isPlugin
      ? pluginNameProblem(`${prop}.pluginName`, (plugin as IPlugin).pluginName)
      : {
          prop,
          value: plugin,
          problem: wrongType('an IPlugin', plugin),
          fix: "pass a plugin construct, or Plugin.fromPluginName('backup.example.com') for a plugin installed elsewhere",
        },
  );
  return (plugin as IPlugin).pluginName;
}

/**
 * Plugin parameters (a map of string to string). Checked here, not left to the schema guard,
 * because the generated bindings rebuild the map with `Object.entries`, which turns a number or
 * a string given as the whole map into `{}` or a map of characters before the schema sees it.
 * @internal
 */
export function parametersOf(scope: ErrorScope, prop: string, value: unknown): Record<string, string> | undefined {
  return value === undefined ? undefined : { ...validateStringMap(scope, prop, value) };
}

/**
 * Refuses an external cluster name that the operator uses as a path component: the Cluster
 * webhook refuses '.', '..', '/' and '\\' in it (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateExternalClusters; CNPGI100).
 * @internal
 */
export function externalClusterNameOf(scope: ErrorScope, prop: string, name: unknown): string {
  if (typeof name !== 'string' || name === '' || isRefusedExternalClusterName(name)) {
    invalid(
      scope,
      prop,
      name,
      typeof name === 'string' && name !== ''
        ? "is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it"
        : wrongType('a non-empty string', name),
      "use a plain name such as 'origin'",
    );
  }
  return name;
}

/**
 * What a Backup or ScheduledBackup can learn about the Cluster it names, when that Cluster is a
 * `PostgresCluster` of this program (registered by its constructor).
 * @internal
 */
export interface ClusterBinding {
  /** The construct, for messages. */
  readonly construct: IConstruct;
  /** The Cluster object a backup must follow in the output. */
  readonly apiObject: ApiObject;
  /** The plugins the Cluster uses, at the time of the call. */
  readonly plugins: () => ReadonlyArray<{ readonly pluginName: string; readonly enabled: boolean }>;
}

const BINDINGS = new WeakMap<object, ClusterBinding>();

/** @internal */
export function bindCluster(cluster: object, binding: ClusterBinding): void {
  BINDINGS.set(cluster, binding);
}

/** @internal */
export function clusterBinding(cluster: object): ClusterBinding | undefined {
  return BINDINGS.get(cluster);
}

/**
 * The check, run at synth, that a backup goes through a plugin its Cluster enables (plugins may
 * be added after the backup).
 * @internal
 */
export function checkBackupPlugin(scope: ErrorScope, binding: ClusterBinding, clusterName: string, pluginName: string): void {
  const entry = binding.plugins().find((p) => p.pluginName === pluginName);
  if (entry === undefined || !entry.enabled) {
    invalid(
      scope,
      'plugin',
      pluginName,
      entry === undefined ? `is not among the plugins of Cluster '${clusterName}'` : `is disabled (enabled: false) on Cluster '${clusterName}'`,
      `enable it with addPlugin(${describeValue(pluginName)}) on ${binding.construct.node.path}, or back up through a plugin the Cluster enables`,
    );
  }
}

/**
 * Where a Backup or ScheduledBackup goes: its Cluster's name and namespace, the namespace it
 * must be written in, and the binding of a `PostgresCluster` of this program. A backup object
 * in another namespace than its Cluster's is refused: CloudNativePG backs up only a Cluster of
 * the same namespace.
 * @internal
 */
export function resolveBackupCluster(
  scope: Construct,
  cluster: unknown,
  metadataNamespace: string | undefined,
): { readonly name: string; readonly namespace: string | undefined; readonly binding?: ClusterBinding } {
  const isCluster = cluster !== null && typeof cluster === 'object' && typeof (cluster as { name?: unknown }).name === 'string';
  const { name, namespace: clusterNamespace } = (isCluster ? cluster : {}) as { name: string; namespace?: string };
  const binding = isCluster ? clusterBinding(cluster) : undefined;
  const namespace = isCluster ? (metadataNamespace ?? clusterNamespace ?? Chart.of(scope).namespace) : undefined;
  refuseProblem(
    scope,
    !isCluster
      ? {
          prop: 'cluster',
          value: cluster,
          problem: wrongType('an IPostgresCluster', cluster),
          fix: "pass the PostgresCluster construct, or PostgresCluster.fromClusterName('pg') for a Cluster managed elsewhere",
        }
      : (binding !== undefined || clusterNamespace !== undefined) && namespace !== clusterNamespace
        ? {
            prop: 'metadata.namespace',
            value: namespace,
            problem: `differs from the namespace of Cluster '${name}' (${clusterNamespace === undefined ? 'none: its chart sets no namespace' : describeValue(clusterNamespace)})`,
            fix: 'CloudNativePG only backs up a Cluster of the same namespace: use cluster.addBackup() / addScheduledBackup(), or a chart with the same namespace',
          }
        : undefined,
  );
  return { name, namespace, binding };
}

const SECRET_KEY_REFERENCE_KEYS = declaredKeys<SecretKeyReference>({ name: true, key: true });
const SECRET_DATA_KEY = /^[-._a-zA-Z0-9]{1,253}$/;

/**
 * Checks a Secret key reference: the CRDs type both fields as plain strings, but the Secret can
 * only exist with a subdomain name and a data key of at most 253 of `[-._a-zA-Z0-9]`, not `.`
 * and not starting with `..` (kubernetes v1.32.13 pkg/apis/core/validation/validation.go
 * ValidateSecret, through apimachinery pkg/util/validation IsConfigMapKey), so anything else
 * never resolves.
 * @internal
 */
export function secretKeyReferenceOf(scope: ErrorScope, prop: string, value: unknown): SecretKeyReference | undefined {
  if (value === undefined) return undefined;
  const { name, key } = propsOf(scope, prop, value as SecretKeyReference, SECRET_KEY_REFERENCE_KEYS, false, ['name', 'key']);
  const bad =
    typeof name !== 'string' || !isDnsSubdomain(name)
      ? ['name', name, 'is not a Secret name (an RFC 1123 subdomain)']
      : typeof key !== 'string' || !SECRET_DATA_KEY.test(key) || key === '.' || key.startsWith('..')
        ? ['key', key, "is not a Secret data key (letters, digits, -, _ and ., not '.' nor starting with '..')"]
        : undefined;
  if (bad) invalid(scope, `${prop}.${bad[0]}`, bad[1], bad[2] as string, "pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }");
  return { name, key };
}

/** The fields of `ApiObjectMetadata` a construct of this area writes. @internal */
export const METADATA_KEYS = declaredKeys<ApiObjectMetadata>({
  name: true,
  namespace: true,
  labels: true,
  annotations: true,
  finalizers: true,
  ownerReferences: true,
});

/**
 * The `metadata` prop of a construct that writes one object: declared keys only, and values
 * cdk8s can render (a string as `labels` would be spread into a map of characters); `{}` when
 * not given. Names, label and annotation keys, finalizers and owner references are judged again
 * by the schema guard at synth.
 * @internal
 */
export function metadataOf(scope: ErrorScope, value: ApiObjectMetadata | undefined): ApiObjectMetadata {
  const given = ownKeys(scope, 'metadata', value, METADATA_KEYS);
  return given === undefined ? {} : validateMetadata(scope, 'metadata', given as Record<string, unknown>);
}

/**
 * The synth-time validations of a construct that writes `apiObject` as a `kind` object: the
 * schema guard, then one validation that refuses a second object of the same kind, namespace
 * and name in the app (one would silently replace the other) and runs `check`.
 * @internal
 */
export function guardAndCheck(construct: Construct, kind: string, apiObject: ApiObject, check: () => void = () => undefined): void {
  addSchemaGuard(construct, apiObject);
  const unique = claimName(construct, kind, apiObject.metadata.namespace, apiObject.name);
  addChecks(construct, () => {
    unique();
    check();
  });
}
