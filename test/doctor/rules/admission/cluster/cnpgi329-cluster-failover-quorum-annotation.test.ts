import { clusterDoc, findingsOf } from './webhook-findings';

const FQ = 'alpha.cnpg.io/failoverQuorum';
const of = (value: string, spec: object = {}) => findingsOf('CNPGI329', clusterDoc(spec, { annotations: { [FQ]: value } }));
const synchronous = { postgresql: { synchronous: { method: 'any', number: 1 } } };

describe('CNPGI329 cluster-failover-quorum-annotation', () => {
  test('a value that is no Go boolean (the upstream test)', () => {
    expect(of('toast')).toEqual([
      {
        path: 'metadata.annotations.alpha.cnpg.io/failoverQuorum',
        message:
          "the Cluster webhook refuses alpha.cnpg.io/failoverQuorum: 'toast' (\"Invalid failoverQuorum annotation value, expected boolean.\"): it reads the value with Go's strconv.ParseBool",
        fix: "write 'true' or 'false', or better set spec.postgresql.synchronous.failoverQuorum and remove the annotation",
      },
    ]);
  });

  test('on without synchronous replication (the upstream test)', () => {
    expect(of('t')).toEqual([
      {
        path: 'spec.postgresql.synchronous',
        message:
          'the Cluster webhook refuses alpha.cnpg.io/failoverQuorum: \'t\' without spec.postgresql.synchronous (Required value, "Invalid failoverQuorum configuration: synchronous replication configuration is required."): the quorum counts synchronous replicas',
        fix: 'configure spec.postgresql.synchronous (e.g. { method: any, number: 1 }), or remove the annotation',
      },
    ]);
  });

  test.each(['yes', 'on', 'TRUE ', 'tRuE'])('refused: %p, which PostgreSQL would read but Go does not', (value) => {
    expect(of(value, synchronous).map((f) => f.path)).toEqual(['metadata.annotations.alpha.cnpg.io/failoverQuorum']);
  });

  test.each([
    ['true with synchronous replication', 'true', synchronous],
    ['false without synchronous replication', 'false', {}],
    ['0', '0', {}],
    ['True with synchronous replication', 'True', synchronous],
  ])('accepted: %s', (_what, value, spec) => {
    expect(of(value, spec)).toEqual([]);
  });

  test('accepted: no annotation', () => {
    expect(findingsOf('CNPGI329', clusterDoc())).toEqual([]);
  });
});
