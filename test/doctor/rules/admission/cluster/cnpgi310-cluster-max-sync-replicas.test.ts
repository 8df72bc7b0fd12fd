/*
 * CNPGI310 cluster-max-sync-replicas: the Cluster webhook's validateMaxSyncReplicas as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI310';

describe('CNPGI310 cluster-max-sync-replicas', () => {
  test('trips: equal to instances (an example from the issue)', () => {
    expect(findingsOf(RULE, cluster({ instances: 3, maxSyncReplicas: 3 }))).toEqual([
      {
        severity: 'error',
        path: 'spec.maxSyncReplicas',
        message:
          'the Cluster webhook refuses maxSyncReplicas 3 with 3 instances ("maxSyncReplicas must be lower than the number of instances"): one instance is the primary, so at most 2 can be synchronous replicas',
        fix: 'use at most 2, or run more instances',
      },
    ]);
  });
  test('trips: one with a single instance', () => {
    expect(findingsOf(RULE, cluster({ instances: 1, maxSyncReplicas: 1 }))).toEqual([
      {
        severity: 'error',
        path: 'spec.maxSyncReplicas',
        message:
          'the Cluster webhook refuses maxSyncReplicas 1 with 1 instance ("maxSyncReplicas must be lower than the number of instances"): one instance is the primary, so at most 0 can be synchronous replicas',
        fix: 'run more instances, or leave maxSyncReplicas at 0',
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['one below instances', { instances: 3, maxSyncReplicas: 2 }, {}],
    ['0 with a single instance', { instances: 1, maxSyncReplicas: 0 }, {}],
    ['unset with a single instance', { instances: 1 }, {}],
    // the CRD's minimum refuses instances 0 before the webhook runs: the schema rule reports it alone
    ['unset with instances 0', { instances: 0 }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
