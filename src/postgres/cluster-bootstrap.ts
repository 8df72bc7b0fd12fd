import { Duration } from 'cdk8s';
import {
  ClusterSpecBootstrap as CnpgClusterSpecBootstrap,
  ClusterSpecBootstrapInitdb,
  ClusterSpecBootstrapRecovery,
  ClusterSpecReplica as CnpgClusterSpecReplica,
} from '../../imports/postgresql.cnpg.io';
import { Kind } from '../common/prop-kinds';
import { PropKind, PropSpec, checkProps, checkValue } from '../common/props';
import { renderDuration } from '../common/render';
import { describeValue, invalid, wrongType } from '../manifests/errors';
import { IPlugin } from '../plugins/plugin';
import { IPostgresCluster } from './cluster-reference';
import { ExternalClusterConnection, ExternalClusterSource } from './external-cluster-source';
import { EXTERNAL_CLUSTER_NAME_KIND, clusterBinding } from './internal';
import type { IObjectStore } from './object-store-link';
import { RecoveryTarget, checkCatalogRecoveryTarget } from './recovery-target';

/**
 * Options of `ClusterBootstrap.recoveryFromPlugin()`.
 */
export interface RecoveryFromPluginOptions {
  /**
   * The name of the external cluster that describes the backups to recover from. The Cluster
   * gets an `externalClusters[]` entry of this name whose `plugin` is the given plugin, and
   * `spec.bootstrap.recovery.source` names it. It must not collide with another external cluster.
   */
  readonly sourceName: string;

  /**
   * Parameters for the plugin, e.g. Barman Cloud's `serverName` (the name the origin Cluster
   * archived under). Strings only.
   * @default - no parameters
   */
  readonly parameters?: Record<string, string>;

  /**
   * The object store holding the backups, such as a Barman Cloud `ObjectStore`.
   *
   * The parameters that point the plugin at it (`IObjectStore.clusterParameters()`) are added to
   * `parameters`. It must be in the recovering Cluster's namespace.
   * @default - none: name it in `parameters` if the plugin needs one
   */
  readonly objectStore?: IObjectStore;

  /**
   * The application database to configure after the recovery (`recovery.database`).
   * @default - not written; CloudNativePG uses `app`
   */
  readonly database?: string;

  /**
   * The owner of the application database (`recovery.owner`).
   * @default - not written; CloudNativePG uses the database name
   */
  readonly owner?: string;

  /**
   * The name of a `kubernetes.io/basic-auth` Secret with the owner's credentials
   * (`recovery.secret.name`).
   * @default - not written; CloudNativePG generates `<cluster>-app`
   */
  readonly secretName?: string;

  /**
   * Where the recovery stops (`recoveryTarget`): `RecoveryTarget.time(date)`, `.lsn('0/3000060')`,
   * `.xid(n, { backupId })`, `.restorePoint(name, { backupId })`, `.immediate({ backupId })`.
   * @default - not written: full recovery to the end of the archived WAL
   */
  readonly recoveryTarget?: RecoveryTarget;
}

const RECOVERY_SPEC: PropSpec<RecoveryFromPluginOptions> = {
  sourceName: EXTERNAL_CLUSTER_NAME_KIND,
  // Judged by ExternalClusterSource.fromPlugin.
  parameters: Kind.any,
  objectStore: Kind.any,
  // Written as given; the schema guard judges them at synth.
  database: Kind.any,
  owner: Kind.any,
  secretName: Kind.any,
  // Judged by checkCatalogRecoveryTarget.
  recoveryTarget: Kind.any,
};

/**
 * Options of `ClusterBootstrap.recoveryFromCluster()`.
 */
export interface RecoveryFromClusterOptions {
  /**
   * The name of the external cluster that describes the source's archive. It must not collide
   * with another external cluster of the recovering Cluster.
   * @default - the source Cluster's name
   */
  readonly sourceName?: string;

  /**
   * The application database to configure after the recovery (`recovery.database`).
   * @default - not written; CloudNativePG uses `app`
   */
  readonly database?: string;

  /**
   * The owner of the application database (`recovery.owner`).
   * @default - not written; CloudNativePG uses the database name
   */
  readonly owner?: string;

  /**
   * The name of a `kubernetes.io/basic-auth` Secret with the owner's credentials
   * (`recovery.secret.name`).
   * @default - not written; CloudNativePG generates `<cluster>-app`
   */
  readonly secretName?: string;

