import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { StableNameRule, claimedNamespaces, nameFromId } from '../common/stable-names';
import { invalid, refuseProblem } from '../manifests/errors';
import type { Json } from '../manifests/json';
import { isDns1035Label } from '../manifests/k8s-names';
import { synthJson } from '../schema/guard';
import { admissionProblem } from './cluster-fidelity';
import { IPostgresCluster } from './cluster-reference';
import { POSTGRES_CLUSTER_KIND, guardAndCheck, resolveBackupCluster } from './internal';

/** Which instances a Pooler sends connections to (`spec.type`), with the CRD's wire values. */
export enum PoolerType {
  /** The primary (the CRD default). */
  RW = 'rw',
  /** The standbys. */
  RO = 'ro',
  /** Any instance. */
  R = 'r',
}

/** PgBouncer's pool mode (`spec.pgbouncer.poolMode`). */
export enum PgBouncerPoolMode {
  /** A server connection per client session (the CRD default). */
  SESSION = 'session',
  /** A server connection per transaction. */
  TRANSACTION = 'transaction',
}

/**
 * Options of `PostgresCluster.addPooler()`: a `postgresql.cnpg.io/v1` Pooler running PgBouncer
 * in front of the Cluster, as CloudNativePG v1.30.0 defines it (api/v1/pooler_types.go
 * PoolerSpec, PgBouncerSpec).
 */
