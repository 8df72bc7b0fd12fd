/*
 * Minimal reproductions, written here, of the classes of false errors the corpus measurement
 * found (docs/development/corpus.md): each case failed before its fix, and its near miss shows
 * what still is an error.
 */
import { analyzeManifests } from '../../src/doctor/check-manifests';
import { DoctorOptions } from '../../src/doctor/report';
import { Doc } from './helpers';

/** `rule severity object: message` of every finding. */
function run(objects: Doc[], options: DoctorOptions = { operatorNamespace: 'cnpg-system' }): string[] {
  return analyzeManifests(objects, options).findings.map((f) => `${f.ruleId} ${f.severity} ${f.object}: ${f.message}`);
}

describe('a kustomize builtin plugin configuration (apiVersion: builtin) is not an object to judge', () => {
  // a transformer configuration whose namespace is a placeholder that a kustomization patches
  const transformer = {
    apiVersion: 'builtin',
    kind: 'NamespaceTransformer',
    metadata: { name: 'apply-ns', namespace: '.invalid' },
    unsetOnly: false,
    fieldSpecs: [{ path: 'metadata/name', kind: 'Namespace', create: true }],
  };
  test('it is skipped as not a Kubernetes object, with the reason, and no schema error', () => {
    expect(run([transformer])).toEqual([
      'CNPGI090 warning document #1: not a Kubernetes object (a kustomize builtin NamespaceTransformer configuration (apiVersion: builtin), which kustomize runs and never applies); skipped',
    ]);
  });
  test('near miss: an object of a real API version with that namespace is still refused', () => {
    const found = run([{ ...transformer, apiVersion: 'v1', kind: 'ConfigMap' }]);
    expect(found.filter((l) => l.startsWith('CNPGI063 error'))).toHaveLength(1);
  });
});

describe('a label value that is not a string says what kubectl and Flux do with it', () => {
  // a Flux Kustomization (ks.yaml) written with an unquoted boolean label, as the corpus has it
  const ks = (value: unknown) => ({
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name: 'app', namespace: 'flux-system', labels: { 'substitution.flux/enabled': value, team: 'db' } },
    spec: { path: './apps/app', sourceRef: { kind: 'GitRepository', name: 'repo' }, interval: '1h', prune: true },
  });
  test('an error that names both outcomes: refused by the API server, applied by Flux without its labels', () => {
    expect(run([ks(true)]).filter((l) => l.startsWith('CNPGI063'))).toEqual([
      'CNPGI063 error Kustomization/flux-system/app: metadata.labels["substitution.flux/enabled"] true must be a string: the API server refuses the object, and Flux\'s kustomize-controller applies it without any of its own labels',
    ]);
  });
  test('near miss: the quoted value passes', () => {
    expect(run([ks('true')]).filter((l) => l.startsWith('CNPGI063'))).toEqual([]);
  });
});
