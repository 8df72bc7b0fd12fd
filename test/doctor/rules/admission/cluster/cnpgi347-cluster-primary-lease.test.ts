import { clusterFindings } from '../cluster-findings';

const run = (primaryLease: object) => clusterFindings('CNPGI347', (c) => (c.spec.primaryLease = primaryLease));

describe('CNPGI347 cluster-primary-lease', () => {
  test('a lease no longer than its renew deadline', () => {
    expect(run({ leaseDurationSeconds: 10, renewDeadlineSeconds: 10 })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses a lease of 10s with a renew deadline of 10s ("leaseDurationSeconds must be greater than renewDeadlineSeconds"): the primary must renew its lease before it expires',
        fix: 'make leaseDurationSeconds greater than 10, or lower renewDeadlineSeconds',
        path: 'spec.primaryLease.leaseDurationSeconds',
      },
    ]);
    // The default lease is 15 seconds.
    expect(run({ renewDeadlineSeconds: 20 }).map((f) => f.path)).toEqual(['spec.primaryLease.leaseDurationSeconds']);
  });

  test('a renew deadline of at most 1.2 retry periods', () => {
    expect(run({ leaseDurationSeconds: 15, renewDeadlineSeconds: 12, retryPeriodSeconds: 10 })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses a renew deadline of 12s with a retry period of 10s ("renewDeadlineSeconds must be greater than retryPeriodSeconds multiplied by 1.2"): the primary must get to retry the renewal before the deadline',
        fix: 'make renewDeadlineSeconds greater than 12, or lower retryPeriodSeconds',
        path: 'spec.primaryLease.renewDeadlineSeconds',
      },
    ]);
    expect(run({ retryPeriodSeconds: 9 }).map((f) => f.path)).toEqual(['spec.primaryLease.renewDeadlineSeconds']);
  });

  test('near misses the webhook accepts', () => {
    expect(run({})).toEqual([]);
    expect(run({ leaseDurationSeconds: 15, renewDeadlineSeconds: 13, retryPeriodSeconds: 10 })).toEqual([]);
    expect(run({ leaseDurationSeconds: 11, renewDeadlineSeconds: 10 })).toEqual([]);
    expect(run({ renewDeadlineSeconds: 8 })).toEqual([]);
    expect(run({ leaseDurationSeconds: 60, renewDeadlineSeconds: 40, retryPeriodSeconds: 15, releasedLeaseDurationSeconds: 2 })).toEqual([]);
  });
});
