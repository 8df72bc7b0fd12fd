/*
 * Refused on update: a declarative tablespace is removed from a Cluster.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI212',
  name: 'tablespace-removed',
  severities: [{ severity: 'error', when: 'A tablespace, or the whole `spec.tablespaces` section, of the previous Cluster is gone.' }],
  what: 'A declarative tablespace is removed from a Cluster.',
  why: `The webhook refuses to delete tablespaces once created (${WEBHOOK} validateTablespacesChange).`,
  fix: 'Keep the tablespace in `spec.tablespaces`.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const update of clusterUpdates(ctx)) {
      for (const i of changeIssues(update, 'validateTablespacesChange')) {
        // a smaller tablespace is CNPGI210; a removed section names every tablespace it had
        if (i.after !== null) continue;
        for (const name of Array.isArray(i.before) ? i.before : [i.before]) {
          report(
            'error',
            update.next,
            `drops tablespace '${name}', which the webhook refuses: no tablespace can be deleted once created`,
            `keep tablespace '${name}' in spec.tablespaces`,
            `spec.tablespaces[${name}]`,
            { before: name, after: null },
          );
        }
      }
    }
  },
};
