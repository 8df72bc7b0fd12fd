/*
 * A warning before data loss: the reclaim policy of a Database, DatabaseRole, Publication or
 * Subscription switches from `retain` to `delete`.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { MANAGED_KINDS, reclaimPolicyOf } from '../../managed-objects';
import { CNPG_GROUP, PlanContext, asString, dig } from '../../plan-model';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI261',
  name: 'reclaim-policy-to-delete',
  severities: [
    {
      severity: 'warning',
      when: 'The reclaim policy of an existing Database, DatabaseRole, Publication or Subscription becomes `delete` (it was `retain`, or unset: the CRD default is `retain`).',
    },
  ],
  what: 'A Database, DatabaseRole, Publication or Subscription that kept its PostgreSQL object on deletion will drop it from now on.',
  why:
    'The CRDs default the policy to `retain` (cloudnative-pg v1.30.0 api/v1/database_types.go DatabaseSpec.ReclaimPolicy, and the same field of ' +
    'DatabaseRoleSpec, PublicationSpec and SubscriptionSpec); with `delete`, removing the object drops the database, role, publication or ' +
    'subscription (cloudnative-pg v1.30.0 internal/management/controller/database_controller.go evaluateDropDatabase and its siblings): ' +
    'after this change, deleting the object or pruning it from GitOps is enough to lose data.',
  fix: 'Keep `retain` unless the object is meant to be removed with its data; acknowledge the change if it is deliberate.',
  kinds: MANAGED_KINDS.map((k) => k.kind),
  check(ctx, report) {
    for (const kind of MANAGED_KINDS) {
      for (const prev of ctx.previous.ofKind(kind.kind, CNPG_GROUP)) {
        const next = ctx.next.get(prev);
        if (!next || reclaimPolicyOf(kind, prev.body) !== 'retain' || reclaimPolicyOf(kind, next.body) !== 'delete') continue;
        report(
          'warning',
          next,
          `switches from retain to delete: from now on, deleting or pruning this ${kind.kind} drops the ${kind.what} '${asString(dig(next.body, 'spec', 'name')) ?? next.name}' from PostgreSQL`,
          `keep \`spec.${kind.policyField}: retain\` unless the ${kind.what} is meant to go with the object`,
          `spec.${kind.policyField}`,
          { before: asString(dig(prev.body, 'spec', kind.policyField)) ?? null, after: 'delete' },
        );
      }
    }
  },
};
