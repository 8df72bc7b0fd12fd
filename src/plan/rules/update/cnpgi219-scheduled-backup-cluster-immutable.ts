/*
 * Refused on update: an existing ScheduledBackup is pointed at another Cluster.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { CNPG_GROUP, PlanContext, asString, dig } from '../../plan-model';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI219',
  name: 'scheduled-backup-cluster-immutable',
  severities: [{ severity: 'error', when: 'A ScheduledBackup of the same name backs up another Cluster.' }],
  what: 'The `spec.cluster` of an existing ScheduledBackup changes.',
  why: 'The CRD refuses it: "cluster reference is immutable after creation" (cloudnative-pg v1.30.0 api/v1/scheduledbackup_types.go ScheduledBackupSpec.Cluster).',
  fix: 'Create a new ScheduledBackup for the other Cluster and remove the old one.',
  kinds: ['ScheduledBackup'],
  check(ctx, report) {
    for (const prev of ctx.previous.ofKind('ScheduledBackup', CNPG_GROUP)) {
      const next = ctx.next.get(prev);
      if (!next) continue;
      const b = asString(dig(prev.body, 'spec', 'cluster', 'name'));
      const a = asString(dig(next.body, 'spec', 'cluster', 'name'));
      if (b === a) continue;
      report(
        'error',
        next,
        `moves from Cluster '${b}' to '${a}', which the CRD refuses: the cluster reference is immutable`,
        'create a ScheduledBackup with another name for the other Cluster',
        'spec.cluster.name',
        { before: b ?? null, after: a ?? null },
      );
    }
  },
};
