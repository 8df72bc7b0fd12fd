import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { ofRule } from '../../helpers';

describe('the operator namespace from a release of its Helm chart', () => {
  test('a HelmRelease of the chart in the input is where the operator runs: its plugin Service there is discovered', () => {
    const release = {
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      kind: 'HelmRelease',
      metadata: { name: 'cloudnative-pg', namespace: 'database' },
      spec: { chart: { spec: { chart: 'cloudnative-pg' } } },
    };
    const withRelease = analyzeManifests([release]);
    expect(withRelease.operatorNamespace).toBe('database');
    expect(ofRule(withRelease.findings, 'CNPGI001')).toEqual([]);
    // without it, the namespace is assumed, with CNPGI001's warning
    const without = analyzeManifests([]);
    expect(without.operatorNamespace).toBe('cnpg-system');
    expect(ofRule(without.findings, 'CNPGI001')).toHaveLength(1);
    // an option still wins
    expect(analyzeManifests([release], { operatorNamespace: 'ops' }).operatorNamespace).toBe('ops');
  });
});
