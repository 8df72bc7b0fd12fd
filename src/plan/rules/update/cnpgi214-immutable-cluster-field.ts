/*
 * Refused on update: a field the operator or the CRD keeps immutable changes on a Cluster.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, asString } from '../../plan-model';
import { WEBHOOK, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI214',
  name: 'immutable-cluster-field',
  severities: [{ severity: 'error', when: '`postgresUID`, `postgresGID` (default 26) or `serviceAccountName` differs from before.' }],
  what: 'A field the operator or the CRD keeps immutable changes on an existing Cluster.',
  why:
    `The webhook refuses UID and GID changes (${WEBHOOK} validateUnixPermissionIdentifierChange); the CRD refuses a changed ` +
    '`serviceAccountName` (cloudnative-pg v1.30.0 api/v1/cluster_types.go ClusterSpec.ServiceAccountName, rule `self == oldSelf`).',
  fix: 'Keep the old value; the field is fixed for the life of the Cluster.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const { next, before, after } of clusterUpdates(ctx)) {
      for (const field of ['postgresUID', 'postgresGID']) {
        const b = before?.[field] ?? 26;
        const a = after?.[field] ?? 26;
        if (b !== a) {
          report('error', next, `changes from ${b} to ${a}; the webhook keeps it immutable`, `keep \`spec.${field}: ${b}\``, `spec.${field}`, {
            before: b,
            after: a,
          });
        }
      }
      const sa = asString(before?.serviceAccountName);
      const saAfter = asString(after?.serviceAccountName);
      if (sa !== undefined && saAfter !== undefined && sa !== saAfter) {
        report(
          'error',
          next,
          `changes from '${sa}' to '${saAfter}'; the CRD keeps it immutable`,
          `keep \`spec.serviceAccountName: ${sa}\``,
          'spec.serviceAccountName',
          { before: sa, after: saAfter },
        );
      }
    }
  },
};
