/*
 * Refused on update: the image and the PostgreSQL parameters change together on a Cluster that
 * updates its primary by switchover.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI217',
  name: 'image-and-parameters-with-switchover',
  severities: [{ severity: 'error', when: 'With `primaryUpdateMethod: switchover`, `imageName` and `postgresql.parameters` both change.' }],
  what: 'One change updates the image and the PostgreSQL parameters of a Cluster that updates its primary by switchover.',
  why: `The webhook refuses the combination (${WEBHOOK} validateConfigurationChange).`,
  fix: 'Change the image in one commit and the parameters in the next.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const update of clusterUpdates(ctx)) {
      for (const { before, after } of changeIssues(update, 'validateConfigurationChange')) {
        report(
          'error',
          update.next,
          'changes together with postgresql.parameters while primaryUpdateMethod is switchover, which the webhook refuses',
          'change the image in one commit and the parameters in another',
          'spec.imageName',
          { before, after },
        );
      }
    }
  },
};
