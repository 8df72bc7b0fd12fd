import {
  ClusterSpecBootstrap as CnpgClusterSpecBootstrap,
  ClusterSpecBootstrapInitdb,
  ClusterSpecBootstrapRecoveryRecoveryTarget,
} from '../../imports/postgresql.cnpg.io';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { invalid } from '../manifests/errors';
import { IPlugin } from '../plugins/plugin';
import { ExternalClusterSource } from './external-cluster-source';
import { EXTERNAL_CLUSTER_NAME_KIND } from './internal';
import type { IObjectStore } from './object-store-link';

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
   * Stop the recovery at a point in time instead of replaying all the WAL
   * (`recoveryTarget`: `targetTime`, `targetLsn`, `targetName`, `targetXid`, `targetTli`,
   * `targetImmediate`, `exclusive`, `backupId`; set at most one of the `target*` fields).
   * @default - not written: full recovery to the end of the archived WAL
   */
  readonly recoveryTarget?: ClusterSpecBootstrapRecoveryRecoveryTarget;
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
  recoveryTarget: Kind.any,
};

/**
 * The external cluster that a `ClusterBootstrap` adds to the Cluster it is given to.
 * @internal
 */
export interface BootstrapSource {
  readonly name: string;
  readonly source: ExternalClusterSource;
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
    'ClusterBootstrap.initdb(), ClusterBootstrap.recoveryFromPlugin(plugin, { sourceName }) or ClusterBootstrap.fromSpec({ ... })';

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
    return new ClusterBootstrap(
      {
        recovery: {
          source: name,
          database: o.database,
          owner: o.owner,
          secret: o.secretName === undefined ? undefined : { name: o.secretName },
          recoveryTarget: o.recoveryTarget,
        },
      },
      { name, source },
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
