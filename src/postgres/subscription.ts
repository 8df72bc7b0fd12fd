import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { describeValue, invalid } from '../manifests/errors';
import { asObject, asString, dig } from '../manifests/json';
import { IPostgresCluster } from './cluster-reference';
import { ExternalClusterSource } from './external-cluster-source';
import { EXTERNAL_CLUSTER_NAME_KIND, POSTGRES_CLUSTER_KIND, SECRET_KEY_REFERENCE_KIND, claimManaged, guardAndCheck, resolveBackupCluster } from './internal';
import { Publication } from './publication';
import { SecretKeyReference } from './secret-key-reference';

/** What becomes of the PostgreSQL subscription when the `Subscription` object is deleted (`spec.subscriptionReclaimPolicy`). */
export enum SubscriptionReclaimPolicy {
  /** The subscription stays in PostgreSQL (the CRD default). */
  RETAIN = 'retain',
  /** The instance manager runs `DROP SUBSCRIPTION` when the object is deleted or pruned. */
  DELETE = 'delete',
}

/**
 * Options of `PostgresCluster.addSubscription()`: a `postgresql.cnpg.io/v1` Subscription
 * (cloudnative-pg v1.30.0 api/v1/subscription_types.go SubscriptionSpec) to a `Publication` of
 * another Cluster of the app.
 */
