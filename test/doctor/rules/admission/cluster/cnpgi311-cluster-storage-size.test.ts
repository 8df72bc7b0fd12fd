/*
 * CNPGI311 cluster-storage-size: the Cluster webhook's validateStorageSize as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI311';

describe('CNPGI311 cluster-storage-size', () => {
  test('trips: no storage (an example from the issue)', () => {
    expect(findingsOf(RULE, cluster({ storage: undefined }))).toEqual([
      {
        severity: 'error',
        path: 'spec.storage.size',
        message:
          'the Cluster webhook refuses spec.storage without a size ("Size not configured. Please add it, or a storage request in the pvcTemplate."): the operator cannot create the volume',
        fix: "set spec.storage.size (e.g. '10Gi'), or a storage request in spec.storage.pvcTemplate.resources.requests",
      },
    ]);
  });
  test('trips: a size that is no quantity', () => {
    expect(findingsOf(RULE, cluster({ storage: { size: '10GB' } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.storage.size',
        message: "the Cluster webhook refuses spec.storage size '10GB' (\"Size value isn't valid\"): it is no Kubernetes quantity",
        fix: "write a quantity such as '10Gi' or '500M'",
      },
    ]);
  });
  test('trips: a PVC template without a storage request', () => {
    expect(findingsOf(RULE, cluster({ storage: { pvcTemplate: { accessModes: ['ReadWriteOnce'] } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.storage.size',
        message:
          'the Cluster webhook refuses spec.storage without a size ("Size not configured. Please add it, or a storage request in the pvcTemplate."): the operator cannot create the volume',
        fix: "set spec.storage.size (e.g. '10Gi'), or a storage request in spec.storage.pvcTemplate.resources.requests",
      },
    ]);
  });
  test('trips: a PVC template requesting 0', () => {
    expect(findingsOf(RULE, cluster({ storage: { pvcTemplate: { resources: { requests: { storage: '0Gi' } } } } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.storage.size',
        message:
          'the Cluster webhook refuses spec.storage without a size ("Size not configured. Please add it, or a storage request in the pvcTemplate."): the operator cannot create the volume',
        fix: "set spec.storage.size (e.g. '10Gi'), or a storage request in spec.storage.pvcTemplate.resources.requests",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a size', { storage: { size: '20Gi' } }, {}],
    ['a decimal size', { storage: { size: '1.5G' } }, {}],
    ['a PVC template request', { storage: { pvcTemplate: { resources: { requests: { storage: '5Gi' } } } } }, {}],
    ['a PVC template request as a number of bytes', { storage: { pvcTemplate: { resources: { requests: { storage: 1073741824 } } } } }, {}],
    ['a size and a storage class', { storage: { size: '1Gi', storageClass: 'fast' } }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
