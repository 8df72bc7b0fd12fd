import { clusterDoc, findingsOf } from './webhook-findings';

const of = (instances: number, synchronous: object) =>
  findingsOf('CNPGI330', clusterDoc({ instances, postgresql: { synchronous: { method: 'any', ...synchronous } } }));

describe('CNPGI330 cluster-failover-quorum', () => {
  test('as many standby names as synchronous replicas (the upstream test)', () => {
    expect(of(3, { number: 1, standbyNamesPre: ['one', 'two'], standbyNamesPost: ['three', 'four'], failoverQuorum: true })).toEqual([
      {
        path: 'spec.postgresql.synchronous.number',
        message:
          'the Cluster webhook refuses failoverQuorum with synchronous.number 1, not above the standby names listed (4) ("Invalid failoverQuorum configuration: spec.postgresql.synchronous.number must be greater than the total number of instances in spec.postgresql.synchronous.standbyNamesPre and spec.postgresql.synchronous.standbyNamesPost to allow automatic failover.")',
        fix: 'set synchronous.number to at least 5, or turn failoverQuorum off',
      },
    ]);
  });

  test('equal counts', () => {
    expect(of(3, { number: 2, standbyNamesPre: ['a'], standbyNamesPost: ['b'], failoverQuorum: true }).map((f) => f.fix)).toEqual([
      'set synchronous.number to at least 3, or turn failoverQuorum off',
    ]);
  });

  test.each([
    ['two instances (the upstream test)', 2, { number: 1, failoverQuorum: true }],
    ['three instances (the upstream test)', 3, { number: 1, failoverQuorum: true }],
    ['more replicas than standby names', 3, { number: 2, standbyNamesPre: ['a'], failoverQuorum: true }],
    ['the quorum off', 3, { number: 1, standbyNamesPre: ['a', 'b'], failoverQuorum: false }],
  ])('accepted: %s', (_what, instances, synchronous) => {
    expect(of(instances, synchronous)).toEqual([]);
  });
});
