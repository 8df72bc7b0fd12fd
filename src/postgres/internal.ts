import { ApiObject, Chart, Size, SizeRoundingBehavior } from 'cdk8s';
import { Construct } from 'constructs';
import { ErrorScope, describeValue, invalid } from '../common/errors';
import { validateJson } from '../common/metadata';
import { isDns1035Label, isRefusedExternalClusterName, typeName, validatePluginName, validateStringMap } from '../common/validate';
import { IPlugin } from '../plugins/plugin';
import type { PostgresCluster } from './postgres-cluster';

/**
 * Reads the name of a plugin given as an `IPlugin` or as a plain name, checking either form, so
 * that `Plugin.fromPluginName('x.example.com')` and `'x.example.com'` render the same.
 * @internal
 */
export function pluginNameOf(scope: ErrorScope, prop: string, plugin: unknown): string {
  if (typeof plugin === 'string') {
    return validatePluginName(scope, prop, plugin);
  }
  if (plugin !== null && typeof plugin === 'object' && 'pluginName' in plugin) {
    return validatePluginName(scope, `${prop}.pluginName`, (plugin as IPlugin).pluginName);
  }
  return invalid(scope, prop, plugin, `must be a plugin or a plugin name, not ${typeName(plugin)}`,
    "pass a plugin construct, Plugin.fromPluginName('backup.example.com') or 'backup.example.com'");
}

/**
 * Checks optional plugin parameters: CNPG-I parameters are a map of string to string, so numbers
 * and booleans from JavaScript callers are rejected with the key in the message rather than
 * rendered as YAML numbers that the API server refuses.
 * @internal
 */
export function optionalParameters(scope: ErrorScope, prop: string, value: unknown): Record<string, string> | undefined {
  return value === undefined ? undefined : validateStringMap(scope, prop, value);
}

/** @internal */
export function optionalBoolean(scope: ErrorScope, prop: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') {
    invalid(scope, prop, value, `must be a boolean, not ${typeName(value)}`, 'pass true or false');
  }
  return value as boolean | undefined;
}

/** @internal */
export function optionalString(scope: ErrorScope, prop: string, value: unknown, fix: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    invalid(scope, prop, value, `must be a string, not ${typeName(value)}`, fix);
  }
  if (value.trim() === '') invalid(scope, prop, value, 'must not be empty', fix);
  return value;
}

/** @internal */
export function optionalEnum<T extends string>(scope: ErrorScope, prop: string, value: unknown, values: Record<string, T>, enumName: string): T | undefined {
  if (value === undefined) return undefined;
  const allowed = Object.values(values);
  if (typeof value !== 'string' || !(allowed as string[]).includes(value)) {
    invalid(scope, prop, value, `is not a ${enumName}`, `use one of ${Object.keys(values).map((k) => `${enumName}.${k}`).join(', ')}`);
  }
  return value as T;
}

/**
 * An object written as is into the manifest (a typed passthrough): an object of plain JSON.
 * @internal
 */
export function requireJsonObject<T = Record<string, unknown>>(scope: ErrorScope, prop: string, value: unknown, fix: string): T {
  const o = requireObject<T>(scope, prop, value, fix);
  validateJson(scope, prop, o);
  return o;
}

/** @internal */
export function requireObject<T = Record<string, unknown>>(scope: ErrorScope, prop: string, value: unknown, fix: string): T {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(scope, prop, value, `must be an object, not ${typeName(value)}`, fix);
  }
  return value as T;
}

