/*
 * What only the Postgres constructs share: the kinds of a plugin reference, an external cluster
 * name and a Secret key reference, the binding of a Cluster to its backups, and the synth-time
 * checks of the objects they write. Their props are checked with the construct toolkit
 * (src/common/props.ts).
 */
import { ApiObject, Chart } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { isRefusedExternalClusterName } from '../checks/admission/cluster-references';
import { ArchiveIndex, checkBackupWalArchive } from '../checks/wal-archive';
import { Kind } from '../common/prop-kinds';
import { PropKind, PropSpec } from '../common/props';
import { claimName } from '../common/stable-names';
import { pluginNameProblem } from '../common/validate';
import { ErrorScope, describeValue, invalid, wrongType } from '../manifests/errors';
import { Json } from '../manifests/json';
import { isDnsSubdomain } from '../manifests/k8s-names';
import { nearestName } from '../manifests/nearest-name';
import { IPlugin } from '../plugins/plugin';
import { addChecks, addSchemaGuard, currentSynthCall, synthJson } from '../schema/guard';
import type { IPostgresCluster } from './cluster-reference';
import type { IObjectStore } from './object-store-link';
import type { SecretKeyReference } from './secret-key-reference';

/**
 * An `IPlugin`, whose name must be a plugin name. Only the interface is taken: a plain string or
 * any other value is refused with the two ways to make one. Refuses a missing plugin too.
 * @internal
 */
export const PLUGIN_KIND: PropKind = Kind.evenMissing((_s, prop, plugin) =>
  plugin !== null && typeof plugin === 'object' && 'pluginName' in plugin
    ? pluginNameProblem(`${prop}.pluginName`, (plugin as IPlugin).pluginName)
    : {
        prop,
        value: plugin,
        problem: wrongType('an IPlugin', plugin),
        fix: "pass a plugin construct, or Plugin.fromPluginName('backup.example.com') for a plugin installed elsewhere",
      },
);

/**
 * An external cluster name, which the operator uses as a path component: the Cluster webhook
 * refuses '.', '..', '/' and '\\' in it (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateExternalClusters; CNPGI100). Refuses a missing
 * name too.
 * @internal
 */
export const EXTERNAL_CLUSTER_NAME_KIND: PropKind = Kind.evenMissing((_s, prop, name) =>
  typeof name !== 'string' || name === '' || isRefusedExternalClusterName(name)
    ? {
        prop,
        value: name,
        problem:
          typeof name === 'string' && name !== ''
            ? "is used as a path component, and the Cluster webhook refuses '.', '..', '/' and '\\' in it"
            : wrongType('a non-empty string', name),
        fix: "use a plain name such as 'origin'",
      }
    : undefined,
);

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
  readonly plugins: () => ReadonlyArray<{
    readonly pluginName: string;
    readonly enabled: boolean;
    readonly isWalArchiver: boolean;
    readonly parameters?: Record<string, string>;
    /** The store linked with the `objectStore` option, if any. */
    readonly objectStore?: IObjectStore;
  }>;
  /** The Cluster as written, at the time of the call (rendered once per set of additions). */
  readonly json: () => Json;
  /**
   * Adds the external cluster `name` with `spec` (a Subscription's publisher) unless the Cluster
   * has it already: `same` when the entry it has is this one, `different` when another.
   */
  readonly deriveExternalCluster: (name: string, spec: Readonly<Record<string, unknown>>) => 'added' | 'same' | 'different';
}

const BINDINGS = new WeakMap<object, ClusterBinding>();
// The Clusters of each construct tree (the root is the App, or the chart in tests), for the
// checks that compare a Cluster with the others of the app (where they archive).
const APP_CLUSTERS = new WeakMap<IConstruct, ClusterBinding[]>();

/** @internal */
export function bindCluster(cluster: object, binding: ClusterBinding): void {
  BINDINGS.set(cluster, binding);
  const root = binding.construct.node.root;
  // Appended in place: copying the list at each Cluster made building an app of n Clusters take n squared steps.
  const clusters = APP_CLUSTERS.get(root);
  if (clusters === undefined) APP_CLUSTERS.set(root, [binding]);
  else clusters.push(binding);
}

const APP_ARCHIVES = new WeakMap<IConstruct, { readonly call: object; readonly archives: AppArchives }>();

/** The PostgresClusters of an app by where they archive, and the JSON of each. @internal */
export interface AppArchives {
  readonly index: ArchiveIndex;
  readonly json: ReadonlyMap<IConstruct, Json>;
}

/**
 * The `PostgresCluster`s of `scope`'s app as written, indexed by where they archive: read once
 * per `App.synth()` call (every Cluster's check shares them, so an app of n Clusters is read n
 * times, not n squared), and afresh at every validation otherwise.
 * @internal
 */
