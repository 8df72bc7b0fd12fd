/*
 * Refused on update: a Cluster's separate WAL volume is removed.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI211',
  name: 'wal-storage-removed',
  severities: [{ severity: 'error', when: 'The previous Cluster has `spec.walStorage` and the next has none.' }],
  what: "A Cluster's separate WAL volume is removed.",
  why: `The webhook refuses it: "walStorage cannot be disabled once configured" (${WEBHOOK} validateWalStorageChange).`,
  fix: 'Keep `spec.walStorage` as it was.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const update of clusterUpdates(ctx)) {
      for (const i of changeIssues(update, 'validateWalStorageChange')) {
        // a smaller walStorage is CNPGI210
        if (i.after !== null) continue;
        report(
          'error',
          update.next,
          'is removed, which the webhook refuses: walStorage cannot be disabled once configured',
          'keep `spec.walStorage` as it was',
          'spec.walStorage',
          { before: i.before, after: null },
        );
      }
    }
  },
};
