/*
 * Refused on update: a field the operator or the CRD keeps immutable changes on a Cluster.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, asString } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

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
    for (const update of clusterUpdates(ctx)) {
      const { next, before, after } = update;
      for (const i of changeIssues(update, 'validateUnixPermissionIdentifierChange')) {
        report('error', next, `changes from ${i.before} to ${i.after}; the webhook keeps it immutable`, `keep \`${i.path}: ${i.before}\``, i.path, {
          before: i.before,
          after: i.after,
        });
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
