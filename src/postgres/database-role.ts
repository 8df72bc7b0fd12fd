import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { invalid } from '../manifests/errors';
import { asArray, asObject, asString, dig } from '../manifests/json';
import { IPostgresCluster } from './cluster-reference';
import { POSTGRES_CLUSTER_KIND, claimManaged, guardAndCheck, resolveBackupCluster } from './internal';

/** What becomes of the PostgreSQL role when the `DatabaseRole` object is deleted (`spec.databaseRoleReclaimPolicy`). */
export enum DatabaseRoleReclaimPolicy {
  /** The role stays in PostgreSQL (the CRD default). */
  RETAIN = 'retain',
  /** The instance manager drops the role when the object is deleted or pruned. */
  DELETE = 'delete',
}

/**
 * The attributes of a PostgreSQL role that a `DatabaseRole` and a managed role of a Cluster
 * (`spec.managed.roles`) share (cloudnative-pg v1.30.0 api/v1/cluster_types.go
 * RoleConfiguration).
 */
export interface RoleAttributes {
  /**
   * A comment on the role.
   * @default - not written
   */
  readonly comment?: string;
  /**
   * The `kubernetes.io/basic-auth` Secret (keys `username` and `password`) holding the role's
   * password, in the Cluster's namespace (`passwordSecret.name`). The library never writes
   * password material: create the Secret elsewhere (a SealedSecret, an ExternalSecret).
   * @default - not written: the password is left as it is, unless `disablePassword`
   */
  readonly passwordSecretName?: string;
  /**
   * Sets the role's password to NULL; not with `passwordSecretName`.
   * @default - not written; the CRD default is false
   */
  readonly disablePassword?: boolean;
  /**
   * Whether the role can log in (a user).
   * @default - not written; the CRD default is false
   */
  readonly login?: boolean;
  /**
   * How many concurrent connections a login role can make; -1 is no limit.
   * @default - not written; the CRD default is -1
   */
  readonly connectionLimit?: number;
  /**
   * When the password stops being valid; written in whole seconds, as Kubernetes stores it.
   * @default - not written: never
   */
  readonly validUntil?: Date;
  /**
   * Roles this role is a member of (`GRANT` / `REVOKE` keep it in step).
   * @default - none
   */
  readonly inRoles?: string[];
  /**
   * Whether the role inherits the privileges of the roles it is a member of.
   * @default - not written; the CRD default is true
   */
  readonly inherit?: boolean;
  /**
   * Superuser status.
   * @default - not written; the CRD default is false
   */
  readonly superuser?: boolean;
  /**
   * Whether the role can create databases.
   * @default - not written; the CRD default is false
   */
  readonly createdb?: boolean;
  /**
   * Whether the role can create and manage other roles.
   * @default - not written; the CRD default is false
   */
  readonly createrole?: boolean;
  /**
   * Whether the role can replicate (a logical replication subscriber connects as one).
   * @default - not written; the CRD default is false
   */
  readonly replication?: boolean;
  /**
   * Whether the role bypasses row-level security.
   * @default - not written; the CRD default is false
   */
  readonly bypassrls?: boolean;
}

/**
 * Options of `PostgresCluster.addDatabaseRole()`: a `postgresql.cnpg.io/v1` DatabaseRole, the
 * CRD new in CloudNativePG 1.30 (api/v1/databaserole_types.go DatabaseRoleSpec, with the role
 * attributes of api/v1/cluster_types.go RoleConfiguration).
 */
