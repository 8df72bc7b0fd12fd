import { clusterDoc, findingsOf } from './webhook-findings';

const withTolerations = (...tolerations: object[]) => clusterDoc({ affinity: { tolerations } });
const of = (...tolerations: object[]) => findingsOf('CNPGI320', withTolerations(...tolerations));

describe('CNPGI320 cluster-tolerations', () => {
  test('a key that is no label key: one finding per problem Kubernetes names', () => {
    expect(of({ key: 'a/b/c', operator: 'Exists' })).toEqual([
      {
        path: 'spec.affinity.tolerations[0].key',
        message:
          "the Cluster webhook refuses the key 'a/b/c' of toleration 0 (\"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')\"): a taint's key is a label key",
        fix: "write the taint's key, e.g. 'dedicated' or 'node-role.kubernetes.io/postgres'",
      },
    ]);
    expect(of({ key: '/x', operator: 'Exists' }).map((f) => f.message)).toEqual([
      "the Cluster webhook refuses the key '/x' of toleration 0 (\"prefix part must be non-empty\"): a taint's key is a label key",
    ]);
  });

  test('no key with operator Equal (the upstream test)', () => {
    expect(of({ key: '', operator: 'Equal', effect: 'NoSchedule' })).toEqual([
      {
        path: 'spec.affinity.tolerations[0].operator',
        message:
          'the Cluster webhook refuses toleration 0: it has no key and its operator is \'Equal\' ("operator must be Exists when `key` is empty, which means \\"match all values and all keys\\"")',
        fix: "name the taint's key, or use operator: Exists to tolerate every taint",
      },
    ]);
  });

  test('tolerationSeconds with an effect other than NoExecute', () => {
    expect(of({ key: 'dedicated', operator: 'Equal', value: 'pg', effect: 'NoSchedule', tolerationSeconds: 60 })).toEqual([
      {
        path: 'spec.affinity.tolerations[0].effect',
        message:
          "the Cluster webhook refuses tolerationSeconds on toleration 0, whose effect is 'NoSchedule' (\"effect must be 'NoExecute' when `tolerationSeconds` is set\"): only a NoExecute taint evicts a running Pod, so only it has a time to wait",
        fix: 'use effect: NoExecute, or leave tolerationSeconds out',
      },
    ]);
  });

  test('a value with operator Exists, and a value that is no label value', () => {
    expect(of({ key: 'dedicated', operator: 'Exists', value: 'pg' })).toEqual([
      {
        path: 'spec.affinity.tolerations[0].value',
        message: "the Cluster webhook refuses toleration 0: its operator is Exists and its value is 'pg' (\"value must be empty when `operator` is 'Exists'\")",
        fix: 'leave value out with operator: Exists, or use operator: Equal to match that value',
      },
    ]);
    expect(of({ key: 'dedicated', value: 'postgres db' })).toEqual([
      {
        path: 'spec.affinity.tolerations[0].value',
        message:
          "the Cluster webhook refuses the value 'postgres db' of toleration 0 (\"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\"): a taint's value is a label value",
        fix: "write the taint's value, e.g. 'postgres'",
      },
    ]);
  });

  test('an unknown operator or effect, on the second toleration', () => {
    expect(of({ key: 'a', operator: 'Exists' }, { key: 'dedicated', operator: 'In', value: 'pg', effect: 'Never' })).toEqual([
      {
        path: 'spec.affinity.tolerations[1].operator',
        message: 'the Cluster webhook refuses the operator \'In\' of toleration 1 (Unsupported value; supported values: "Equal", "Exists")',
        fix: 'use operator: Equal (with a value) or operator: Exists',
      },
      {
        path: 'spec.affinity.tolerations[1].effect',
        message:
          'the Cluster webhook refuses the effect \'Never\' of toleration 1 (Unsupported value; supported values: "NoSchedule", "PreferNoSchedule", "NoExecute")',
        fix: 'use NoSchedule, PreferNoSchedule or NoExecute, or leave effect out to tolerate every effect',
      },
    ]);
  });

  test.each([
    ['a key with Exists (the upstream test)', { key: 'test', operator: 'Exists', effect: 'NoSchedule' }],
    ['no key with Exists: every taint', { operator: 'Exists' }],
    ['tolerationSeconds with NoExecute', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
    ['no operator (Equal) with a label value', { key: 'dedicated', value: 'postgres', effect: 'PreferNoSchedule' }],
    ['Equal with an empty value', { key: 'dedicated', operator: 'Equal', value: '' }],
    ['no effect: every effect', { key: 'example.com/Team_1', operator: 'Equal', value: 'A.b-c_9' }],
    ['a name part of 63 characters', { key: `example.com/${'k'.repeat(63)}`, operator: 'Exists' }],
  ])('accepted: %s', (_what, toleration) => {
    expect(of(toleration)).toEqual([]);
  });
});
