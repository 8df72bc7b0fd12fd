import { analyzeManifests } from '../../src/doctor/check-manifests';
import { findOperatorReleases, findOperatorCandidates, isOperatorDeployment } from '../../src/manifests/operator';
import { Doc, doc, fixture, ofRule, summary } from '../doctor/helpers';

describe('operator detection', () => {
  test('the operator Deployment gives the namespace', () => {
    const docs = fixture('good-plugin.yaml');
    for (const d of docs) if (d.metadata.namespace === 'cnpg-system') d.metadata.namespace = 'db-operator';
    const r = analyzeManifests(docs);
    expect(r.operatorNamespace).toBe('db-operator');
    expect(r.findings).toEqual([]);
  });

  test('CNPGI001: no operator and no option assumes cnpg-system, with a warning', () => {
    const docs = fixture('good-plugin.yaml').filter((d) => d.metadata.name !== 'cnpg-controller-manager');
    const r = analyzeManifests(docs);
    expect(r.operatorNamespace).toBe('cnpg-system');
    expect(summary(r.findings)).toEqual(['CNPGI001 warning input']);
    expect(r.findings[0].fix).toBe('pass --operator-namespace <namespace> (operatorNamespace), or include the operator Deployment');
    expect(analyzeManifests(docs, { operatorNamespace: 'cnpg-system' }).findings).toEqual([]);
  });

  test('CNPGI001: operator Deployments in two namespaces', () => {
    const docs = fixture('good-plugin.yaml');
    const copy: Doc = JSON.parse(JSON.stringify(doc(docs, 'Deployment', 'cnpg-controller-manager')));
    copy.metadata.namespace = 'other';
    docs.push(copy);
    const f = ofRule(analyzeManifests(docs).findings, 'CNPGI001');
    expect(f[0].message).toBe("several operator Deployments run in different namespaces ('cnpg-system', 'other'); the checks use 'cnpg-system'");
  });

  test('CNPGI001: an unnamespaced operator Deployment uses the default namespace', () => {
    const docs = fixture('good-plugin.yaml');
    delete doc(docs, 'Deployment', 'cnpg-controller-manager').metadata.namespace;
    expect(analyzeManifests(docs, { defaultNamespace: 'cnpg-system' }).findings).toEqual([]);
    expect(summary(ofRule(analyzeManifests(docs).findings, 'CNPGI001'))).toEqual(['CNPGI001 warning Deployment/cnpg-system/cnpg-controller-manager']);
  });

  test('CNPGI002: manager without OPERATOR_NAMESPACE', () => {
    const docs = fixture('good-plugin.yaml');
    doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0].env = [];
    const f = ofRule(analyzeManifests(docs).findings, 'CNPGI002');
    expect(summary(f)).toEqual(['CNPGI002 error Deployment/cnpg-system/cnpg-controller-manager']);
  });

  test('CNPGI002: without OPERATOR_NAMESPACE no plugin Service is discovered, so the Clusters that use them fail', () => {
    const docs = fixture('good-plugin.yaml');
    expect(analyzeManifests(docs).plugins.map((p) => p.source)).toContain('service');
    doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0].env = [];
    const r = analyzeManifests(docs);
    expect(r.plugins.filter((p) => p.source === 'service')).toEqual([]);
    expect(ofRule(r.findings, 'CNPGI040').length).toBeGreaterThan(0);
    expect(ofRule(r.findings, 'CNPGI040').every((x) => x.severity === 'error')).toBe(true);
  });

  test('isOperatorDeployment needs a manager container', () => {
    expect(
      isOperatorDeployment({
        kind: 'Deployment',
        spec: { template: { metadata: { labels: { 'app.kubernetes.io/name': 'cloudnative-pg' } }, spec: { containers: [{ name: 'x' }] } } },
      }),
    ).toBe(false);
    expect(
      isOperatorDeployment({
        kind: 'Deployment',
        spec: { template: { spec: { containers: [{ name: 'manager', image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0' }] } } },
      }),
    ).toBe(true);
    expect(isOperatorDeployment({ kind: 'StatefulSet' })).toBe(false);
  });

  test('findOperatorCandidates looks inside Lists and survives junk', () => {
    const dep = doc(fixture('good-plugin.yaml'), 'Deployment', 'cnpg-controller-manager');
    expect(findOperatorCandidates([null, 3, 'x', [dep], { kind: 'List', items: [dep, null] }]).map((c) => c.index)).toEqual([4]);
  });
});

describe('findOperatorReleases', () => {
  const helmRelease = (extra: Record<string, unknown> = {}) => ({
    apiVersion: 'helm.toolkit.fluxcd.io/v2',
    kind: 'HelmRelease',
    metadata: { name: 'cloudnative-pg', namespace: 'database' },
    spec: { chart: { spec: { chart: 'cloudnative-pg', sourceRef: { kind: 'HelmRepository', name: 'cnpg' } } }, ...extra },
  });

  test('a Flux HelmRelease of the chart: its targetNamespace, else its own; an Argo CD Application: its destination', () => {
    expect(findOperatorReleases([helmRelease()]).map((r) => [r.ref, r.namespace])).toEqual([['HelmRelease/database/cloudnative-pg', 'database']]);
    expect(findOperatorReleases([helmRelease({ targetNamespace: 'cnpg' })])[0].namespace).toBe('cnpg');
    const app = {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'cnpg', namespace: 'argocd' },
      spec: { sources: [{ repoURL: 'https://cloudnative-pg.github.io/charts', chart: 'cloudnative-pg' }], destination: { namespace: 'cnpg-operator' } },
    };
    expect(findOperatorReleases([app]).map((r) => [r.ref, r.namespace])).toEqual([['Application/argocd/cnpg', 'cnpg-operator']]);
  });

  test("the chart's namespaceOverride value wins: HelmRelease values, Application parameters or valuesObject", () => {
    const values = (v: unknown) => findOperatorReleases([helmRelease({ targetNamespace: 'cnpg', values: v })])[0].namespace;
    expect(values({ namespaceOverride: 'cnpg-system' })).toBe('cnpg-system');
    // near misses: the chart's default (empty) and another value leave the release namespace
    expect(values({ namespaceOverride: '' })).toBe('cnpg');
    expect(values({ fullnameOverride: 'x' })).toBe('cnpg');
    const app = (helm: unknown) => ({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'cnpg', namespace: 'argocd' },
      spec: { source: { repoURL: 'https://cloudnative-pg.github.io/charts', chart: 'cloudnative-pg', helm }, destination: { namespace: 'cnpg-operator' } },
    });
    expect(findOperatorReleases([app({ parameters: [{ name: 'namespaceOverride', value: 'ops' }] })])[0].namespace).toBe('ops');
    expect(findOperatorReleases([app({ valuesObject: { namespaceOverride: 'ops2' } })])[0].namespace).toBe('ops2');
    expect(findOperatorReleases([app({ parameters: [{ name: 'replicaCount', value: '2' }] })])[0].namespace).toBe('cnpg-operator');
  });

  test('near misses: another chart, another API group', () => {
    expect(findOperatorReleases([{ ...helmRelease(), spec: { chart: { spec: { chart: 'cluster' } } } }])).toEqual([]);
    expect(findOperatorReleases([{ ...helmRelease(), apiVersion: 'example.com/v1' }])).toEqual([]);
  });
});