export interface DatabaseRoleOptions extends RoleAttributes {
  /**
   * The role's name inside PostgreSQL (`spec.name`; immutable). `postgres`,
   * `streaming_replica` and names starting with `pg_` or `cnpg_` are reserved.
   * @default - the construct id
   */
  readonly roleName?: string;
  /**
   * Whether the operator issues a TLS client certificate for the role, signed by the Cluster's
   * client CA, in the Secret `<object name>-client-cert` (`spec.clientCertificate.enabled`);
   * needs `login: true`.
   * @default - not written: no certificate
   */
  readonly clientCertificate?: boolean;
  /**
   * What the operator does to the role when this object is deleted or pruned.
   * `DatabaseRoleReclaimPolicy.DELETE` drops it.
   * @default - not written; the CRD default is `retain`
   */
  readonly databaseRoleReclaimPolicy?: DatabaseRoleReclaimPolicy;
  /**
   * Metadata of the DatabaseRole object (name, labels, annotations).
   * @default - `<cluster name>-<construct id>`; the Cluster's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/** Props of `DatabaseRole`. */
export interface DatabaseRoleProps extends DatabaseRoleOptions {
  /**
   * The Cluster the role lives in: a `PostgresCluster` (the object goes in its namespace), or
   * `PostgresCluster.fromClusterName()` for one managed elsewhere.
   */
  readonly cluster: IPostgresCluster;
}

/**
 * The kinds of the role attributes a DatabaseRole and `spec.managed.roles` share (cloudnative-pg
 * v1.30.0 api/v1/cluster_types.go RoleConfiguration); a connection limit below -1 is refused, as
 * the Cluster webhook does (validateManagedRoles).
 * @internal
 */
export const ROLE_ATTRIBUTES_SPEC: PropSpec<RoleAttributes> = {
  comment: Kind.string("use a comment such as 'the application'"),
  passwordSecretName: Kind.dnsName('a Secret name', 'app-password'),
  disablePassword: Kind.boolean,
  login: Kind.boolean,
  connectionLimit: Kind.integer(-1),
  validUntil: Kind.instance((v) => v instanceof Date && !Number.isNaN(v.getTime()), 'a valid Date', "pass a Date, e.g. new Date('2027-01-01T00:00:00Z')"),
  inRoles: Kind.strings,
  inherit: Kind.boolean,
  superuser: Kind.boolean,
  createdb: Kind.boolean,
  createrole: Kind.boolean,
  replication: Kind.boolean,
  bypassrls: Kind.boolean,
};

const PROPS_SPEC: PropSpec<DatabaseRoleProps> = {
  cluster: POSTGRES_CLUSTER_KIND,
  roleName: Kind.string("use a name such as 'app'"),
  ...ROLE_ATTRIBUTES_SPEC,
  clientCertificate: Kind.boolean,
  databaseRoleReclaimPolicy: Kind.enumOf(DatabaseRoleReclaimPolicy, 'DatabaseRoleReclaimPolicy'),
  metadata: Kind.metadata,
};

/**
 * Why the DatabaseRole CRD refuses a role name, in its words (cloudnative-pg v1.30.0
 * api/v1/databaserole_types.go DatabaseRoleSpec, CEL rules), or undefined.
 * @internal
 */
export function reservedRoleName(name: string): string | undefined {
  if (name === 'postgres' || name === 'streaming_replica') return `the role name ${name} is reserved`;
  if (name.startsWith('pg_')) return 'role names starting with pg_ are reserved by PostgreSQL';
  if (name.startsWith('cnpg_')) return 'role names starting with cnpg_ are reserved by the operator';
  return undefined;
}

/**
 * A `Date` as Kubernetes writes a `metav1.Time`: RFC 3339 in UTC, whole seconds.
 * @internal
 */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * A CloudNativePG `DatabaseRole` (`postgresql.cnpg.io/v1`, new in 1.30): a role of a Cluster
 * managed by its own object, with its attributes, memberships and password Secret.
 *
 * The name and the Cluster are fixed once applied. With `databaseRoleReclaimPolicy: DELETE`,
 * deleting the object, or pruning it from a GitOps repository, drops the role (the plan's
 * CNPGI260). What the CRD's CEL rules refuse is refused at construction: the reserved names,
 * `passwordSecretName` with `disablePassword`, a client certificate without `login`. Fractions
 * of a second of `validUntil` are dropped, as Kubernetes stores the time.
 */
export class DatabaseRole extends Construct {
  /** The DatabaseRole object's `metadata.name`. */
  public readonly name: string;
  /** The role's name inside PostgreSQL. */
  public readonly roleName: string;
  /** The name of the Cluster the role lives in. */
  public readonly clusterName: string;
  /** The DatabaseRole object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: DatabaseRoleProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC, { required: ['cluster'] });
    const roleName = p.roleName ?? id;
    const reserved = reservedRoleName(roleName);
    const nameProp = p.roleName === undefined ? 'id' : 'roleName';
    refuseFirst(this, [
      [
        reserved !== undefined,
        nameProp,
        roleName,
        `is reserved: the DatabaseRole CRD refuses it ("${reserved}")`,
        p.roleName === undefined ? "give the construct another id, or set roleName: 'app'" : "use another name, such as 'app'",
      ],
      [
        p.passwordSecretName !== undefined && p.disablePassword === true,
        'disablePassword',
        true,
        'is set with passwordSecretName: the DatabaseRole CRD refuses both ("passwordSecret and disablePassword are mutually exclusive")',
        'keep one of the two',
      ],
      [
        p.clientCertificate === true && p.login !== true,
        'clientCertificate',
        true,
        'needs login: the DatabaseRole CRD refuses a client certificate for a role that cannot log in ("clientCertificate requires the role to have login enabled")',
        'set login: true, or leave clientCertificate out',
      ],
    ]);
    const metadata = writtenMetadata(p.metadata);
    const cluster = resolveBackupCluster(
      this,
      p.cluster,
      metadata.namespace,
      'a DatabaseRole names a Cluster of its own namespace: use cluster.addDatabaseRole(), or a chart with the same namespace',
    );
    this.clusterName = cluster.name;
    this.roleName = roleName;
    this.apiObject = new ApiObject(this, 'Resource', {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'DatabaseRole',
      metadata: {
        ...metadata,
        name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('DatabaseRole'), `${cluster.name}-${id}`),
        namespace: cluster.namespace,
      },
      spec: {
        cluster: { name: cluster.name },
        name: roleName,
        comment: p.comment,
        passwordSecret: p.passwordSecretName === undefined ? undefined : { name: p.passwordSecretName },
        disablePassword: p.disablePassword,
        login: p.login,
        connectionLimit: p.connectionLimit,
        validUntil: p.validUntil === undefined ? undefined : rfc3339(p.validUntil),
        inRoles: p.inRoles === undefined ? undefined : [...p.inRoles],
        inherit: p.inherit,
        superuser: p.superuser,
        createdb: p.createdb,
        createrole: p.createrole,
        replication: p.replication,
        bypassrls: p.bypassrls,
        clientCertificate: p.clientCertificate === undefined ? undefined : { enabled: p.clientCertificate },
        databaseRoleReclaimPolicy: p.databaseRoleReclaimPolicy,
      },
    });
    this.name = this.apiObject.name;
    if (cluster.binding) this.apiObject.node.addDependency(cluster.binding.apiObject);
    const single = claimManaged(this, 'DatabaseRole', cluster.namespace, cluster.name, roleName, nameProp);
    const binding = cluster.binding;
    guardAndCheck(this, 'DatabaseRole', this.apiObject, () => {
      single();
      // A role of the Cluster's spec.managed.roles is the Cluster's: the DatabaseRole controller
      // marks the object as failed (cloudnative-pg v1.30.0
      // internal/management/controller/databaserole_controller.go isClusterManagingRole).
      const inline = binding && asArray(dig(binding.json(), 'spec', 'managed', 'roles')).some((r) => asString(asObject(r)?.name) === roleName);
      if (inline) {
        invalid(
          this,
          nameProp,
          roleName,
          `is also in spec.managed.roles of Cluster '${cluster.name}' (${binding.construct.node.path}): the Cluster manages it, and the operator marks this DatabaseRole as failed`,
          'manage the role in one place: remove it from spec.managed.roles, or drop this DatabaseRole',
        );
      }
    });
  }
}
