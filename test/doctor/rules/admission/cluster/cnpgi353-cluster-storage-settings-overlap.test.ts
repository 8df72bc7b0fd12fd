import { findingsOf, reported } from './cluster-warnings';

const RULE = 'CNPGI353';

const classes = (section: string) => ({
  severity: 'warning',
  path: `spec.${section}.storageClass`,
  message:
    `is set together with spec.${section}.pvcTemplate.storageClassName; the Cluster webhook warns ` +
    `("spec.${section}.storageClass and spec.${section}.pvcTemplate.storageClassName are both specified, spec.${section}.storageClass value will be used.")`,
  fix: `keep one of them: remove spec.${section}.pvcTemplate.storageClassName (storageClass is the one used), or spec.${section}.storageClass`,
});
const sizes = (section: string) => ({
  severity: 'warning',
  path: `spec.${section}.size`,
  message:
    `is set together with spec.${section}.pvcTemplate.resources.requests.storage; the Cluster webhook warns ` +
    `("spec.${section}.size and spec.${section}.pvcTemplate.resources.requests.storage are both specified, spec.${section}.size value will be used.")`,
  fix: `keep one of them: remove spec.${section}.pvcTemplate.resources.requests.storage (size is the one used), or spec.${section}.size`,
});

describe('CNPGI353 cluster-storage-settings-overlap', () => {
  test('trips: the storage class twice in spec.storage', () => {
    const f = findingsOf(RULE, (s) => (s.storage = { size: '10Gi', storageClass: 'fast', pvcTemplate: { storageClassName: 'fast' } }));
    expect(reported(f)).toEqual([classes('storage')]);
  });

  test('trips: the size twice in spec.storage', () => {
    const f = findingsOf(RULE, (s) => (s.storage = { size: '10Gi', pvcTemplate: { resources: { requests: { storage: '20Gi' } } } }));
    expect(reported(f)).toEqual([sizes('storage')]);
  });

  test('trips: both in spec.walStorage, class first', () => {
    const f = findingsOf(RULE, (s) => {
      s.storage = { size: '10Gi' };
      s.walStorage = { size: '1Gi', storageClass: 'fast', pvcTemplate: { storageClassName: 'slow', resources: { requests: { storage: '2Gi' } } } };
    });
    expect(reported(f)).toEqual([classes('walStorage'), sizes('walStorage')]);
  });

  test.each([
    ['size alone', { size: '10Gi' }],
    ['the PVC template alone', { pvcTemplate: { storageClassName: 'fast', resources: { requests: { storage: '10Gi' } } } }],
    ['a storage class without a PVC template', { size: '10Gi', storageClass: 'fast' }],
    ['the template with only a storage class beside size', { size: '10Gi', pvcTemplate: { storageClassName: 'fast' } }],
    ['a zero storage request beside size', { size: '10Gi', pvcTemplate: { resources: { requests: { storage: '0' } } } }],
    ['storageClass beside a template without a class', { size: '10Gi', storageClass: 'fast', pvcTemplate: { volumeMode: 'Filesystem' } }],
  ])('passes: %s', (_what, storage) => {
    expect(findingsOf(RULE, (s) => (s.storage = storage))).toEqual([]);
  });
});
