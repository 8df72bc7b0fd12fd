/*
 * Refused on update: the HA replication slot prefix changes while HA slots are enabled.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { Json, PlanContext, asObject, asString, dig } from '../../plan-model';
import { WEBHOOK, clusterUpdates } from './cluster-updates';

/** HA replication slots as the operator defaults them: enabled, prefix `_cnpg_`. */
function slotsHa(spec: Json | undefined): { enabled: boolean; prefix: string } {
  const ha = asObject(dig(spec, 'replicationSlots', 'highAvailability'));
  if (!ha) return { enabled: true, prefix: '_cnpg_' };
  return { enabled: ha.enabled !== false, prefix: asString(ha.slotPrefix) ?? '_cnpg_' };
}

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI215',
  name: 'replication-slots-guarded',
  severities: [
    {
      severity: 'error',
      when: 'High-availability replication slots are enabled before and the slot prefix differs after (a removed section falls back to `_cnpg_`).',
    },
  ],
  what: 'The HA replication slot prefix changes while HA slots are enabled.',
  why:
    `The webhook refuses it so the operator can still clean up the old slots (${WEBHOOK} validateReplicationSlotsChange; defaults from ` +
    'cloudnative-pg v1.30.0 api/v1/cluster_defaults.go setDefaults).',
  fix: 'Disable `replicationSlots.highAvailability` first and apply, then change the prefix.',
  kinds: ['Cluster'],
  check(ctx, report) {
    for (const { next, before, after } of clusterUpdates(ctx)) {
      const haBefore = slotsHa(before);
      const haAfter = slotsHa(after);
      if (!haBefore.enabled || haBefore.prefix === haAfter.prefix) continue;
      report(
        'error',
        next,
        `changes from '${haBefore.prefix}' to '${haAfter.prefix}' while HA replication slots are enabled, which the webhook refuses`,
        'disable replicationSlots.highAvailability first, apply, then change the prefix',
        'spec.replicationSlots.highAvailability.slotPrefix',
        { before: haBefore.prefix, after: haAfter.prefix },
      );
    }
  },
};
