import * as path from 'path';
import { FluxInputDocument, renderFlux } from '../../src/manifests/flux-kustomizations';

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
});
