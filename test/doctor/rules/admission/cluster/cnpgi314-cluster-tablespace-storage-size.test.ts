/*
 * CNPGI314 cluster-tablespace-storage-size: the Cluster webhook's validateTablespaceStorageSize as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI314';

describe('CNPGI314 cluster-tablespace-storage-size', () => {
  test('trips: a tablespace without a size', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          tablespaces: [
            { name: 'data1', storage: { size: '1Gi' } },
            { name: 'data2', storage: { storageClass: 'fast' } },
          ],
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[1].storage.size',
        message:
          'the Cluster webhook refuses tablespace \'data2\' without a size ("Size not configured. Please add it, or a storage request in the pvcTemplate.", at spec.tablespaces[1].size): the operator cannot create the volume',
        fix: "set spec.tablespaces[1].storage.size (e.g. '10Gi'), or a storage request in spec.tablespaces[1].storage.pvcTemplate.resources.requests",
      },
    ]);
  });
  test('trips: a size that is no quantity', () => {
    expect(findingsOf(RULE, cluster({ tablespaces: [{ name: 'data1', storage: { size: '10Gibberish' } }] }))).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[0].storage.size',
        message:
          "the Cluster webhook refuses tablespace 'data1' size '10Gibberish' (\"Size value isn't valid\", at spec.tablespaces[0].size): it is no Kubernetes quantity",
        fix: "write a quantity such as '10Gi' or '500M'",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'sizes',
      {
        tablespaces: [
          { name: 'data1', storage: { size: '1Gi' } },
          { name: 'data2', storage: { size: '500Mi' } },
        ],
      },
      {},
    ],
    ['a PVC template request', { tablespaces: [{ name: 'data1', storage: { pvcTemplate: { resources: { requests: { storage: '5Gi' } } } } }] }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
