import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { fixture, ofRule } from '../../helpers';

describe('CNPGI093 kustomization-not-rendered', () => {
  test('a kustomize Kustomization in the input: one warning on it', () => {
    const docs = fixture('good-plugin.yaml');
    docs.push({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: ['cluster.yaml'], patches: [{ path: 'patch.yaml' }] });
    const f = ofRule(analyzeManifests(docs).findings, 'CNPGI093');
    expect(f.map((x) => [x.severity, x.object, x.index, x.message, x.fix])).toEqual([
      [
        'warning',
        `Kustomization (kustomize) document #${docs.length}`,
        docs.length - 1,
        'this kustomize Kustomization was not rendered: the files of its folder were read one by one (its patches left out), not as kustomize builds them',
        'render it and pipe the output: kustomize build DIR | cnpg-i-doctor - (or install kustomize or kubectl for the doctor to run it)',
      ],
    ]);
    // it is not "not a Kubernetes object" as well
    expect(ofRule(analyzeManifests(docs).findings, 'CNPGI090')).toEqual([]);
  });

  test('a Component too', () => {
    const docs = [{ apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component', resources: [] }];
    expect(ofRule(analyzeManifests(docs).findings, 'CNPGI093').map((x) => x.object)).toEqual(['Component (kustomize) document #1']);
  });

  test("near miss: Flux's Kustomization is an object to apply, not a kustomize file", () => {
    const docs = fixture('good-plugin.yaml');
    docs.push({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'apps', namespace: 'flux-system' },
      spec: { interval: '10m', path: './apps', prune: true, sourceRef: { kind: 'GitRepository', name: 'flux-system' } },
    });
    expect(ofRule(analyzeManifests(docs).findings, 'CNPGI093')).toEqual([]);
  });
});
