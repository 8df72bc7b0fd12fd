import { checkManifests } from '../../../../../src/doctor/check-manifests';
import { ofRule } from '../../../helpers';

function cluster(spec: Record<string, unknown>, annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', namespace: 'app', annotations },
    spec: { instances: 1, storage: { size: '1Gi' }, ...spec },
  };
}

const findings = (...objects: unknown[]) => ofRule(checkManifests(objects), 'CNPGI300');

describe('CNPGI300 cluster-image-pull-policy', () => {
  test.each(['Sometimes', 'always', 'IfNotPresent '])('imagePullPolicy %p is refused', (policy) => {
    expect(findings(cluster({ imagePullPolicy: policy }))).toEqual([
      {
        ruleId: 'CNPGI300',
        ruleName: 'cluster-image-pull-policy',
        severity: 'error',
        object: 'Cluster/app/pg',
        index: 0,
        path: 'spec.imagePullPolicy',
        message: `the Cluster webhook refuses imagePullPolicy ${JSON.stringify(policy)} ("invalid imagePullPolicy, if defined must be one of 'Always', 'Never' or 'IfNotPresent'")`,
        fix: "use Always, Never, IfNotPresent, or leave it out (the kubelet's default for the image's tag)",
      },
    ]);
  });

  test.each(['Always', 'Never', 'IfNotPresent', ''])('imagePullPolicy %p is accepted', (policy) => {
    expect(findings(cluster({ imagePullPolicy: policy }))).toEqual([]);
  });

  test('no policy, validation disabled, or another API group: no finding', () => {
    expect(findings(cluster({}))).toEqual([]);
    expect(findings(cluster({ imagePullPolicy: 'Sometimes' }, { 'cnpg.io/validation': 'disabled' }))).toEqual([]);
    expect(findings({ ...cluster({ imagePullPolicy: 'Sometimes' }), apiVersion: 'example.com/v1' })).toEqual([]);
  });
});
