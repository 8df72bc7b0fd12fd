/*
 * Refused on update: an existing Cluster's `wal_level` changes to `minimal`.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, asString, dig } from '../../plan-model';
import { WEBHOOK, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI216',
  name: 'wal-level-minimal',
  severities: [{ severity: 'error', when: '`wal_level` was set and is now `minimal`.' }],
  what: "An existing Cluster's `wal_level` changes to `minimal`.",
  why: `The webhook refuses it on an existing Cluster (${WEBHOOK} validateWALLevelChange).`,
  fix: 'Keep `wal_level` at `replica` or `logical`.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const { next, before, after } of clusterUpdates(ctx)) {
      const walBefore = asString(dig(before, 'postgresql', 'parameters', 'wal_level'));
      const walAfter = asString(dig(after, 'postgresql', 'parameters', 'wal_level'));
      if (walAfter !== 'minimal' || walBefore === undefined || walBefore === '' || walBefore === walAfter) continue;
      report(
        'error',
        next,
        `changes from '${walBefore}' to 'minimal', which the webhook refuses on an existing Cluster`,
        `keep \`wal_level: ${walBefore}\``,
        'spec.postgresql.parameters.wal_level',
        { before: walBefore, after: walAfter },
      );
    }
  },
};
