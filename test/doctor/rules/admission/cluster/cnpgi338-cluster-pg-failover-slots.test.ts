import { clusterFindings } from '../cluster-findings';

const SLOTS = { 'pg_failover_slots.synchronize_slot_names': 'name_like:%' };
const run = (parameters: object, replicationSlots?: unknown) =>
  clusterFindings('CNPGI338', (c) => {
    c.spec.postgresql = { parameters };
    if (replicationSlots !== undefined) c.spec.replicationSlots = replicationSlots;
  });

describe('CNPGI338 cluster-pg-failover-slots', () => {
  test('pg_failover_slots without hot_standby_feedback', () => {
    expect(run({ ...SLOTS, hot_standby_feedback: 'foo' })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses pg_failover_slots (pg_failover_slots.synchronize_slot_names is set) while hot_standby_feedback is \'foo\' ("`hot_standby_feedback` must be enabled to use  extension"): standbys must report their oldest snapshot for the slots to be safe to fail over to',
        fix: "set hot_standby_feedback: 'on'",
        path: 'spec.postgresql.parameters.hot_standby_feedback',
      },
    ]);
    expect(run(SLOTS)[0].message).toContain('while hot_standby_feedback is not set');
  });

  test('pg_failover_slots without the high availability slots', () => {
    expect(run({ ...SLOTS, hot_standby_feedback: 'on' }, { highAvailability: { enabled: false } })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses pg_failover_slots without the high availability replication slots ("High Availability replication slots must be enabled"): the extension copies the slots to the standbys',
        fix: 'set spec.replicationSlots.highAvailability.enabled: true',
        path: 'spec.replicationSlots.highAvailability',
      },
    ]);
  });

  test('near misses the webhook accepts', () => {
    for (const feedback of ['on', 'ON', 'true', 't', 'yes', 'y', '1'])
      expect([feedback, run({ ...SLOTS, hot_standby_feedback: feedback })]).toEqual([feedback, []]);
    // No replicationSlots: the CRD default enables the high availability slots.
    expect(run({ ...SLOTS, hot_standby_feedback: 'on' }, { highAvailability: { slotPrefix: '_cnpg_' } })).toEqual([]);
    expect(run({ hot_standby_feedback: 'off', pg_failover_slots: 'x', 'pg_failover_slotsx.y': 'z' })).toEqual([]);
  });
});