export interface SubscriptionOptions {
  /** The publication to subscribe to: a `Publication` of another `PostgresCluster` of the app. */
  readonly publication: Publication;
  /**
   * The subscription's name inside PostgreSQL (`spec.name`; immutable).
   * @default - the construct id
   */
  readonly subscriptionName?: string;
  /**
   * The database of the subscriber Cluster the subscription is created in (`spec.dbname`; immutable).
   * @default - the publication's `dbname`
   */
  readonly dbname?: string;
  /**
   * Parameters of the `WITH` clause of `CREATE SUBSCRIPTION`, e.g. `{ copy_data: 'false' }`;
   * most cannot change after creation.
   * @default - not written
   */
  readonly parameters?: Record<string, string>;
  /**
   * The name of the external cluster of the subscriber that describes the publisher
   * (`spec.externalClusterName`).
   * @default - the publisher Cluster's name
   */
  readonly externalClusterName?: string;
  /**
   * The role the subscriber connects to the publisher as; it needs the `REPLICATION` attribute
   * and `SELECT` on the published tables (a managed role or a `DatabaseRole` of the publisher).
   * @default 'postgres' (the publisher must set `enableSuperuserAccess: true`)
   */
  readonly publisherUser?: string;
  /**
   * The Secret key, in the subscriber's namespace, holding `publisherUser`'s password.
   * @default - with the default user, the publisher's superuser Secret (`spec.superuserSecret`, else `<publisher>-superuser`), key `password`; needed with another user
   */
  readonly publisherPassword?: SecretKeyReference;
  /**
   * What the operator does to the subscription when this object is deleted or pruned.
   * `SubscriptionReclaimPolicy.DELETE` drops it.
   * @default - not written; the CRD default is `retain`
   */
  readonly subscriptionReclaimPolicy?: SubscriptionReclaimPolicy;
  /**
   * Metadata of the Subscription object (name, labels, annotations).
   * @default - `<cluster name>-<construct id>`; the Cluster's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/** Props of `Subscription`. */
export interface SubscriptionProps extends SubscriptionOptions {
  /**
   * The subscriber Cluster: a `PostgresCluster` of this program, which gets the publisher as an
   * external cluster, or `PostgresCluster.fromClusterName()` for one managed elsewhere (which
   * must declare the external cluster itself).
   */
  readonly cluster: IPostgresCluster;
}

const PROPS_SPEC: PropSpec<SubscriptionProps> = {
  cluster: POSTGRES_CLUSTER_KIND,
  publication: Kind.evenMissing(
    Kind.instance(
      (v) => v instanceof Publication,
      'a Publication',
      "pass the Publication construct, e.g. publisher.addPublication('orders', { dbname: 'app', target })",
    ),
  ),
  subscriptionName: Kind.string("use a name such as 'orders'"),
  dbname: Kind.string("use a database name such as 'app'"),
  parameters: Kind.stringMap,
  externalClusterName: (s, p, v) => (v === undefined ? undefined : EXTERNAL_CLUSTER_NAME_KIND(s, p, v)),
  publisherUser: Kind.string("use a role name such as 'replicator'"),
  publisherPassword: (s, p, v) => (v === undefined ? undefined : SECRET_KEY_REFERENCE_KIND(s, p, v)),
  subscriptionReclaimPolicy: Kind.enumOf(SubscriptionReclaimPolicy, 'SubscriptionReclaimPolicy'),
  metadata: Kind.metadata,
};

/**
 * A CloudNativePG `Subscription` (`postgresql.cnpg.io/v1`): a logical replication subscription in
 * a database of the subscriber Cluster to a `Publication` of another Cluster, reconciled by the
 * subscriber's instance manager (cloudnative-pg v1.30.0
 * internal/management/controller/subscription_controller.go).
 *
 * The instance manager connects through the subscriber's external cluster named
 * `externalClusterName` (getSubscriptionConnectionString), and marks the Subscription as failed
 * when the Cluster has none. For a `PostgresCluster` subscriber this construct derives that entry,
 * as `ClusterBootstrap.recoveryFromCluster()` derives its source: host `<publisher>-rw`, TLS
 * with `sslmode: verify-full` against the publisher's server CA Secret, and the password Secret
 * of `publisherUser`. Both Clusters share a namespace, since the subscriber mounts the
 * publisher's Secrets. `publicationDBName` is always written, so subscriptions to databases of
 * one publisher share one external cluster.
 *
 * With `subscriptionReclaimPolicy: DELETE`, deleting the object, or pruning it, drops the
 * subscription (the plan's CNPGI260).
 */
export class Subscription extends Construct {
  /** The Subscription object's `metadata.name`. */
  public readonly name: string;
  /** The subscription's name inside PostgreSQL. */
  public readonly subscriptionName: string;
  /** The name of the subscriber Cluster. */
  public readonly clusterName: string;
  /** The external cluster of the subscriber that describes the publisher. */
  public readonly externalClusterName: string;
  /** The Subscription object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: SubscriptionProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['cluster', 'publication'] });
    const publication = p.publication;
    const metadata = writtenMetadata(p.metadata);
    const cluster = resolveBackupCluster(
      this,
      p.cluster,
      metadata.namespace,
      'a Subscription names a Cluster of its own namespace: use cluster.addSubscription(), or a chart with the same namespace',
    );
    const publisher = publication._publisher;
    const externalClusterName = p.externalClusterName ?? publication.clusterName;
    const defaultUser = p.publisherUser === undefined || p.publisherUser === 'postgres';
    const publisherJson = publisher.binding?.json();
    refuseFirst(this, [
      [
        publication.clusterName === cluster.name && publisher.namespace === cluster.namespace,
        'publication',
        publication.node.path,
        `is a publication of Cluster '${cluster.name}' itself: creating a subscription to a publication of the same Cluster blocks, waiting for a replication slot that the same command would create`,
        'subscribe from another Cluster of the app',
      ],
      [
        cluster.binding !== undefined && publisher.namespace !== cluster.namespace,
        'publication',
        publication.node.path,
        `is in namespace ${describeValue(publisher.namespace ?? null)}, not in the subscriber's (${describeValue(cluster.namespace ?? null)}): the subscriber reads the publisher's CA and password Secrets from its own namespace`,
        'put the publisher and the subscriber Clusters in one namespace',
      ],
      [
        cluster.binding === undefined && (p.publisherUser !== undefined || p.publisherPassword !== undefined),
        p.publisherUser !== undefined ? 'publisherUser' : 'publisherPassword',
        p.publisherUser ?? p.publisherPassword,
        `is given for Cluster '${cluster.name}', which is managed elsewhere: only the external cluster of a PostgresCluster of this program is derived`,
        `declare the external cluster ${describeValue(externalClusterName)} in that Cluster, and leave publisherUser and publisherPassword out`,
      ],
      [
        cluster.binding !== undefined && !defaultUser && p.publisherPassword === undefined,
        'publisherUser',
        p.publisherUser,
        'has no publisherPassword: only the superuser has a Secret the operator makes',
        "pass publisherPassword: { name: 'replicator-password', key: 'password' }",
      ],
      [
        // The operator sets the postgres password to NULL unless superuser access is enabled
        // (cloudnative-pg v1.30.0 internal/management/controller/instance_controller.go
        // reconcileSuperuserPassword).
        cluster.binding !== undefined && defaultUser && publisherJson !== undefined && dig(publisherJson, 'spec', 'enableSuperuserAccess') !== true,
        'publisherUser',
        'postgres',
        `cannot log in to Cluster '${publication.clusterName}' (${publisher.binding?.construct.node.path}): without enableSuperuserAccess: true the operator sets the postgres password to NULL`,
        "set spec: { enableSuperuserAccess: true } on the publisher, or connect as a role with REPLICATION: publisherUser: 'replicator' with publisherPassword",
      ],
    ]);
    if (cluster.binding !== undefined) {
      // The Secret names as the operator derives them (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go
      // GetServerCASecretName, GetSuperuserSecretName); its server certificate covers the
      // `<cluster>-rw` Service name (GetClusterAltDNSNames).
      const spec = asObject(dig(publisherJson, 'spec'));
      const caSecret = asString(dig(spec, 'certificates', 'serverCASecret')) ?? `${publication.clusterName}-ca`;
      const superuserSecret = asString(dig(spec, 'superuserSecret', 'name')) ?? `${publication.clusterName}-superuser`;
      const source = ExternalClusterSource.fromConnection({
        connectionParameters: { host: `${publication.clusterName}-rw`, user: p.publisherUser ?? 'postgres', sslmode: 'verify-full' },
        password: p.publisherPassword ?? { name: superuserSecret, key: 'password' },
        sslRootCert: { name: caSecret, key: 'ca.crt' },
      });
      if (cluster.binding.deriveExternalCluster(externalClusterName, source._spec) === 'different') {
        invalid(
          this,
          'externalClusterName',
          externalClusterName,
          `is already an external cluster of Cluster '${cluster.name}' that describes another connection`,
          `give this publisher another name, e.g. externalClusterName: '${publication.clusterName}-publisher'`,
        );
      }
    }
    this.clusterName = cluster.name;
    this.subscriptionName = p.subscriptionName ?? id;
    this.externalClusterName = externalClusterName;
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Subscription',
      metadata: {
        ...metadata,
        name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('Subscription'), `${cluster.name}-${id}`),
        namespace: cluster.namespace,
      },
      spec: {
        cluster: { name: cluster.name },
        name: this.subscriptionName,
        dbname: p.dbname ?? publication.dbname,
        parameters: p.parameters === undefined ? undefined : { ...p.parameters },
        publicationName: publication.publicationName,
        publicationDBName: publication.dbname,
        externalClusterName,
        subscriptionReclaimPolicy: p.subscriptionReclaimPolicy,
      },
    });
    this.name = this.apiObject.name;
    if (cluster.binding) this.apiObject.node.addDependency(cluster.binding.apiObject);
    this.apiObject.node.addDependency(publication.apiObject);
    // One Subscription object per cluster and spec.name (cloudnative-pg v1.30.0
    // api/v1/subscription_funcs.go MustHaveManagedResourceExclusivity).
    const single = claimManaged(
      this,
      'Subscription',
      cluster.namespace,
      cluster.name,
      this.subscriptionName,
      p.subscriptionName === undefined ? 'id' : 'subscriptionName',
    );
    guardAndCheck(this, 'Subscription', this.apiObject, single);
  }
}
