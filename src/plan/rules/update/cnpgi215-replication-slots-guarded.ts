/*
 * Refused on update: the HA replication slot prefix changes while HA slots are enabled.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

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
    // both sides defaulted: a removed section comes back with the prefix `_cnpg_`
    for (const update of clusterUpdates(ctx)) {
      for (const i of changeIssues(update, 'validateReplicationSlotsChange')) {
        const prefix = i.path === 'spec.replicationSlots.highAvailability.slotPrefix';
        report(
          'error',
          update.next,
          prefix ? `changes from '${i.before}' to '${i.after}' while HA replication slots are enabled, which the webhook refuses` : i.message,
          prefix ? 'disable replicationSlots.highAvailability first, apply, then change the prefix' : i.fix,
          i.path,
          { before: i.before, after: i.after },
        );
      }
    }
  },
};
