import { clusterDoc, findingsOf } from './webhook-findings';

const of = (instances: number, synchronous: object) =>
  findingsOf('CNPGI328', clusterDoc({ instances, postgresql: { synchronous: { method: 'any', ...synchronous } } }));
const TEXT =
  '"Invalid synchronous configuration: the number of synchronous replicas must be less than the total number of instances and the provided standby names."';

describe('CNPGI328 cluster-synchronous-replicas', () => {
  test("as many synchronous replicas as instances (the issue's example)", () => {
    expect(of(3, { number: 3 })).toEqual([
      {
        path: 'spec.postgresql.synchronous.number',
        message: `the Cluster webhook refuses synchronous.number 3, not below spec.instances (3) plus the standby names listed (0) (${TEXT}): one of the instances is the primary, which cannot be its own synchronous replica`,
        fix: 'set synchronous.number to at most 2, or raise spec.instances',
      },
    ]);
  });

  test('more than the instances and the standby names (the upstream tests)', () => {
    expect(of(2, { number: 5, standbyNamesPost: ['standby1'], standbyNamesPre: ['standby2'] }).map((f) => f.fix)).toEqual([
      'set synchronous.number to at most 3, or raise spec.instances',
    ]);
    expect(of(3, { number: 5, standbyNamesPost: ['standby1'], standbyNamesPre: ['standby2'] }).map((f) => f.path)).toEqual([
      'spec.postgresql.synchronous.number',
    ]);
  });

  test('a single instance', () => {
    expect(of(1, { number: 1 })).toEqual([
      {
        path: 'spec.postgresql.synchronous.number',
        message: `the Cluster webhook refuses synchronous.number 1, not below spec.instances (1) plus the standby names listed (0) (${TEXT}): one of the instances is the primary, which cannot be its own synchronous replica`,
        fix: 'raise spec.instances to 2 or more, or remove spec.postgresql.synchronous',
      },
    ]);
  });

  test.each([
    ['one fewer than the instances', 3, { number: 2 }],
    ['the standby names count (the upstream test)', 2, { number: 2, standbyNamesPost: ['standby1'], standbyNamesPre: ['standby2'] }],
    ['one replica of two instances', 2, { number: 1 }],
  ])('accepted: %s', (_what, instances, synchronous) => {
    expect(of(instances, synchronous)).toEqual([]);
  });

  test('accepted: no synchronous stanza (the upstream test)', () => {
    expect(findingsOf('CNPGI328', clusterDoc({ instances: 1, postgresql: {} }))).toEqual([]);
  });
});
