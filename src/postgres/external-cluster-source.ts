import {
  ClusterSpecExternalClusters as CnpgExternalCluster,
  ClusterSpecExternalClustersBarmanObjectStore as CnpgExternalClusterBarmanObjectStore,
} from '../../imports/postgresql.cnpg.io';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, checkValue } from '../common/props';
import { ErrorScope, Problem } from '../manifests/errors';
import { IPlugin } from '../plugins/plugin';
import { PLUGIN_KIND, SECRET_KEY_REFERENCE_KIND, secretKeyReferenceOf } from './internal';
import type { IObjectStore } from './object-store-link';
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
   * The object store holding the other cluster's backups, such as a Barman Cloud `ObjectStore`.
   *
   * The parameters that point the plugin at it (`IObjectStore.clusterParameters()`) are added to
   * `parameters`. It must be in the Cluster's namespace.
   * @default - none: name it in `parameters` if the plugin needs one
   */
  readonly objectStore?: IObjectStore;
  /**
   * A libpq connection as well, for a replica that streams and falls back to the archive.
   * @default - no streaming connection
   */
  readonly connection?: ExternalClusterConnection;
}

/**
 * libpq connection parameters: required (the CRD types them as optional, so a left-out map is
 * refused as null), and without a password, which would put a secret in the manifest.
 */
function connectionParametersProblem(scope: ErrorScope, prop: string, value: unknown): Problem | undefined {
  checkValue(scope, prop, value ?? null, Kind.stringMap);
  const secret = Object.keys(value as Record<string, string>).find((k) => k.toLowerCase() === 'password');
  return secret === undefined
    ? undefined
    : {
        prop: `${prop}.${secret}`,
        value: '<redacted>',
        problem: 'would put a secret in the manifest',
        fix: 'store it in a Secret and reference it with password: { name, key }',
      };
}

const CONNECTION_SPEC: PropSpec<ExternalClusterConnection> = {
  connectionParameters: Kind.evenMissing(connectionParametersProblem),
  password: SECRET_KEY_REFERENCE_KIND,
  sslCert: SECRET_KEY_REFERENCE_KIND,
  sslKey: SECRET_KEY_REFERENCE_KIND,
  sslRootCert: SECRET_KEY_REFERENCE_KIND,
};

const PLUGIN_SPEC: PropSpec<ExternalClusterPluginOptions> = {
  connection: Kind.props(CONNECTION_SPEC, { optional: true }),
  // Judged after the plugin, below.
  parameters: Kind.any,
  // Linked by the Cluster, which knows its namespace.
  objectStore: Kind.any,
};

/**
 * How CloudNativePG reaches an external cluster (`spec.externalClusters[]`): through a CNPG-I
 * plugin that reads its backups, a libpq connection, or an in-tree Barman object store section.
 * Give one to `PostgresCluster.addExternalCluster()`.
 */
export class ExternalClusterSource {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories =
    'ExternalClusterSource.fromPlugin(plugin), ExternalClusterSource.fromConnection({ connectionParameters }) or ExternalClusterSource.fromBarmanObjectStore({ ... })';

  /**
   * Through a CNPG-I plugin (`externalClusters[].plugin`), e.g. Barman Cloud reading the other
   * cluster's archive. Only `name` and `parameters` are written: `enabled` and `isWALArchiver`
   * mean nothing for an external cluster.
   */
  public static fromPlugin(plugin: IPlugin, options: ExternalClusterPluginOptions = {}): ExternalClusterSource {
    const where = 'ExternalClusterSource.fromPlugin';
    // The options are named as the path from the argument (`options.parameters`).
    const o = checkProps(where, 'options', options, PLUGIN_SPEC, { optional: true, keysAlone: false }) ?? {};
    checkValue(where, 'plugin', plugin, PLUGIN_KIND);
    if (o.parameters !== undefined) checkValue(where, 'options.parameters', o.parameters, Kind.stringMap);
    return new ExternalClusterSource(
      {
        ...connectionOf(o.connection),
        plugin: { name: plugin.pluginName, parameters: o.parameters === undefined ? undefined : { ...o.parameters } },
      },
      o.objectStore,
    );
  }

  /** Through a libpq connection (`connectionParameters` and Secret references). */
  public static fromConnection(connection: ExternalClusterConnection): ExternalClusterSource {
    return new ExternalClusterSource(connectionOf(checkProps('ExternalClusterSource.fromConnection', 'connection', connection, CONNECTION_SPEC)));
  }

  /**
   * Through the in-tree Barman object store section, as the CRD defines it (deprecated upstream
   * in favour of the Barman Cloud plugin), optionally with a libpq connection too.
   */
  public static fromBarmanObjectStore(barmanObjectStore: CnpgExternalClusterBarmanObjectStore, connection?: ExternalClusterConnection): ExternalClusterSource {
    // Written as given: the Cluster refuses at synth what the bindings would drop or change.
    const checked = checkProps('ExternalClusterSource.fromBarmanObjectStore', 'connection', connection, CONNECTION_SPEC, { optional: true });
    return new ExternalClusterSource({ ...connectionOf(checked), barmanObjectStore });
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

/** The connection fields of an external cluster, from a checked connection. */
function connectionOf(c: ExternalClusterConnection | undefined): Omit<CnpgExternalCluster, 'name'> {
  if (c === undefined) return {};
  return {
    connectionParameters: { ...c.connectionParameters },
    password: secretKeyReferenceOf(c.password),
    sslCert: secretKeyReferenceOf(c.sslCert),
    sslKey: secretKeyReferenceOf(c.sslKey),
    sslRootCert: secretKeyReferenceOf(c.sslRootCert),
  };
}
