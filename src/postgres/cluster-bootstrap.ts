import {
  ClusterSpecBootstrap as CnpgClusterSpecBootstrap,
  ClusterSpecBootstrapInitdb as CnpgClusterSpecBootstrapInitdb,
  ClusterSpecBootstrapRecoveryRecoveryTarget as CnpgRecoveryTarget,
} from '../../imports/postgresql.cnpg.io';
import { invalid } from '../common/errors';
import { requireString } from '../common/validate';
import { IPlugin } from '../plugins/plugin';
import { checkExternalClusterName, optionalParameters, optionalString, pluginNameOf, requireJsonObject, requireObject } from './internal';

/**
 * Options of `ClusterBootstrap.initdb()`: the generated `spec.bootstrap.initdb` type of the
 * CloudNativePG CRD (database, owner, secret, locale, `postInitSQL`, `import`, ...), written as is.
 */
export type InitdbOptions = CnpgClusterSpecBootstrapInitdb;

/**
 * A point-in-time recovery target (`spec.bootstrap.recovery.recoveryTarget`): `targetTime`,
 * `targetLsn`, `targetName`, `targetXid`, `targetTli`, `targetImmediate`, `exclusive`,
 * `backupId`. Set at most one of the `target*` fields.
 */
export type RecoveryTarget = CnpgRecoveryTarget;

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
   * Parameters for the plugin, e.g. Barman Cloud's `barmanObjectName` (the ObjectStore holding
   * the backups) and `serverName` (the name the origin Cluster archived under). Strings only.
   * @default - no parameters
   */
  readonly parameters?: Record<string, string>;

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
   * Stop the recovery at a point in time instead of replaying all the WAL.
   * @default - not written: full recovery to the end of the archived WAL
   */
  readonly recoveryTarget?: RecoveryTarget;
}

/**
 * The source of an external cluster that `ClusterBootstrap` adds to the Cluster it is given to.
 * @internal
 */
export interface BootstrapSource {
  readonly name: string;
  readonly pluginName: string;
  readonly parameters?: Record<string, string>;
}

/**
 * How a new Cluster gets its data (`spec.bootstrap`): an empty database (`initdb`), a recovery
 * from the backups a CNPG-I plugin keeps, or any other bootstrap the CRD allows (`fromSpec`).
 *
 * Give one to `PostgresCluster`'s `bootstrap` prop; a Cluster without one runs `initdb` with
 * CloudNativePG's defaults.
 */
export class ClusterBootstrap {
  /**
   * Creates a new, empty PostgreSQL data directory (`spec.bootstrap.initdb`).
   * @param options the `initdb` section as the CRD defines it; `{}` keeps CloudNativePG's
   * defaults (database `app` owned by `app`).
   */
  public static initdb(options: InitdbOptions = {}): ClusterBootstrap {
    requireJsonObject('ClusterBootstrap.initdb', 'options', options, 'pass { database: \'app\', owner: \'app\' } or nothing');
    return new ClusterBootstrap({ initdb: { ...options } });
  }

  /**
   * Recovers the Cluster from the backups and WAL archive of a CNPG-I plugin, such as Barman
   * Cloud: adds an external cluster named `sourceName` whose `plugin` is this plugin with these
   * parameters, and sets `spec.bootstrap.recovery.source` to it.
   *
   * The plugin does not need to be in the recovering Cluster's `spec.plugins`; add it there too
   * (with `addPlugin`) only if the new Cluster should also archive through it.
   */
  public static recoveryFromPlugin(plugin: IPlugin | string, options: RecoveryFromPluginOptions): ClusterBootstrap {
    const where = 'ClusterBootstrap.recoveryFromPlugin';
    const pluginName = pluginNameOf(where, 'plugin', plugin);
    const opts = requireObject<RecoveryFromPluginOptions>(where, 'options', options, "pass { sourceName: 'origin', parameters: { ... } }");
    const name = requireString(where, 'sourceName', opts.sourceName, "name the external cluster, e.g. 'origin'");
    checkExternalClusterName(where, 'sourceName', name);
    const parameters = optionalParameters(where, 'parameters', opts.parameters);
    const database = optionalString(where, 'database', opts.database, "name the database, e.g. 'app'");
    const owner = optionalString(where, 'owner', opts.owner, "name the owner role, e.g. 'app'");
    const secretName = optionalString(where, 'secretName', opts.secretName, 'name a basic-auth Secret in the Cluster\'s namespace');
    if (opts.recoveryTarget !== undefined) {
      requireJsonObject(where, 'recoveryTarget', opts.recoveryTarget, "pass { targetTime: '2024-01-01T00:00:00Z' }");
    }
    return new ClusterBootstrap({
      recovery: {
        source: name,
        database,
        owner,
        secret: secretName === undefined ? undefined : { name: secretName },
        recoveryTarget: opts.recoveryTarget === undefined ? undefined : { ...opts.recoveryTarget },
      },
    }, { name, pluginName, parameters });
  }

  /**
   * Any bootstrap the CRD allows, written as is: `pg_basebackup` from an external cluster, a
   * recovery from a `Backup` object or from volume snapshots. External clusters it names must be
   * added with `PostgresCluster.addExternalCluster()`; this is checked at synth.
   */
  public static fromSpec(spec: CnpgClusterSpecBootstrap): ClusterBootstrap {
    requireJsonObject('ClusterBootstrap.fromSpec', 'spec', spec, "pass { pgBasebackup: { source: 'origin' } }");
    const keys = Object.keys(spec).filter((k) => (spec as Record<string, unknown>)[k] !== undefined);
    if (keys.length !== 1) {
      invalid('ClusterBootstrap.fromSpec', 'spec', spec, `sets ${keys.length} bootstrap methods`, 'set exactly one of initdb, pgBasebackup or recovery');
    }
    return new ClusterBootstrap({ ...spec });
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