export interface PoolerOptions {
  /**
   * Which instances the pooler connects to.
   * @default - not written; the CRD default is `rw` (the primary)
   */
  readonly type?: PoolerType;
  /**
   * How many PgBouncer pods run.
   * @default - not written; the CRD default is 1
   */
  readonly instances?: number;
  /**
   * The pool mode.
   * @default - not written; the CRD default is `session`
   */
  readonly poolMode?: PgBouncerPoolMode;
  /**
   * PgBouncer settings (`spec.pgbouncer.parameters`), strings as PgBouncer reads them: only the
   * ones the Pooler webhook lets a Pooler set (`default_pool_size`, `max_client_conn`, ...); the
   * operator writes the others itself.
   * @default - none: PgBouncer's and the operator's defaults
   */
  readonly parameters?: Record<string, string>;
  /**
   * Lines appended to PgBouncer's `pg_hba.conf` (`spec.pgbouncer.pg_hba`).
   * @default - none
   */
  readonly pgHba?: string[];
  /**
   * Whether PgBouncer holds new connections (`PAUSE`) until set back to false.
   * @default - not written; the CRD default is false
   */
  readonly paused?: boolean;
  /**
   * The query PgBouncer runs to look up a user's password (`spec.pgbouncer.authQuery`). Set it
   * only with `authQuerySecretName` or `serverTlsSecretName`: then the operator does not set up
   * the Pooler's access to the Cluster, and that is yours to do.
   * @default - not written: the operator's `SELECT usename, passwd FROM public.user_search($1)`, with the user it creates
   */
  readonly authQuery?: string;
  /**
   * The Secret with the credentials `authQuery` runs with (`spec.pgbouncer.authQuerySecret`;
   * deprecated upstream in favour of `serverTlsSecretName`).
   * @default - not written
   */
  readonly authQuerySecretName?: string;
  /**
   * A TLS Secret whose certificate PgBouncer presents to PostgreSQL (`spec.pgbouncer.serverTLSSecret`).
   * @default - not written: the operator's client certificate for the pooler
   */
  readonly serverTlsSecretName?: string;
  /**
   * The PgBouncer image (`spec.pgbouncer.image`), pinned to a tag or a digest.
   * @default - not written: the operator's PgBouncer image
   */
  readonly image?: string;
  /**
   * The pod template (`spec.template`: metadata and a pod spec), written as given.
   * @default - not written: the operator's
   */
  readonly template?: Record<string, unknown>;
  /**
   * The Service template (`spec.serviceTemplate`), written as given.
   * @default - not written: a ClusterIP Service named after the Pooler, port 5432
   */
  readonly serviceTemplate?: Record<string, unknown>;
  /**
   * An existing ServiceAccount for the pods (`spec.serviceAccountName`; immutable).
   * @default - not written: the operator creates one named after the Pooler
   */
  readonly serviceAccountName?: string;
  /**
   * Metadata of the Pooler object (name, labels, annotations). The operator names the Pooler's
   * Service, Deployment and ServiceAccount after it.
   * @default - `<cluster name>-pooler-<construct id>`; the Cluster's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/** Props of `Pooler`. */
export interface PoolerProps extends PoolerOptions {
  /**
   * The Cluster to pool: a `PostgresCluster` (the Pooler goes in its namespace), or
   * `PostgresCluster.fromClusterName()` for one managed elsewhere.
   */
  readonly cluster: IPostgresCluster;
}

/**
 * The operator names the Pooler's Service after the Pooler (cloudnative-pg v1.30.0
 * pkg/specs/pgbouncer/services.go Service), and a Service name is a DNS-1035 label.
 */
const POOLER_NAME_RULE: StableNameRule = {
  kind: 'Pooler',
  test: (n) => isDns1035Label(n),
  describe: "a DNS-1035 label (lower-case letters, digits and '-', a letter first, at most 63 characters), as the Service named after it must be",
};

const SECRET = Kind.dnsName('a Secret name', 'pooler-credentials');

const PROPS_SPEC: PropSpec<PoolerProps> = {
  cluster: POSTGRES_CLUSTER_KIND,
  type: Kind.enumOf(PoolerType, 'PoolerType'),
  instances: Kind.integer(0),
  poolMode: Kind.enumOf(PgBouncerPoolMode, 'PgBouncerPoolMode'),
  // Which names are allowed is the Pooler webhook's, judged at synth.
  parameters: Kind.stringMap,
  pgHba: Kind.strings,
  paused: Kind.boolean,
  authQuery: Kind.string("write the query, e.g. 'SELECT usename, passwd FROM public.user_search($1)'"),
  authQuerySecretName: SECRET,
  serverTlsSecretName: SECRET,
  image: Kind.image("'ghcr.io/cloudnative-pg/pgbouncer:1.24.1'"),
  template: Kind.json,
  serviceTemplate: Kind.json,
  serviceAccountName: Kind.dnsName('a ServiceAccount name', 'pgbouncer'),
  metadata: Kind.metadata,
};

/** The port of the Pooler's Service (cloudnative-pg v1.30.0 pkg/management/pgbouncer/config/config.go PgBouncerPort). */
const PGBOUNCER_PORT = 5432;

/**
 * A CloudNativePG `Pooler` (`postgresql.cnpg.io/v1`): PgBouncer pods in front of a Cluster's
 * primary (`rw`) or standbys (`ro`), and the Service applications connect to, which the operator
 * names after the Pooler (`serviceName`, port 5432).
 *
 * Without `authQuery`, the operator sets up the pooler's user and its lookup function in the
 * Cluster. The rendered object is checked at synth against the CRD and its CEL rules and as the
 * Pooler webhook judges it (parameters a Pooler may set, an auth query with its credentials, a
 * name other than its Cluster's); a Pooler named like a Cluster of the app, or like one of its
 * Services (`<cluster>-rw`, `-ro`, `-r`, `-any`), is refused too: their Services or ServiceAccounts
 * would collide.
 */
export class Pooler extends Construct {
  /** The Pooler's `metadata.name`. */
  public readonly name: string;
  /** The name of the Service applications connect to: the Pooler's name. */
  public readonly serviceName: string;
  /** The port of that Service. */
  public readonly port: number = PGBOUNCER_PORT;
  /** The name of the Cluster it pools. */
  public readonly clusterName: string;
  /** The Pooler object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: PoolerProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['cluster'] });
    const metadata = writtenMetadata(p.metadata);
    const cluster = resolveBackupCluster(
      this,
      p.cluster,
      metadata.namespace,
      'a Pooler pools a Cluster of its own namespace: use cluster.addPooler(), or a chart with the same namespace',
    );
    this.clusterName = cluster.name;
    if (metadata.name !== undefined && !POOLER_NAME_RULE.test(metadata.name)) {
      invalid(this, 'metadata.name', metadata.name, `is not ${POOLER_NAME_RULE.describe}`, `pin a name such as '${cluster.name}-pooler-rw'`);
    }
    const name = metadata.name ?? nameFromId(this, POOLER_NAME_RULE, `${cluster.name}-pooler-${id}`);
    const secret = (n: string | undefined) => (n === undefined ? undefined : { name: n });

    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Pooler',
      metadata: { ...metadata, name, namespace: cluster.namespace },
      spec: {
        cluster: { name: cluster.name },
        type: p.type,
        instances: p.instances,
        pgbouncer: {
          poolMode: p.poolMode,
          parameters: p.parameters === undefined ? undefined : { ...p.parameters },
          pg_hba: p.pgHba === undefined ? undefined : [...p.pgHba],
          paused: p.paused,
          authQuery: p.authQuery,
          authQuerySecret: secret(p.authQuerySecretName),
          serverTLSSecret: secret(p.serverTlsSecretName),
          image: p.image,
        },
        template: p.template,
        serviceTemplate: p.serviceTemplate,
        serviceAccountName: p.serviceAccountName,
      },
    });
    this.name = this.apiObject.name;
    this.serviceName = this.name;
    if (cluster.binding) this.apiObject.node.addDependency(cluster.binding.apiObject);

    guardAndCheck(this, 'Pooler', this.apiObject, () => {
      const namespace = cluster.namespace;
      const clash = ['', '-rw', '-ro', '-r', '-any']
        .map((suffix) => ({ suffix, clusterName: suffix === '' ? this.name : this.name.slice(0, -suffix.length) }))
        .find(
          ({ suffix, clusterName }) => this.name.endsWith(suffix) && clusterName !== '' && claimedNamespaces(this, 'Cluster', clusterName).includes(namespace),
        );
      if (clash !== undefined) {
        invalid(
          this,
          'metadata.name',
          this.name,
          clash.suffix === ''
            ? `is the name of Cluster '${clash.clusterName}' of the app in the same namespace: the operator names the Pooler's ServiceAccount and Role after the Pooler, as it names the Cluster's after the Cluster`
            : `is the name of the ${clash.suffix.slice(1)} Service of Cluster '${clash.clusterName}' in the same namespace, and the operator names the Pooler's Service after the Pooler`,
          `pin another name, e.g. metadata: { name: '${clash.clusterName}-pooler${clash.suffix}' }`,
        );
      }
      const problem = admissionProblem('Pooler', () => synthJson(this.apiObject) as Json);
      refuseProblem(this, problem && { ...problem, prop: writtenBy(problem.prop) });
    });
  }
}

/** The prop a user wrote for a field of the rendered Pooler that the webhook names; other fields keep their path. */
function writtenBy(path: string): string {
  if (path.startsWith('spec.pgbouncer.parameters.')) return path.slice('spec.pgbouncer.'.length);
  const typed: Readonly<Record<string, string>> = {
    'spec.pgbouncer.authQuery': 'authQuery',
    'spec.pgbouncer.authQuerySecret.name': 'authQuerySecretName',
    'spec.pgbouncer.serverTLSSecret.name': 'serverTlsSecretName',
  };
  return typed[path] ?? path;
}
