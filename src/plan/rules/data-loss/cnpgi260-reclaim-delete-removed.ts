/*
 * Data loss: a Database, DatabaseRole, Publication or Subscription whose reclaim policy is
 * `delete` leaves the manifests (removed, or renamed). With GitOps pruning the object is
 * deleted, and the operator drops what it manages inside PostgreSQL.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { MANAGED_KINDS, managedIdentity, reclaimPolicyOf } from '../../managed-objects';
import { CNPG_GROUP, PlanContext } from '../../plan-model';
import { addedByNamespace, takeMatch } from './renames';

const CONTROLLERS = 'cloudnative-pg v1.30.0 internal/management/controller';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI260',
  name: 'reclaim-delete-removed',
  severities: [
    {
      severity: 'error',
      when: 'A Database or DatabaseRole with `delete` as its reclaim policy is not in the next manifests (removed, or renamed: the report names the object that looks like it).',
    },
    {
      severity: 'warning',
      when: 'A Publication or Subscription with `delete` as its reclaim policy is not in the next manifests: replication stops, the data already copied stays.',
    },
  ],
  what:
    'A Database, DatabaseRole, Publication or Subscription with `databaseReclaimPolicy` (`databaseRoleReclaimPolicy`, `publicationReclaimPolicy`, ' +
    '`subscriptionReclaimPolicy`) `delete` disappears, or is renamed (matched by namespace, Cluster and PostgreSQL name).',
  why:
    'Each of these objects carries a finalizer; when it is deleted with the policy `delete`, the instance manager drops what it manages: ' +
    `the database (${CONTROLLERS}/database_controller.go evaluateDropDatabase), the role (databaserole_controller.go shouldDropRole), ` +
    'the publication (publication_controller.go evaluateDropPublication), the subscription (subscription_controller.go evaluateDropSubscription). ' +
    'A renamed object is a delete of the old one: it drops what the new one then recreates empty.',
  fix: 'Keep the object (or its old name); to remove it without dropping anything, first switch its reclaim policy to `retain` and apply that, then remove it.',
  kinds: MANAGED_KINDS.map((k) => k.kind),
  check(ctx, report) {
    for (const kind of MANAGED_KINDS) {
      const added = addedByNamespace(ctx, kind.kind, CNPG_GROUP);
      for (const old of ctx.previous.ofKind(kind.kind, CNPG_GROUP)) {
        if (ctx.next.get(old) || reclaimPolicyOf(kind, old.body) !== 'delete') continue;
        const id = managedIdentity(old.body);
        const renamed = takeMatch(added.get(old.namespace ?? ''), (c) => {
          const other = managedIdentity(c.body);
          return other.cluster === id.cluster && other.name === id.name;
        });
        const severity = kind.kind === 'Database' || kind.kind === 'DatabaseRole' ? 'error' : 'warning';
        const subject = `${kind.what} '${id.name ?? old.name}' of Cluster '${id.cluster ?? '?'}'`;
        report(
          severity,
          old,
          renamed
            ? `is renamed to '${renamed.name}' (same Cluster and ${kind.what}) with ${kind.policyField}: delete: pruning deletes the old object, ${kind.dropped}, and the new object creates the ${subject} again, empty`
            : `disappears with ${kind.policyField}: delete: pruning deletes it, and for the ${subject} ${kind.dropped}`,
          renamed
            ? `pin \`metadata.name: ${old.name}\` on the ${kind.kind} now named '${renamed.name}'`
            : `keep the ${kind.kind}; to let the ${kind.what} live on without it, first apply \`spec.${kind.policyField}: retain\`, then remove it`,
          `spec.${kind.policyField}`,
          { before: 'delete', after: renamed ? reclaimPolicyOf(kind, renamed.body) : null },
        );
      }
    }
  },
};
