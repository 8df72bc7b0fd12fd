import { clusterDoc, findingsOf } from './webhook-findings';

const of = (imageName: string | undefined, parameters: object = {}) =>
  findingsOf(
    'CNPGI333',
    clusterDoc({
      ...(imageName ? { imageName } : {}),
      replicationSlots: { highAvailability: { synchronizeLogicalDecoding: true } },
      postgresql: { parameters },
    }),
  );
const HSF = {
  path: 'spec.postgresql.parameters.hot_standby_feedback',
  message:
    'the Cluster webhook refuses synchronizeLogicalDecoding with hot_standby_feedback left out (off) ("`hot_standby_feedback` must be enabled to enable `spec.replicationSlots.highAvailability.synchronizeLogicalDecoding`")',
  fix: "set hot_standby_feedback: 'on'",
};
const SRS = {
  path: 'spec.postgresql.parameters.sync_replication_slots',
  message:
    'the Cluster webhook refuses synchronizeLogicalDecoding with sync_replication_slots left out (off) ("either `sync_replication_slots` setting or pg_failover_slots extension must be enabled to enable `spec.replicationSlots.highAvailability.synchronizeLogicalDecoding`")',
  fix: "set sync_replication_slots: 'on' (PostgreSQL 17 and later), or use the pg_failover_slots extension",
};

describe('CNPGI333 cluster-synchronize-logical-decoding', () => {
  test('PostgreSQL 16 without pg_failover_slots (the upstream test)', () => {
    expect(of('postgres:16')).toEqual([
      {
        path: 'spec.replicationSlots.highAvailability.synchronizeLogicalDecoding',
        message:
          'the Cluster webhook refuses synchronizeLogicalDecoding on PostgreSQL 16 without pg_failover_slots ("pg_failover_slots extension must be enabled to use synchronizeLogicalDecoding with Postgres versions < 17"): PostgreSQL synchronizes logical slots itself only from 17 on',
        fix: "set a pg_failover_slots parameter (e.g. 'pg_failover_slots.synchronize_slot_names': 'name_like:%') with an image that has the extension, or use PostgreSQL 17 or later",
      },
    ]);
  });

  test('PostgreSQL 17 without the two settings; with the default image (18)', () => {
    expect(of('postgres:17')).toEqual([HSF, SRS]);
    expect(of(undefined)).toEqual([HSF, SRS]);
  });

  test('one setting off (the upstream tests)', () => {
    expect(of('postgres:17', { sync_replication_slots: 'on', hot_standby_feedback: 'off' })).toEqual([
      { ...HSF, message: HSF.message.replace('left out (off)', "'off'") },
    ]);
    expect(of('postgres:17', { hot_standby_feedback: 'on', sync_replication_slots: 'off' })).toEqual([
      { ...SRS, message: SRS.message.replace('left out (off)', "'off'") },
    ]);
  });

  test.each([
    ['both settings on with PostgreSQL 17 (the upstream test)', 'postgres:17', { hot_standby_feedback: 'on', sync_replication_slots: 'on' }],
    ['pg_failover_slots (the upstream test)', 'postgres:16', { hot_standby_feedback: 'true', 'pg_failover_slots.synchronize_slot_names': 'name_like:%' }],
    ['booleans as PostgreSQL reads them', 'postgres:18', { hot_standby_feedback: 'TRUE', sync_replication_slots: '1' }],
  ])('accepted: %s', (_what, imageName, parameters) => {
    expect(of(imageName, parameters)).toEqual([]);
  });

  test('accepted: synchronizeLogicalDecoding off (the upstream test)', () => {
    expect(findingsOf('CNPGI333', clusterDoc({ replicationSlots: { highAvailability: { synchronizeLogicalDecoding: false } } }))).toEqual([]);
  });
});
