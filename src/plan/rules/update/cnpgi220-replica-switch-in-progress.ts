/*
 * Refused on update: a Cluster's replica role changes while the operator is still switching it
 * to a replica cluster.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI220',
  name: 'replica-switch-in-progress',
  severities: [
    {
      severity: 'error',
      when: 'The replica role (`spec.replica.enabled`, or `primary` against `self`) differs while the previous, live Cluster has `status.switchReplicaClusterStatus.inProgress`.',
    },
  ],
  what: 'A Cluster becomes a replica or a primary cluster while the operator is still switching it to a replica cluster.',
  why:
    `The webhook forbids changing the replica role during that switch (${WEBHOOK} validateReplicaClusterChange; the role as ` +
    'cloudnative-pg v1.30.0 api/v1/cluster_funcs.go IsReplica reads it). Only a live object carries the status (the API server keeps the ' +
    'stored status on an update), so the rule reports when the previous manifests come from the cluster (`kubectl get -o yaml`).',
  fix: 'Wait until `status.switchReplicaClusterStatus.inProgress` is false, then change the replica role.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const update of clusterUpdates(ctx)) {
      for (const i of changeIssues(update, 'validateReplicaClusterChange')) {
        report('error', update.next, i.message, i.fix, i.path, { before: i.before, after: i.after });
      }
    }
  },
};