const BINARY_UNITS: Array<[string, (s: Size) => number]> = [
  ['Pi', (s) => s.toPebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Ti', (s) => s.toTebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Gi', (s) => s.toGibibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Mi', (s) => s.toMebibytes({ rounding: SizeRoundingBehavior.NONE })],
  ['Ki', (s) => s.toKibibytes({ rounding: SizeRoundingBehavior.NONE })],
];

/**
 * Renders a `cdk8s.Size` as a Kubernetes quantity in the largest binary unit that keeps it a
 * whole number (`Size.gibibytes(10)` -> `10Gi`, `Size.mebibytes(1536)` -> `1536Mi`), so the
 * manifest reads the way the user wrote it.
 * @internal
 */
export function sizeToQuantity(scope: ErrorScope, prop: string, size: unknown): string {
  // Duck-typed so that a second copy of cdk8s in node_modules still works.
  if (size === null || typeof size !== 'object' || typeof (size as Size).toKibibytes !== 'function') {
    invalid(scope, prop, size, `must be a cdk8s Size, not ${typeName(size)}`, 'use Size.gibibytes(10) or another Size factory');
  }
  for (const [unit, convert] of BINARY_UNITS) {
    const amount = convert(size as Size);
    if (Number.isInteger(amount) && amount > 0) return `${amount}${unit}`;
  }
  return invalid(scope, prop, `${(size as Size).toKibibytes({ rounding: SizeRoundingBehavior.NONE })}Ki`,
    'is not a positive whole number of kibibytes', 'use a size of at least Size.kibibytes(1), such as Size.gibibytes(10)');
}

/**
 * Marks `PostgresCluster` instances, so backups can recognise one without importing the class
 * (which imports them) and across copies of this library.
 * @internal
 */
export const POSTGRES_CLUSTER_BRAND = Symbol.for('cdk8s-cnpg-i.PostgresCluster');

/**
 * What a Backup or ScheduledBackup needs to know about its Cluster.
 * @internal
 */
export interface BackupClusterBinding {
  readonly clusterName: string;
  /** The namespace the backup object must be written in; undefined follows the chart. */
  readonly namespace: string | undefined;
  /** Throws unless the Cluster enables the plugin; run at synth, as plugins may come later. */
  readonly check: () => void;
  /**
   * The Cluster object the backup object must follow in the output: CloudNativePG fails a
   * Backup whose Cluster does not exist yet, for good, since a Backup runs only once.
   */
  readonly clusterObject?: ApiObject;
}

/**
 * Resolves the `cluster` prop of a backup: a `PostgresCluster` (checked: same namespace, plugin
 * enabled) or the name of a Cluster managed elsewhere (not checkable).
 * @internal
 */
export function bindBackupCluster(scope: Construct, cluster: unknown, pluginName: string, metadataNamespace: unknown): BackupClusterBinding {
  const ns = optionalString(scope, 'metadata.namespace', metadataNamespace, 'name a namespace');
  if (typeof cluster === 'string') {
    if (!isDns1035Label(cluster) || cluster.length > 50) {
      invalid(scope, 'cluster', cluster, 'is not a valid Cluster name (a DNS-1035 label of at most 50 characters)',
        'pass the PostgresCluster construct or the metadata.name of the Cluster');
    }
    return { clusterName: cluster, namespace: ns, check: () => undefined };
  }
  if (cluster === null || typeof cluster !== 'object' || (cluster as Record<symbol, unknown>)[POSTGRES_CLUSTER_BRAND] !== true) {
    return invalid(scope, 'cluster', cluster, `must be a PostgresCluster or a Cluster name, not ${typeName(cluster)}`,
      'pass the PostgresCluster construct, or the name of a Cluster managed elsewhere');
  }
  const pg = cluster as PostgresCluster;
  const clusterNamespace = pg.namespace;
  const namespace = ns ?? clusterNamespace ?? Chart.of(scope).namespace;
  if (namespace !== clusterNamespace) {
    invalid(scope, 'metadata.namespace', namespace, `differs from the namespace of Cluster '${pg.name}' (${describeValue(clusterNamespace)})`,
      'CloudNativePG only backs up a Cluster of the same namespace: use cluster.addBackup() / addScheduledBackup(), or a chart with the same namespace');
  }
  return {
    clusterName: pg.name,
    namespace: clusterNamespace,
    clusterObject: pg.apiObject,
    check: () => {
      const entry = pg.plugins.find((p) => p.pluginName === pluginName);
      if (entry === undefined) {
        invalid(scope, 'plugin', pluginName, `is not among the plugins of Cluster '${pg.name}'`,
          `call addPlugin(${describeValue(pluginName)}) on ${pg.node.path}, or back up through a plugin it uses`);
      }
      if (!entry.enabled) {
        invalid(scope, 'plugin', pluginName, `is disabled (enabled: false) on Cluster '${pg.name}'`,
          'enable it in addPlugin(), or back up through a plugin the Cluster enables');
      }
    },
  };
}

/**
 * Makes `Base` under `scope` and runs `check` before every rendering of it. The checks are not a
 * construct validation (`node.addValidation`) because cdk8s folds those into one plain `Error`,
 * and not inside a lazy value because `ApiObject.toJson` rewraps what it throws; thrown here, a
 * `CnpgIValidationError` reaches the caller of `App.synth()`, `App.synthYaml()` and
 * `Testing.synth()` unchanged.
 * @internal
 */
export function checkedApiObject<P, T extends ApiObject>(
  Base: new (scope: Construct, id: string, props: P) => T, scope: Construct, id: string, props: P, check: () => void,
): T {
  const obj = new Base(scope, id, props);
  const render = obj.toJson.bind(obj);
  obj.toJson = () => {
    check();
    return render();
  };
  return obj;
}

/**
 * Refuses an external cluster name that the operator cannot use as a path component: the
 * Cluster webhook refuses '.', '..', '/' and '\\' in it (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateExternalClusters; CNPGI100).
 * @internal
 */
export function checkExternalClusterName(scope: ErrorScope, prop: string, name: string): void {
  if (isRefusedExternalClusterName(name)) {
    invalid(scope, prop, name, "is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it", "use a plain name such as 'origin'");
  }
}
