/*
 * CNPGI309 cluster-min-sync-replicas: the Cluster webhook's validateMinSyncReplicas as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI309';

describe('CNPGI309 cluster-min-sync-replicas', () => {
  test('trips: above maxSyncReplicas', () => {
    expect(findingsOf(RULE, cluster({ minSyncReplicas: 2, maxSyncReplicas: 1 }))).toEqual([
      {
        severity: 'error',
        path: 'spec.minSyncReplicas',
        message: 'the Cluster webhook refuses minSyncReplicas 2 above maxSyncReplicas 1 ("minSyncReplicas cannot be greater than maxSyncReplicas")',
        fix: 'lower minSyncReplicas to at most 1, or raise maxSyncReplicas (below the number of instances)',
      },
    ]);
  });
  test('trips: above the default maxSyncReplicas of 0', () => {
    expect(findingsOf(RULE, cluster({ minSyncReplicas: 1 }))).toEqual([
      {
        severity: 'error',
        path: 'spec.minSyncReplicas',
        message: 'the Cluster webhook refuses minSyncReplicas 1 above maxSyncReplicas 0 ("minSyncReplicas cannot be greater than maxSyncReplicas")',
        fix: 'lower minSyncReplicas to at most 0, or raise maxSyncReplicas (below the number of instances)',
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['below maxSyncReplicas', { minSyncReplicas: 1, maxSyncReplicas: 2 }, {}],
    ['equal to maxSyncReplicas', { minSyncReplicas: 1, maxSyncReplicas: 1 }, {}],
    ['neither set', {}, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