  /**
   * Where the recovery stops (`recoveryTarget`): `RecoveryTarget.time(date)`, `.lsn('0/3000060')`,
   * `.xid(n, { backupId })`, `.restorePoint(name, { backupId })`, `.immediate({ backupId })`.
   * @default - not written: full recovery to the end of the archived WAL
   */
  readonly recoveryTarget?: RecoveryTarget;
}

/** An external cluster name that may be left out (then the source Cluster's name). */
const OPTIONAL_SOURCE_NAME: PropKind = (s, p, v) => (v === undefined ? undefined : EXTERNAL_CLUSTER_NAME_KIND(s, p, v));

const FROM_CLUSTER_SPEC: PropSpec<RecoveryFromClusterOptions> = {
  sourceName: OPTIONAL_SOURCE_NAME,
  // Written as given; the schema guard judges them at synth.
  database: Kind.any,
  owner: Kind.any,
  secretName: Kind.any,
  // Judged by checkCatalogRecoveryTarget.
  recoveryTarget: Kind.any,
};

/**
 * Options of `ClusterBootstrap.replicaOfCluster()`.
 */
export interface ReplicaOfClusterOptions {
  /**
   * The name of the external cluster that describes the source's archive (`replica.source` and
   * `bootstrap.recovery.source`). It must not collide with another external cluster.
   * @default - the source Cluster's name
   */
  readonly sourceName?: string;

  /**
   * Replay transactions only this long after their commit (delayed replica, `replica.minApplyDelay`),
   * written as a Go duration (`Duration.hours(1)` -> `1h`).
   * @default - not written: no delay
   */
  readonly minApplyDelay?: Duration;

  /**
   * A libpq connection to the source as well, so the replica streams and falls back to the
   * archive.
   * @default - no streaming: the replica follows the archive alone
   */
  readonly connection?: ExternalClusterConnection;
}

const REPLICA_OF_SPEC: PropSpec<ReplicaOfClusterOptions> = {
  sourceName: OPTIONAL_SOURCE_NAME,
  minApplyDelay: Kind.duration(),
  // Judged by ExternalClusterSource.fromPlugin.
  connection: Kind.any,
};

/**
 * The external cluster that a `ClusterBootstrap` adds to the Cluster it is given to.
 * @internal
 */
export interface BootstrapSource {
  readonly name: string;
  readonly source: ExternalClusterSource;
  /** The `spec.replica` section a replica bootstrap writes. */
  readonly replica?: CnpgClusterSpecReplica;
}

/**
 * How a new Cluster gets its data (`spec.bootstrap`): an empty database (`initdb`), a recovery
 * from the backups a CNPG-I plugin keeps, or any other bootstrap the CRD allows (`fromSpec`).
 *
 * Give one to `PostgresCluster`'s `bootstrap` prop; a Cluster without one runs `initdb` with
 * CloudNativePG's defaults. The sections are written exactly as given, and checked against the
 * CRD schema (and its CEL rules, e.g. `icuLocale` needs `localeProvider: icu`) at synth.
 */
export class ClusterBootstrap {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories =
    'ClusterBootstrap.initdb(), ClusterBootstrap.recoveryFromCluster(cluster), ClusterBootstrap.replicaOfCluster(cluster), ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName }) or ClusterBootstrap.fromSpec({ ... })';

  /**
   * Creates a new, empty PostgreSQL data directory (`spec.bootstrap.initdb`).
   * @param options the `initdb` section as the CRD defines it; `{}` keeps CloudNativePG's
   * defaults (database `app` owned by `app`).
   */
  public static initdb(options: ClusterSpecBootstrapInitdb = {}): ClusterBootstrap {
    return new ClusterBootstrap({ initdb: options });
  }

  /**
   * Recovers the Cluster from the backups and WAL archive of a CNPG-I plugin, such as Barman
   * Cloud: adds an external cluster named `sourceName` whose `plugin` is this plugin with these
   * parameters, and sets `spec.bootstrap.recovery.source` to it.
   *
   * The plugin does not need to be in the recovering Cluster's `spec.plugins`; add it there too
   * (with `addPlugin`) only if the new Cluster should also archive through it.
   */
  public static recoveryFromPlugin(plugin: IPlugin, options: RecoveryFromPluginOptions): ClusterBootstrap {
    const where = 'ClusterBootstrap.recoveryFromPlugin';
    const o = checkProps(where, 'options', options, RECOVERY_SPEC);
    const name = o.sourceName;
    const source = ExternalClusterSource.fromPlugin(plugin, { parameters: o.parameters, objectStore: o.objectStore });
    checkCatalogRecoveryTarget(where, 'options.recoveryTarget', o.recoveryTarget);
    return new ClusterBootstrap({ recovery: recoverySection(name, o) }, { name, source });
  }

