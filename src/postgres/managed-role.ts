import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { ErrorScope } from '../manifests/errors';
import { EnsureOption } from './database';
import { ROLE_ATTRIBUTES_SPEC, RoleAttributes, reservedRoleName, rfc3339 } from './database-role';

/**
 * Options of `PostgresCluster.addManagedRole()`: a role of the Cluster's `spec.managed.roles`
 * (cloudnative-pg v1.30.0 api/v1/cluster_types.go RoleConfiguration), reconciled by the
 * instance manager of the primary.
 */
export interface ManagedRoleOptions extends RoleAttributes {
  /**
   * Whether the role should exist; `EnsureOption.ABSENT` drops it.
   * @default - not written; the CRD default is `present`
   */
  readonly ensure?: EnsureOption;
}

const OPTIONS_SPEC: PropSpec<ManagedRoleOptions> = {
  ensure: Kind.enumOf(EnsureOption, 'EnsureOption'),
  ...ROLE_ATTRIBUTES_SPEC,
};

/**
 * The checked `spec.managed.roles[]` entry of role `name` (the generated shape), refusing what
 * the Cluster webhook refuses about one role (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go validateManagedRoles: a reserved name, pkg/postgres
 * IsRoleReserved; a password both set and disabled; a connection limit below -1) and a name
 * among `taken`.
 * @internal
 */
export function managedRoleEntry(scope: ErrorScope, name: unknown, options: unknown, taken: readonly string[]): Record<string, unknown> {
  const nameOk = typeof name === 'string' && name !== '';
  refuseFirst(scope, [[!nameOk, 'managed.roles', name, 'is not a role name', "pass a name such as 'reporter'"]]);
  const roleName = name as string;
  const at = `managed.roles[${roleName}]`;
  const o = checkProps(scope, at, options, OPTIONS_SPEC, { optional: true }) ?? {};
  const reserved = reservedRoleName(roleName);
  refuseFirst(scope, [
    [
      reserved !== undefined,
      'managed.roles',
      roleName,
      `is reserved: the Cluster webhook refuses it ("This role is reserved for operator use"; ${reserved})`,
      'manage a role of your own name; the operator keeps postgres (spec.superuserSecret) and streaming_replica itself',
    ],
    [
      taken.includes(roleName),
      'managed.roles',
      roleName,
      'is added twice: the Cluster webhook refuses it ("Role name is duplicate of another")',
      'add each role once, with all its options',
    ],
    [
      o.passwordSecretName !== undefined && o.disablePassword === true,
      `${at}.disablePassword`,
      true,
      'is set with passwordSecretName: the Cluster webhook refuses both ("This role both sets and disables a password")',
      'keep one of the two',
    ],
  ]);
  const entry: Record<string, unknown> = {
    name: roleName,
    comment: o.comment,
    ensure: o.ensure,
    passwordSecret: o.passwordSecretName === undefined ? undefined : { name: o.passwordSecretName },
    disablePassword: o.disablePassword,
    login: o.login,
    connectionLimit: o.connectionLimit,
    validUntil: o.validUntil === undefined ? undefined : rfc3339(o.validUntil),
    inRoles: o.inRoles === undefined ? undefined : [...o.inRoles],
    inherit: o.inherit,
    superuser: o.superuser,
    createdb: o.createdb,
    createrole: o.createrole,
    replication: o.replication,
    bypassrls: o.bypassrls,
  };
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined));
}
