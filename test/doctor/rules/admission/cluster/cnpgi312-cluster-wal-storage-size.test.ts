/*
 * CNPGI312 cluster-wal-storage-size: the Cluster webhook's validateWalStorageSize as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI312';

describe('CNPGI312 cluster-wal-storage-size', () => {
  test('trips: walStorage without a size (an example from the issue)', () => {
    expect(findingsOf(RULE, cluster({ walStorage: { storageClass: 'fast' } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.walStorage.size',
        message:
          'the Cluster webhook refuses spec.walStorage without a size ("Size not configured. Please add it, or a storage request in the pvcTemplate."): the operator cannot create the volume',
        fix: "set spec.walStorage.size (e.g. '10Gi'), or a storage request in spec.walStorage.pvcTemplate.resources.requests",
      },
    ]);
  });
  test('trips: a size that is no quantity', () => {
    expect(findingsOf(RULE, cluster({ walStorage: { size: 'two gigabytes' } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.walStorage.size',
        message: "the Cluster webhook refuses spec.walStorage size 'two gigabytes' (\"Size value isn't valid\"): it is no Kubernetes quantity",
        fix: "write a quantity such as '10Gi' or '500M'",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['no walStorage', {}, {}],
    ['a size', { walStorage: { size: '2Gi' } }, {}],
    ['a PVC template request', { walStorage: { pvcTemplate: { resources: { requests: { storage: '2Gi' } } } } }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