  /**
   * Recovers the Cluster from what another `PostgresCluster` of this app archives: its WAL
   * archiver plugin (the enabled plugin added with `isWalArchiver: true`), the object store it was
   * linked to (`objectStore`), and the name it archives under (for Barman Cloud the `serverName`
   * parameter, else the source Cluster's name) become an external cluster named `sourceName`, and
   * `spec.bootstrap.recovery.source` names it.
   *
   * The archive is read when this is called, so add the source's archiver first. A source that
   * archives no WAL, archives without an `objectStore`, or is not a `PostgresCluster` of this
   * program is refused: there is no archive to derive. The recovering Cluster must live in the
   * namespace of the store. It does not archive through the plugin unless `addPlugin` says so
   * (with its own server name: it is refused at synth when it would archive into the source's).
   *
   * @param source the Cluster whose backups and WAL archive are recovered
   */
  public static recoveryFromCluster(source: IPostgresCluster, options: RecoveryFromClusterOptions = {}): ClusterBootstrap {
    const where = 'ClusterBootstrap.recoveryFromCluster';
    const o = checkProps(where, 'options', options, FROM_CLUSTER_SPEC, { optional: true }) ?? {};
    const archive = archiveSource(where, source, o.sourceName);
    checkCatalogRecoveryTarget(where, 'options.recoveryTarget', o.recoveryTarget);
    return new ClusterBootstrap({ recovery: recoverySection(archive.name, o) }, archive);
  }

  /**
   * Makes the Cluster a replica cluster that follows another `PostgresCluster` of this app
   * through its WAL archive: the external cluster is derived as in `recoveryFromCluster()`, the
   * Cluster bootstraps by recovering from it, and `spec.replica` (`enabled: true`, `source`) keeps
   * it replaying the WAL the source archives. Give no `replica` prop beside it.
   *
   * CloudNativePG creates a replica cluster only from `recovery` or `pg_basebackup`, and Barman
   * Cloud reads a replica's archive from the external cluster that `replica.source` names, under the
   * `serverName` given there (plugin-barman-cloud v0.14.0 internal/cnpgi/operator/config/config.go
   * NewFromCluster), so both are written here.
   *
   * @param source the Cluster to follow
   */
  public static replicaOfCluster(source: IPostgresCluster, options: ReplicaOfClusterOptions = {}): ClusterBootstrap {
    const where = 'ClusterBootstrap.replicaOfCluster';
    const o = checkProps(where, 'options', options, REPLICA_OF_SPEC, { optional: true }) ?? {};
    const archive = archiveSource(where, source, o.sourceName, o.connection);
    return new ClusterBootstrap(
      { recovery: { source: archive.name } },
      {
        ...archive,
        replica: {
          source: archive.name,
          enabled: true,
          minApplyDelay: o.minApplyDelay === undefined ? undefined : renderDuration(o.minApplyDelay),
        },
      },
    );
  }

  /**
   * Any bootstrap the CRD allows, written as is: `pg_basebackup` from an external cluster, a
   * recovery from a `Backup` object or from volume snapshots. External clusters it names must be
   * added with `PostgresCluster.addExternalCluster()`; this is checked at synth.
   */
  public static fromSpec(spec: CnpgClusterSpecBootstrap): ClusterBootstrap {
    // The Cluster webhook refuses more than one method (cloudnative-pg v1.30.0
    // internal/webhook/v1/cluster_webhook.go validateBootstrapMethod); none is refused here too,
    // as it only restates the default that leaving bootstrap out gives.
    const keys = spec !== null && typeof spec === 'object' ? Object.keys(spec).filter((k) => (spec as Record<string, unknown>)[k] !== undefined) : [];
    if (keys.length !== 1) {
      invalid('ClusterBootstrap.fromSpec', 'spec', spec, `sets ${keys.length} bootstrap methods`, 'set exactly one of initdb, pgBasebackup or recovery');
    }
    return new ClusterBootstrap(spec);
  }

  /** @internal */
  public readonly _spec: CnpgClusterSpecBootstrap;
  /** @internal */
  public readonly _source?: BootstrapSource;

  private constructor(spec: CnpgClusterSpecBootstrap, source?: BootstrapSource) {
    this._spec = spec;
    this._source = source;
  }
}

