import {
  ClusterSpecExternalClusters as CnpgExternalCluster,
  ClusterSpecExternalClustersBarmanObjectStore as CnpgExternalClusterBarmanObjectStore,
} from '../../imports/postgresql.cnpg.io';
import { declaredKeys } from '../common/keys';
import { ErrorScope, invalid } from '../manifests/errors';
import { IPlugin } from '../plugins/plugin';
import type { IObjectStore } from '../presets/object-store';
import { ownKeys, parametersOf, pluginNameOf, propsOf, secretKeyReferenceOf } from './internal';
import { SecretKeyReference } from './secret-key-reference';

/**
 * A libpq connection to another PostgreSQL cluster (streaming replication, `pg_basebackup`).
 */
export interface ExternalClusterConnection {
  /**
   * libpq connection parameters (`host`, `user`, `dbname`, `sslmode`, ...). A `password` key is
   * refused: use `password` so the secret stays out of the manifest.
   */
  readonly connectionParameters: Record<string, string>;
  /**
   * The Secret key holding the connection password.
   * @default - not written
   */
  readonly password?: SecretKeyReference;
  /**
   * The Secret key holding the client certificate.
   * @default - not written
   */
  readonly sslCert?: SecretKeyReference;
  /**
   * The Secret key holding the client private key.
   * @default - not written
   */
  readonly sslKey?: SecretKeyReference;
  /**
   * The Secret key holding the CA certificate that verifies the server.
   * @default - not written
   */
  readonly sslRootCert?: SecretKeyReference;
}

/** Options of `ExternalClusterSource.fromPlugin()`. */
export interface ExternalClusterPluginOptions {
  /**
   * The plugin's parameters, e.g. Barman Cloud's `serverName`. Strings only.
   * @default - not written: no parameters
   */
  readonly parameters?: Record<string, string>;
  /**
   * The Barman Cloud ObjectStore holding the other cluster's backups: written as the parameter
   * `barmanObjectName`; it must be in the Cluster's namespace.
   * @default - none: name it in `parameters` if the plugin needs one
   */
  readonly objectStore?: IObjectStore;
  /**
   * A libpq connection as well, for a replica that streams and falls back to the archive.
   * @default - no streaming connection
   */
  readonly connection?: ExternalClusterConnection;
}

const CONNECTION_KEYS = declaredKeys<ExternalClusterConnection>({
  connectionParameters: true,
  password: true,
  sslCert: true,
  sslKey: true,
  sslRootCert: true,
});
const PLUGIN_KEYS = declaredKeys<ExternalClusterPluginOptions>({ parameters: true, objectStore: true, connection: true });

/**
 * How CloudNativePG reaches an external cluster (`spec.externalClusters[]`): through a CNPG-I
 * plugin that reads its backups, a libpq connection, or an in-tree Barman object store section.
 * Give one to `PostgresCluster.addExternalCluster()`.
 */
export class ExternalClusterSource {
  /**
   * Through a CNPG-I plugin (`externalClusters[].plugin`), e.g. Barman Cloud reading the other
   * cluster's archive. Only `name` and `parameters` are written: `enabled` and `isWALArchiver`
   * mean nothing for an external cluster.
   */
  public static fromPlugin(plugin: IPlugin, options: ExternalClusterPluginOptions = {}): ExternalClusterSource {
    const where = 'ExternalClusterSource.fromPlugin';
    const o = ownKeys(where, 'options', options, PLUGIN_KEYS) ?? {};
    return new ExternalClusterSource(
      {
        ...connectionOf(where, 'options.connection', o.connection),
        plugin: { name: pluginNameOf(where, 'plugin', plugin), parameters: parametersOf(where, 'options.parameters', o.parameters) },
      },
      o.objectStore,
    );
  }

  /** Through a libpq connection (`connectionParameters` and Secret references). */
  public static fromConnection(connection: ExternalClusterConnection): ExternalClusterSource {
    const where = 'ExternalClusterSource.fromConnection';
    return new ExternalClusterSource(connectionOf(where, 'connection', propsOf(where, 'connection', connection, CONNECTION_KEYS)));
  }

  /**
   * Through the in-tree Barman object store section, as the CRD defines it (deprecated upstream
   * in favour of the Barman Cloud plugin), optionally with a libpq connection too.
   */
  public static fromBarmanObjectStore(barmanObjectStore: CnpgExternalClusterBarmanObjectStore, connection?: ExternalClusterConnection): ExternalClusterSource {
    // Written as given: the Cluster refuses at synth what the bindings would drop or change.
    return new ExternalClusterSource({ ...connectionOf('ExternalClusterSource.fromBarmanObjectStore', 'connection', connection), barmanObjectStore });
  }

  /** @internal */
  public readonly _spec: Omit<CnpgExternalCluster, 'name'>;
  /** @internal */
  public readonly _objectStore?: IObjectStore;

  private constructor(spec: Omit<CnpgExternalCluster, 'name'>, objectStore?: IObjectStore) {
    this._spec = spec;
    this._objectStore = objectStore;
  }
}

function connectionOf(where: ErrorScope, prop: string, value: ExternalClusterConnection | undefined): Omit<CnpgExternalCluster, 'name'> {
  const c = ownKeys(where, prop, value, CONNECTION_KEYS);
  if (c === undefined) return {};
  const connectionParameters = parametersOf(where, `${prop}.connectionParameters`, c.connectionParameters ?? null);
  const secret = Object.keys(connectionParameters ?? {}).find((k) => k.toLowerCase() === 'password');
  if (secret !== undefined) {
    invalid(
      where,
      `${prop}.connectionParameters.${secret}`,
      '<redacted>',
      'would put a secret in the manifest',
      'store it in a Secret and reference it with password: { name, key }',
    );
  }
  return {
    connectionParameters,
    password: secretKeyReferenceOf(where, `${prop}.password`, c.password),
    sslCert: secretKeyReferenceOf(where, `${prop}.sslCert`, c.sslCert),
    sslKey: secretKeyReferenceOf(where, `${prop}.sslKey`, c.sslKey),
    sslRootCert: secretKeyReferenceOf(where, `${prop}.sslRootCert`, c.sslRootCert),
  };
}