export function appArchives(scope: IConstruct): AppArchives {
  const root = scope.node.root;
  const call = currentSynthCall(root);
  const cached = APP_ARCHIVES.get(root);
  if (call !== undefined && cached?.call === call) return cached.archives;
  const json = new Map((APP_CLUSTERS.get(root) ?? []).map((b) => [b.construct, b.json()] as const));
  const stores = appObjectStores(root);
  const archives = { index: new ArchiveIndex([...json.values()], { lookup: (namespace, name) => stores.get(`${namespace ?? ''}\u0000${name}`) }), json };
  if (call !== undefined) APP_ARCHIVES.set(root, { call, archives });
  return archives;
}

/**
 * The Barman Cloud ObjectStores the app writes (any construct writing a `barmancloud.cnpg.io`
 * ObjectStore), by namespace and name, as written: the archive checks compare their
 * destinationPath, so two ObjectStores on one path are one archive. One whose JSON cannot be
 * written is left out (its own validation reports it).
 */
function appObjectStores(root: IConstruct): Map<string, Json> {
  const stores = new Map<string, Json>();
  for (const c of root.node.findAll()) {
    if (!(c instanceof ApiObject) || c.kind !== 'ObjectStore' || !c.apiVersion.startsWith('barmancloud.cnpg.io/')) continue;
    try {
      stores.set(`${c.metadata.namespace ?? ''}\u0000${c.name}`, synthJson(c) as Json);
    } catch {
      continue;
    }
  }
  return stores;
}

/**
 * The check, run at synth, that a backup of a `PostgresCluster` of this program can be restored:
 * what the doctor's CNPGI120 reports as an error (the Cluster archives no WAL), with the same
 * check (src/checks/wal-archive.ts).
 * @internal
 */