/** `spec.bootstrap.recovery` from an external cluster and the checked options of a recovery. */
function recoverySection(source: string, o: RecoveryFromClusterOptions): ClusterSpecBootstrapRecovery {
  return {
    source,
    database: o.database,
    owner: o.owner,
    secret: o.secretName === undefined ? undefined : { name: o.secretName },
    recoveryTarget: o.recoveryTarget?.toSpec(),
  };
}

/**
 * The external cluster that reads what `source` archives: its enabled WAL archiver plugin, with
 * the parameters its object store gives for that archive (`IObjectStore.archiveParameters`) and
 * the store itself, whose namespace is the source's when the store does not say.
 */
function archiveSource(where: string, source: IPostgresCluster, sourceName: string | undefined, connection?: ExternalClusterConnection): BootstrapSource {
  const isCluster = source !== null && typeof source === 'object' && typeof (source as { name?: unknown }).name === 'string';
  if (!isCluster) {
    invalid(where, 'source', source, wrongType('a PostgresCluster', source), 'pass the PostgresCluster construct whose archive to read');
  }
  const binding = clusterBinding(source);
  if (binding === undefined) {
    invalid(
      where,
      'source',
      source.name,
      'is a Cluster managed elsewhere: nothing here says which plugin archives its WAL, into which store, under which name',
      'pass the PostgresCluster construct of this app, or describe the archive with ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName, objectStore, parameters })',
    );
  }
  const path = binding.construct.node.path;
  const plugins = binding.plugins();
  const archiver = plugins.find((p) => p.enabled && p.isWalArchiver);
  if (archiver === undefined) {
    const disabled = plugins.find((p) => p.isWalArchiver);
    // The instance manager offers each WAL segment to every enabled plugin that can archive,
    // declared or not (cloudnative-pg v1.30.0 pkg/management/postgres/archiver/archiver.go
    // archiveWALViaPlugins): a plugin with a store may archive without being declared, but only
    // the declared archiver is required to be loaded, so the recovery is derived from it alone.
    const undeclared = disabled === undefined ? plugins.find((p) => p.enabled && p.objectStore !== undefined) : undefined;
    invalid(
      where,
      'source',
      path,
      undeclared !== undefined
        ? `declares no WAL archiver: plugin '${undeclared.pluginName}' may archive into its store, but a segment it cannot take while its sidecar is missing is lost without an error (CNPGI123), so the recovery is derived only from a declared archiver`
        : `archives no WAL: ${disabled === undefined ? 'none of its plugins is a WAL archiver' : `its WAL archiver '${disabled.pluginName}' is disabled`}, so no archive holds its backups' WAL and there is nothing to recover from`,
      undeclared !== undefined
        ? `declare it: call addPlugin(plugin, { isWalArchiver: true, objectStore }) on ${path}`
        : `make it archive first: call addPlugin(plugin, { isWalArchiver: true, objectStore }) on ${path} before deriving a recovery from it`,
    );
  }
  const store = archiver.objectStore;
  if (store === undefined || typeof (store as { archiveParameters?: unknown }).archiveParameters !== 'function') {
    invalid(
      where,
      'source',
      path,
      store === undefined
        ? `archives through plugin '${archiver.pluginName}' without an objectStore, so the archive to read is not known`
        : `archives into object store ${describeValue(store.name)}, which does not say how its archive is read (no archiveParameters())`,
      store === undefined
        ? `link the store where it archives (addPlugin(plugin, { isWalArchiver: true, objectStore })), or describe the archive with ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName, objectStore, parameters })`
        : 'implement IObjectStore.archiveParameters(), or describe the archive with ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName, objectStore, parameters })',
    );
  }
  const parameters = store.archiveParameters(source.name, { ...archiver.parameters });
  checkValue(where, `source(${path}).objectStore.archiveParameters()`, parameters, Kind.stringMap);
  const namespace = store.namespace ?? binding.apiObject.metadata.namespace;
  const located: IObjectStore = {
    name: store.name,
    namespace,
    clusterParameters: () => store.clusterParameters(),
    archiveParameters: (clusterName, archiverParameters) => store.archiveParameters(clusterName, archiverParameters),
  };
  const name = sourceName ?? source.name;
  const plugin: IPlugin = { pluginName: archiver.pluginName };
  return { name, source: ExternalClusterSource.fromPlugin(plugin, { parameters: { ...parameters }, objectStore: located, connection }) };
}
