import { clusterFindings } from '../cluster-findings';

const APP = { name: 'app-pods', selector: { matchLabels: { app: 'myapp' } } };
const run = (podSelectorRefs: unknown[], pgHba: string[] = []) =>
  clusterFindings('CNPGI344', (c) => {
    c.spec.podSelectorRefs = podSelectorRefs;
    c.spec.postgresql = { pg_hba: pgHba };
  });

describe('CNPGI344 cluster-pod-selector-refs', () => {
  test('a pg_hba line naming an unknown selector', () => {
    expect(run([APP], ['hostssl mydb myuser ${podselector:undefined-ref} scram-sha-256'])).toEqual([
      {
        severity: 'error',
        message:
          "the Cluster webhook refuses the pg_hba line 'hostssl mydb myuser ${podselector:undefined-ref} scram-sha-256' (\"pod selector not found: undefined-ref\"): no entry of spec.podSelectorRefs is named 'undefined-ref'",
        fix: "add a spec.podSelectorRefs entry named 'undefined-ref', or refer to one that exists",
        path: 'spec.postgresql.pg_hba[0]',
      },
    ]);
    expect(run([APP], ['host all all ${ip:app-pods} md5'])[0].message).toContain('("unknown descriptor type: ip")');
    expect(run([APP, { ...APP, name: 'b' }], ['host all all ${podselector:app-pods} ${podselector:b} md5'])[0].message).toContain(
      '("at most one podselector reference is allowed per line")',
    );
  });

  test('a repeated name and invalid selectors', () => {
    expect(run([APP, { name: 'app-pods', selector: { matchExpressions: [{ key: 'app', operator: 'InvalidOperator' }] } }])).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses a second pod selector named \'app-pods\' (Duplicate value: "app-pods"): pg_hba lines refer to pod selectors by name',
        fix: 'rename one of the two selectors, or merge them',
        path: 'spec.podSelectorRefs[1].name',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses the operator \'InvalidOperator\' of this pod selector expression ("not a valid selector operator")',
        fix: 'use In, NotIn, Exists or DoesNotExist',
        path: 'spec.podSelectorRefs[1].selector.matchExpressions[0].operator',
      },
    ]);
    expect(
      run([
        {
          name: 'x',
          selector: {
            matchLabels: { 'bad key!': 'v', ok: 'bad value!' },
            matchExpressions: [
              { key: 'a', operator: 'In' },
              { key: 'b', operator: 'Exists', values: ['x'] },
              { key: '-c', operator: 'NotIn', values: ['ok', '-bad'] },
            ],
          },
        },
      ]).map((f) => f.path),
    ).toEqual([
      'spec.podSelectorRefs[0].selector.matchLabels.bad key!',
      'spec.podSelectorRefs[0].selector.matchLabels.ok',
      'spec.podSelectorRefs[0].selector.matchExpressions[0].values',
      'spec.podSelectorRefs[0].selector.matchExpressions[1].values',
      'spec.podSelectorRefs[0].selector.matchExpressions[2].key',
      'spec.podSelectorRefs[0].selector.matchExpressions[2].values[1]',
    ]);
  });

  test('near misses the webhook accepts', () => {
    expect(run([APP], ['hostssl mydb myuser ${podselector:app-pods} scram-sha-256', 'host all all 10.0.0.0/8 md5', 'host all all $podselector:x md5'])).toEqual(
      [],
    );
    expect(
      run([
        {
          name: 'labels',
          selector: {
            matchLabels: { 'app.kubernetes.io/name': 'web', tier: '' },
            matchExpressions: [
              { key: 'env', operator: 'In', values: ['prod', 'staging'] },
              { key: 'example.com/canary', operator: 'DoesNotExist' },
            ],
          },
        },
        { name: 'all', selector: {} },
      ]),
    ).toEqual([]);
    expect(run([])).toEqual([]);
  });
});