export function checkBackupArchive(scope: ErrorScope, binding: ClusterBinding, clusterName: string, pluginName: string): void {
  const cluster = appArchives(binding.construct).json.get(binding.construct) ?? binding.json();
  const backup = { spec: { method: 'plugin', pluginConfiguration: { name: pluginName } } };
  const issue = checkBackupWalArchive(backup, cluster).find((i) => i.severity === 'error');
  if (issue) invalid(scope, 'cluster', clusterName, issue.message, `${issue.fix} (${binding.construct.node.path}, metadata.annotations)`);
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
 * The Cluster a Backup or ScheduledBackup backs up: an `IPostgresCluster` (a name, and maybe a
 * namespace). Refuses a missing one too.
 * @internal
 */
export const POSTGRES_CLUSTER_KIND: PropKind = Kind.evenMissing(
  Kind.instance(
    (v) => v !== null && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string',
    'an IPostgresCluster',
    "pass the PostgresCluster construct, or PostgresCluster.fromClusterName('pg') for a Cluster managed elsewhere",
  ),
);

// The by-name references declared external (PostgresCluster.fromClusterName(name, { external: true })).
const EXTERNAL_REFERENCES = new WeakSet<object>();

/** Declares a by-name Cluster reference external: it is not compared with the app's Clusters. @internal */
export function markExternal(reference: object): void {
  EXTERNAL_REFERENCES.add(reference);
}

/**
 * The check, run at synth, of a by-name reference to Cluster `name` in `namespace` that is not
 * declared external: the app knows its Clusters, so a name that is not one of them in that
 * namespace but is a misspelling of one there ({@link nearestName}, the doctor's CNPGI118
 * suggestion) is refused; the operator would look the misspelt Cluster up by name in the
 * object's namespace and wait for it forever (cloudnative-pg v1.30.0
 * internal/controller/backup_controller.go BackupReconciler.getCluster). A name far from every
 * Cluster of the namespace may be managed elsewhere and passes.
 */
function refuseMisspeltCluster(scope: Construct, name: string, namespace: string | undefined): void {
  const here = (APP_CLUSTERS.get(scope.node.root) ?? []).map((b) => b.apiObject).filter((o) => o.metadata.namespace === namespace);
  const names = [...new Set(here.map((o) => o.name))].sort();
  if (names.includes(name)) return;
  const nearest = nearestName(name, names);
  if (nearest === undefined) return;
  const where = namespace === undefined ? 'without a namespace' : `in namespace '${namespace}'`;
  invalid(
    scope,
    'cluster',
    name,
    `names no PostgresCluster of this app ${where}, where the app has Cluster '${nearest}' (did you mean '${nearest}'?): the operator looks the Cluster up by name in this namespace and waits until one exists`,
    `pass the PostgresCluster construct of '${nearest}', or PostgresCluster.fromClusterName('${name}', { external: true }) for a Cluster managed outside this program`,
  );
}

/**
 * Where a Backup or ScheduledBackup of a checked `cluster` goes: its Cluster's name and
 * namespace, the namespace it must be written in, and the binding of a `PostgresCluster` of this
 * program. A backup object in another namespace than its Cluster's is refused: CloudNativePG
 * backs up only a Cluster of the same namespace. Other objects that name their Cluster by a local
 * reference (a Database) pass their own `fix`.
 * @internal
 */
export function resolveBackupCluster(
  scope: Construct,
  cluster: IPostgresCluster,
  metadataNamespace: string | undefined,
  fix = 'CloudNativePG only backs up a Cluster of the same namespace: use cluster.addBackup() / addScheduledBackup(), or a chart with the same namespace',
): { readonly name: string; readonly namespace: string | undefined; readonly binding?: ClusterBinding } {
  const { name, namespace: clusterNamespace } = cluster;
  const binding = clusterBinding(cluster);
  const namespace = metadataNamespace ?? clusterNamespace ?? Chart.of(scope).namespace;
  if ((binding !== undefined || clusterNamespace !== undefined) && namespace !== clusterNamespace) {
    invalid(
      scope,
      'metadata.namespace',
      namespace,
      `differs from the namespace of Cluster '${name}' (${clusterNamespace === undefined ? 'none: its chart sets no namespace' : describeValue(clusterNamespace)})`,
      fix,
    );
  }
  if (binding === undefined && !EXTERNAL_REFERENCES.has(cluster)) addChecks(scope, () => refuseMisspeltCluster(scope, name, namespace));
  return { name, namespace, binding };
}

const SECRET_DATA_KEY = /^[-._a-zA-Z0-9]{1,253}$/;
const SECRET_REFERENCE_FIX = "pass { name: 'backup-credentials', key: 'ACCESS_KEY_ID' }";

const SECRET_KEY_REFERENCE_SPEC: PropSpec<SecretKeyReference> = {
  name: Kind.evenMissing(Kind.test((v) => typeof v === 'string' && isDnsSubdomain(v), 'is not a Secret name (an RFC 1123 subdomain)', SECRET_REFERENCE_FIX)),
  key: Kind.evenMissing(
    Kind.test(
      (v) => typeof v === 'string' && SECRET_DATA_KEY.test(v) && v !== '.' && !v.startsWith('..'),
      "is not a Secret data key (letters, digits, -, _ and ., not '.' nor starting with '..')",
      SECRET_REFERENCE_FIX,
    ),
  ),
};

/**
 * A Secret key reference: the CRDs type both fields as plain strings, but the Secret can only
 * exist with a subdomain name and a data key of at most 253 of `[-._a-zA-Z0-9]`, not `.` and not
 * starting with `..` (kubernetes v1.32.13 pkg/apis/core/validation/validation.go ValidateSecret,
 * through apimachinery pkg/util/validation IsConfigMapKey), so anything else never resolves.
 * @internal
 */
export const SECRET_KEY_REFERENCE_KIND: PropKind = Kind.props(SECRET_KEY_REFERENCE_SPEC, { required: ['name', 'key'] });

/**
 * The reference written for a checked Secret key reference (a copy, without other fields).
 * @internal
 */
export function secretKeyReferenceOf(value: SecretKeyReference | undefined): SecretKeyReference | undefined {
  return value === undefined ? undefined : { name: value.name, key: value.key };
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

// The constructs of each construct tree that manage an object inside PostgreSQL, by kind,
// namespace, Cluster and PostgreSQL name.
const MANAGERS = new WeakMap<IConstruct, Map<string, IConstruct[]>>();

/**
 * Records that `construct` manages the `kind` object `pgName` (a database, a role) of Cluster
 * `clusterName`, and returns the synth-time check that refuses a second construct of the app
 * managing the same one: the operator reconciles the first object and marks the others as failed
 * (cloudnative-pg v1.30.0 internal/management/controller/common.go detectConflictingManagers).
 * `prop` is the prop the user wrote the name with.
 * @internal
 */
export function claimManaged(
  construct: IConstruct,
  kind: string,
  namespace: string | undefined,
  clusterName: string,
  pgName: string,
  prop: string,
): () => void {
  const root = construct.node.root;
  const managers = MANAGERS.get(root) ?? new Map<string, IConstruct[]>();
  MANAGERS.set(root, managers);
  const key = `${kind}\u0000${namespace ?? ''}\u0000${clusterName}\u0000${pgName}`;
  managers.set(key, [...(managers.get(key) ?? []), construct]);
  return () => {
    const first = managers.get(key)?.[0];
    if (first === undefined || first === construct) return;
    invalid(
      construct,
      prop,
      pgName,
      `is also managed by the ${kind} of ${first.node.path} in Cluster '${clusterName}': the operator reconciles one ${kind} object per name and marks the other as failed`,
      `manage ${describeValue(pgName)} from one ${kind} construct`,
    );
  };
}
