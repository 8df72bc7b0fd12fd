/*
 * Refused on update: an existing Cluster's `wal_level` changes to `minimal`.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI216',
  name: 'wal-level-minimal',
  severities: [{ severity: 'error', when: '`wal_level` was set and is now `minimal`.' }],
  what: "An existing Cluster's `wal_level` changes to `minimal`.",
  why: `The webhook refuses it on an existing Cluster (${WEBHOOK} validateWALLevelChange).`,
  fix: 'Keep `wal_level` at `replica` or `logical`.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const update of clusterUpdates(ctx)) {
      for (const { before, after } of changeIssues(update, 'validateWALLevelChange')) {
        report(
          'error',
          update.next,
          `changes from '${before}' to 'minimal', which the webhook refuses on an existing Cluster`,
          `keep \`wal_level: ${before}\``,
          'spec.postgresql.parameters.wal_level',
          { before, after },
        );
      }
    }
  },
};
