import * as path from 'path';
import { FluxInputDocument, fluxKustomizationsOf, renderFlux, withKustomizeNamespace } from '../../src/manifests/flux-kustomizations';

const ROOT = path.join(path.sep, 'repo');

function ks(name: string, specPath: string, postBuild?: object, apiVersion = 'kustomize.toolkit.fluxcd.io/v1'): FluxInputDocument {
  return {
    value: { apiVersion, kind: 'Kustomization', metadata: { name, namespace: 'flux-system' }, spec: { path: specPath, ...(postBuild ? { postBuild } : {}) } },
    location: path.join(ROOT, 'clusters', `${name}.yaml`),
    shown: `clusters/${name}.yaml:1`,
  };
}

function obj(file: string, data: Record<string, unknown>, extra: object = {}): FluxInputDocument {
  return { value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', ...extra }, data }, location: path.join(ROOT, file), shown: `${file}:1` };
}

const dataOf = (v: unknown) => (v as { data: unknown }).data;

describe('renderFlux', () => {
  test('the deepest spec.path wins; a Kustomization without postBuild renders nothing', () => {
    const docs = [
      ks('all', './', { substitute: { A: 'outer' } }),
      ks('app', './apps/app', { substitute: { A: 'inner' } }),
      ks('raw', './raw'),
      obj('apps/app/a.yaml', { v: '${A}' }),
      obj('apps/b.yaml', { v: '${A}' }),
      obj('raw/c.yaml', { v: '${A}' }),
    ];
    const r = renderFlux(docs, { vars: new Map(), root: ROOT });
    expect(r.values.slice(3).map(dataOf)).toEqual([{ v: 'inner' }, { v: 'outer' }, { v: '${A}' }]);
    expect(r.notices).toEqual([]);
  });

  test('v1beta2 too; the same names in another folder are not matched', () => {
    const docs = [
      ks('app', 'apps', { substitute: { A: '1' } }, 'kustomize.toolkit.fluxcd.io/v1beta2'),
      obj('apps/a.yaml', { v: '${A}' }),
      obj('appsx/a.yaml', { v: '${A}' }),
    ];
    expect(renderFlux(docs, { vars: new Map(), root: ROOT }).values.slice(1).map(dataOf)).toEqual([{ v: 1 }, { v: '${A}' }]);
  });

  test('substituteFrom in order, substitute over it, the command line under both', () => {
    const docs = [
      ks('app', './apps', {
        substitute: { C: 'inline' },
        substituteFrom: [
          { kind: 'ConfigMap', name: 'one' },
          { kind: 'Secret', name: 'two' },
        ],
      }),
      {
        value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', namespace: 'flux-system' }, data: { A: 'cm', B: 'cm', C: 'cm' } },
        shown: 'one',
      },
      { value: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'two', namespace: 'flux-system' }, stringData: { B: 'secret' } }, shown: 'two' },
      // a ConfigMap of that name in another namespace is not the one Flux reads
      { value: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'one', namespace: 'other' }, data: { D: 'wrong' } }, shown: 'other' },
      obj('apps/a.yaml', { v: '${A}/${B}/${C}/${D}/${E}' }),
    ];
    const r = renderFlux(docs, {
      vars: new Map([
        ['A', 'cli'],
        ['E', 'cli'],
      ]),
      root: ROOT,
    });
    expect(dataOf(r.values[4])).toEqual({ v: 'cm/secret/inline/${D}/cli' });
  });

  test('a missing optional source is empty; a missing required one keeps defaults unrendered, with a notice', () => {
    const optional = [
      ks('app', './apps', { substituteFrom: [{ kind: 'ConfigMap', name: 'gone', optional: true }], substituteStrategy: 'Always' }),
      obj('apps/a.yaml', { v: '${N:=2}' }),
    ];
    expect(renderFlux(optional, { vars: new Map(), root: ROOT })).toEqual({
      values: [optional[0].value, { ...(optional[1].value as object), data: { v: 2 } }],
      notices: [],
    });
    const required = [ks('app', './apps', { substituteFrom: [{ kind: 'ConfigMap', name: 'gone' }] }), obj('apps/a.yaml', { v: '${N:=2}' })];
    const r = renderFlux(required, { vars: new Map(), root: ROOT });
    expect(dataOf(r.values[1])).toEqual({ v: '${N:=2}' });
    expect(r.notices).toEqual([
      'Kustomization/flux-system/app: postBuild.substituteFrom ConfigMap/flux-system/gone is not in the input; the variables it gives are unknown (give them with --var or --vars-from), and Flux fails the build if it does not exist',
    ]);
  });

  test('no variable and no Always: nothing is substituted, defaults included', () => {
    const docs = [ks('app', './apps', { substitute: {} }), obj('apps/a.yaml', { v: '${N:=2}' })];
    expect(dataOf(renderFlux(docs, { vars: new Map(), root: ROOT }).values[1])).toEqual({ v: '${N:=2}' });
  });

  test('a name Flux refuses: the objects stay unrendered, with a notice', () => {
    const docs = [ks('app', './apps', { substitute: { 'my-var': '1', A: '1' } }), obj('apps/a.yaml', { v: '${A}' })];
    const r = renderFlux(docs, { vars: new Map(), root: ROOT });
    expect(dataOf(r.values[1])).toEqual({ v: '${A}' });
    expect(r.notices).toEqual([
      "Kustomization/flux-system/app: Flux refuses its postBuild: variable name 'my-var' is invalid (Flux accepts ^[_A-Za-z][_A-Za-z0-9]*$); its objects are read unrendered",
    ]);
  });

  test('a SOPS-encrypted source is unknown', () => {
    const docs = [
      ks('app', './apps', { substituteFrom: [{ kind: 'Secret', name: 's' }] }),
      {
        value: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'flux-system' }, data: { A: 'ENC[AES256_GCM,data:x]' }, sops: {} },
        shown: 's.yaml:1',
      },
      obj('apps/a.yaml', { v: '${A}' }),
    ];
    const r = renderFlux(docs, { vars: new Map(), root: ROOT });
    expect(dataOf(r.values[2])).toEqual({ v: '${A}' });
    expect(r.notices).toEqual([
      'Kustomization/flux-system/app: postBuild.substituteFrom Secret/flux-system/s is SOPS-encrypted; the variables it gives are unknown (give them with --var or --vars-from)',
    ]);
  });

  test('a substitution Flux fails on: a notice, the document unrendered', () => {
    const docs = [obj('a.yaml', { v: '${A}' })];
    const r = renderFlux(docs, { vars: new Map([['A', 'a: b']]), root: ROOT });
    expect(r.values[0]).toBe(docs[0].value);
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(/^a\.yaml:1: Flux's substitution fails here \(the substituted YAML does not parse/);
  });

  test('without a root, no document is matched to a Kustomization; the command line still applies', () => {
    const docs = [ks('app', './apps', { substitute: { A: 'ks' } }), obj('apps/a.yaml', { v: '${A}' })];
    expect(dataOf(renderFlux(docs, { vars: new Map() }).values[1])).toEqual({ v: '${A}' });
    expect(dataOf(renderFlux(docs, { vars: new Map([['A', 'cli']]) }).values[1])).toEqual({ v: 'cli' });
  });

  test('spec.targetNamespace: set on the namespaced objects of its spec.path, before the substitution; other folders untouched', () => {
    const target: FluxInputDocument = {
      value: {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'app', namespace: 'flux-system' },
        spec: { path: './apps/app', targetNamespace: 'db', postBuild: { substitute: { NS: 'x' } } },
      },
      location: path.join(ROOT, 'clusters', 'app.yaml'),
      shown: 'clusters/app.yaml:1',
    };
    const docs = [target, obj('apps/app/a.yaml', { v: '${NS}' }, { namespace: 'written' }), obj('apps/other/b.yaml', { v: '1' })];
    const r = renderFlux(docs, { vars: new Map(), root: ROOT });
    expect(r.values[1]).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'db' }, data: { v: 'x' } });
    expect(r.values[2]).toBe(docs[2].value);
    // without targetNamespace the written namespace stays
    const plain = renderFlux([ks('app', './apps/app'), docs[1]], { vars: new Map(), root: ROOT });
    expect(plain.values[1]).toBe(docs[1].value);
  });

  test("kustomize's namespace filter: namespaced kinds, a Namespace's name, subjects named default; cluster-scoped kinds untouched", () => {
    expect(withKustomizeNamespace({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: '_' } }, 'db')).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'db' },
    });
    const crole = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r' } };
    expect(withKustomizeNamespace(crole, 'db')).toBe(crole);
    const binding = withKustomizeNamespace(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'b' },
        subjects: [
          { kind: 'ServiceAccount', name: 'default', namespace: 'x' },
          { kind: 'ServiceAccount', name: 'cnpg-manager', namespace: 'x' },
        ],
      },
      'db',
    ) as { metadata: object; subjects: object[] };
    expect(binding.metadata).toEqual({ name: 'b' });
    expect(binding.subjects).toEqual([
      { kind: 'ServiceAccount', name: 'default', namespace: 'db' },
      { kind: 'ServiceAccount', name: 'cnpg-manager', namespace: 'x' },
    ]);
    expect(withKustomizeNamespace({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg', namespace: 'a' } }, 'db')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg', namespace: 'db' },
    });
    expect(withKustomizeNamespace('text', 'db')).toBe('text');
  });

  test("a Kustomization without a namespace under another's spec.path is in that one's targetNamespace", () => {
    const parent: FluxInputDocument = {
      value: {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'apps' },
        spec: { path: './apps', targetNamespace: 'flux-apps' },
      },
      location: path.join(ROOT, 'clusters', 'apps.yaml'),
      shown: 'clusters/apps.yaml:1',
    };
    const child: FluxInputDocument = {
      value: {
        apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
        kind: 'Kustomization',
        metadata: { name: 'db' },
        spec: { path: './apps/db/app', components: ['../../../components/cnpg'] },
      },
      location: path.join(ROOT, 'apps', 'db', 'ks.yaml'),
      shown: 'apps/db/ks.yaml:1',
    };
    const [p, c] = fluxKustomizationsOf([parent, child], ROOT);
    expect(p.ref).toBe('Kustomization/default/apps');
    expect(c.ref).toBe('Kustomization/flux-apps/db');
    expect(c.components).toEqual([path.join(ROOT, 'components', 'cnpg')]);
  });
});
