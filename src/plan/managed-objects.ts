/*
 * The CloudNativePG kinds that manage an object inside PostgreSQL (a database, a role, a
 * publication, a subscription): which field holds their reclaim policy, what the operator drops
 * when the Kubernetes object goes. The plan's data-loss rules read them.
 */
import { Json, asString, dig } from './plan-model';

/** What the plan knows of one kind that manages a PostgreSQL object. @internal */
export interface ManagedKind {
  readonly kind: 'Database' | 'DatabaseRole' | 'Publication' | 'Subscription';
  /** The spec field of the reclaim policy (`retain` by default, `delete` drops the object). */
  readonly policyField: string;
  /** What PostgreSQL object it is, for messages. */
  readonly what: string;
  /** What happens to that object when the Kubernetes object with `delete` goes, for messages. */
  readonly dropped: string;
}

/** The four kinds, in the order the rules report them. @internal */
export const MANAGED_KINDS: readonly ManagedKind[] = [
  {
    kind: 'Database',
    policyField: 'databaseReclaimPolicy',
    what: 'database',
    dropped: 'the operator runs DROP DATABASE, and its data is gone',
  },
  {
    kind: 'DatabaseRole',
    policyField: 'databaseRoleReclaimPolicy',
    what: 'role',
    dropped: 'the operator drops the role (its grants go with it)',
  },
  {
    kind: 'Publication',
    policyField: 'publicationReclaimPolicy',
    what: 'publication',
    dropped: 'the operator runs DROP PUBLICATION, and its subscribers stop receiving changes',
  },
  {
    kind: 'Subscription',
    policyField: 'subscriptionReclaimPolicy',
    what: 'subscription',
    dropped: 'the operator runs DROP SUBSCRIPTION, which also drops its replication slot on the publisher: replication stops',
  },
];

/** The reclaim policy of a managed object as the CRD defaults it: `retain` when unset. @internal */
export function reclaimPolicyOf(kind: ManagedKind, body: Json): string {
  return asString(dig(body, 'spec', kind.policyField)) ?? 'retain';
}

/** The PostgreSQL name a managed object manages (`spec.name`), and the Cluster it is in. @internal */
export function managedIdentity(body: Json): { readonly cluster: string | undefined; readonly name: string | undefined } {
  return { cluster: asString(dig(body, 'spec', 'cluster', 'name')), name: asString(dig(body, 'spec', 'name')) };
}
