/*
 * Ignored on update: the bootstrap of a Cluster that exists changes, and does nothing.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext, changedFields } from '../../plan-model';
import { clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI230',
  name: 'bootstrap-ignored',
  severities: [{ severity: 'warning', when: '`spec.bootstrap` of an existing Cluster differs (one finding per deepest changed field).' }],
  what: 'The bootstrap method or its options change on a Cluster that exists.',
  why:
    'The operator bootstraps only a Cluster without instances (cloudnative-pg v1.30.0 internal/controller/cluster_controller.go reconcilePods ' +
    'calls createPrimaryInstance only when status.instances is 0): the change is accepted and does nothing.',
  fix: 'To recover or import, create a new Cluster with that bootstrap; otherwise revert the change.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const { next, before, after } of clusterUpdates(ctx)) {
      for (const change of changedFields(before?.bootstrap, after?.bootstrap, 'spec.bootstrap')) {
        report(
          'warning',
          next,
          'changes on an existing Cluster: the operator bootstraps a Cluster only once, so the change does nothing',
          'revert it; to recover or import, create a new Cluster with that bootstrap',
          change.path,
          { before: change.before, after: change.after },
        );
      }
    }
  },
};
