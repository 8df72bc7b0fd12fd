import * as fs from 'fs';
import * as path from 'path';
import { asKustomizationDocument, collectInputs, findKustomize, kustomizationPatches } from '../../src/manifests/kustomize';
import { tempTree as folder } from '../cli/run-cli';

describe('kustomize folders', () => {
  test('findKustomize: CNPG_I_KUSTOMIZE, none, then kustomize and kubectl on the PATH', () => {
    expect(findKustomize({ CNPG_I_KUSTOMIZE: '/opt/kustomize' })).toEqual({ command: '/opt/kustomize', args: ['build'], shown: 'kustomize build' });
    expect(findKustomize({ CNPG_I_KUSTOMIZE: 'none', PATH: '' })).toBeUndefined();
    const bin = folder({ kubectl: '#!/bin/sh\n' });
    fs.chmodSync(path.join(bin, 'kubectl'), 0o755);
    expect(findKustomize({ PATH: bin })).toEqual({ command: path.join(bin, 'kubectl'), args: ['kustomize'], shown: 'kubectl kustomize' });
    fs.writeFileSync(path.join(bin, 'kustomize'), '#!/bin/sh\n', { mode: 0o755 });
    expect(findKustomize({ PATH: bin })?.command).toBe(path.join(bin, 'kustomize'));
    expect(findKustomize({ PATH: '' })).toBeUndefined();
  });

  test('the patches a kustomization lists, in every form', () => {
    const dir = folder({
      'kustomization.yml':
        'patches:\n  - path: p1.yaml\n  - patch: |\n      - op: add\npatchesStrategicMerge:\n  - p2.yaml\npatchesJson6902:\n  - path: sub/p3.yaml\n',
    });
    expect([...kustomizationPatches(path.join(dir, 'kustomization.yml'))].sort()).toEqual(['p1.yaml', 'p2.yaml', 'sub/p3.yaml'].map((p) => path.join(dir, p)));
  });

  test('collectInputs: a rendered folder is one input; without a renderer its files but the patches', () => {
    const dir = folder({
      'a.yaml': 'x: 1\n',
      'app/Kustomization': 'resources: [c.yaml]\npatches:\n  - path: patch.yaml\n',
      'app/c.yaml': 'x: 1\n',
      'app/patch.yaml': 'x: 1\n',
      'app/notes.txt': 'x',
    });
    const program = { command: 'kustomize', args: ['build'], shown: 'kustomize build' };
    expect(collectInputs(['.'], dir, program)).toEqual([
      { kind: 'file', file: 'a.yaml' },
      { kind: 'kustomize', dir: path.join(dir, 'app'), shown: 'app' },
    ]);
    expect(collectInputs(['.'], dir, undefined)).toEqual([
      { kind: 'file', file: 'a.yaml' },
      // the patch was not applied: it goes with the file, for the rules that a patch may answer
      {
        kind: 'file',
        file: path.join('app', 'c.yaml'),
        patches: [{ shown: path.join('app', 'patch.yaml'), file: path.join(dir, 'app', 'patch.yaml'), inline: false, missing: false }],
      },
      { kind: 'file', file: path.join('app', 'Kustomization') },
    ]);
  });

  test('a base built in through an overlay of overlays is not rendered on its own either', () => {
    // the corpus's case: cluster/ builds prod/, which builds the base; rendered alone, the base
    // gave a second Cluster in another namespace archiving into the same place (CNPGI122)
    const dir = folder({
      'base/app/kustomization.yaml': 'resources: [c.yaml]\n',
      'base/app/c.yaml': 'x: 1\n',
      'overlays/cluster/kustomization.yaml': 'resources: [prod]\n',
      'overlays/cluster/prod/kustomization.yaml': 'namespace: prod\nresources: [../../../base/app]\n',
    });
    const program = { command: 'kustomize', args: ['build'], shown: 'kustomize build' };
    expect(collectInputs(['.'], dir, program)).toEqual([
      { kind: 'kustomize', dir: path.join(dir, 'overlays', 'cluster'), shown: path.join('overlays', 'cluster') },
    ]);
  });

  test('a base that a rendered overlay of the input builds in is not rendered on its own', () => {
    const dir = folder({
      'base/kustomization.yaml': 'resources: [c.yaml]\n',
      'base/c.yaml': 'x: 1\n',
      'overlays/prod/kustomization.yaml': 'resources:\n  - ../../base\n  - https://example.com/x.yaml\n  - github.com/org/repo/dir?ref=v1\n',
      'overlays/solo/kustomization.yaml': 'resources: []\n',
    });
    const program = { command: 'kustomize', args: ['build'], shown: 'kustomize build' };
    expect(collectInputs(['.'], dir, program)).toEqual([
      { kind: 'kustomize', dir: path.join(dir, 'overlays', 'prod'), shown: path.join('overlays', 'prod') },
      { kind: 'kustomize', dir: path.join(dir, 'overlays', 'solo'), shown: path.join('overlays', 'solo') },
    ]);
    // given alone, the base is rendered
    expect(collectInputs(['base'], dir, program)).toEqual([{ kind: 'kustomize', dir: path.join(dir, 'base'), shown: 'base' }]);
  });

  test('a Component folder is one component input: never rendered alone, its files never read as objects', () => {
    const dir = folder({
      'components/cnpg/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [cluster.yaml]\npatches:\n  - path: patch.yaml\n',
      'components/cnpg/cluster.yaml': 'x: 1\n',
      'components/cnpg/patch.yaml': 'x: 1\n',
      'components/cnpg/notes.yaml': 'x: 1\n',
      'app/kustomization.yaml': 'resources: [a.yaml]\n',
      'app/a.yaml': 'x: 1\n',
    });
    const component = {
      kind: 'component',
      dir: fs.realpathSync(path.join(dir, 'components', 'cnpg')),
      shown: path.join('components', 'cnpg'),
      resources: [path.join('components', 'cnpg', 'cluster.yaml')],
    };
    const program = { command: 'kustomize', args: ['build'], shown: 'kustomize build' };
    expect(collectInputs(['.'], dir, program)).toEqual([{ kind: 'kustomize', dir: path.join(dir, 'app'), shown: 'app' }, component]);
    // without a renderer, its kustomization file is read (CNPGI093 says it was not rendered), not its objects
    expect(collectInputs(['.'], dir, undefined)).toEqual([
      { kind: 'file', file: path.join('app', 'a.yaml') },
      { kind: 'file', file: path.join('app', 'kustomization.yaml') },
      component,
      { kind: 'file', file: path.join('components', 'cnpg', 'kustomization.yaml') },
    ]);
  });

  test('files a kustomization reads that are not objects: transformers, generators and their data, replacements, values', () => {
    const dir = folder({
      'kustomization.yaml': [
        'resources: [a.yaml]',
        'transformers: [ns.yaml]',
        'generators: [gen.yaml]',
        'configurations: [conf.yaml]',
        'replacements:\n  - path: repl.yaml',
        'configMapGenerator:\n  - name: c\n    files: [settings.yaml, key=other.yaml]',
        'secretGenerator:\n  - name: s\n    envs: [s.env]',
        'helmCharts:\n  - name: x\n    valuesFile: values.yaml',
      ].join('\n'),
    });
    expect([...kustomizationPatches(path.join(dir, 'kustomization.yaml'))].sort()).toEqual(
      ['conf.yaml', 'gen.yaml', 'ns.yaml', 'other.yaml', 'repl.yaml', 's.env', 'settings.yaml', 'values.yaml'].map((p) => path.join(dir, p)),
    );
  });

  test("without a renderer, a kustomization's namespace goes with the files it lists and the folders it builds in", () => {
    const dir = folder({
      'kustomization.yaml': 'namespace: apps\nresources: [a.yaml, sub]\n',
      'a.yaml': 'x: 1\n',
      'loose.yaml': 'x: 1\n',
      'sub/kustomization.yaml': 'resources: [b.yaml]\n',
      'sub/b.yaml': 'x: 1\n',
      'other/c.yaml': 'x: 1\n',
      'own/kustomization.yaml': 'namespace: own\nresources: [d.yaml]\n',
      'own/d.yaml': 'x: 1\n',
    });
    expect(collectInputs(['.'], dir, undefined)).toEqual([
      { kind: 'file', file: 'a.yaml', namespace: 'apps' },
      // the kustomization file itself and a folder it does not build keep theirs; a file it does
      // not list is not built at all (loose.yaml)
      { kind: 'file', file: 'kustomization.yaml' },
      { kind: 'file', file: path.join('other', 'c.yaml') },
      { kind: 'file', file: path.join('own', 'd.yaml'), namespace: 'own' },
      { kind: 'file', file: path.join('own', 'kustomization.yaml') },
      { kind: 'file', file: path.join('sub', 'b.yaml'), namespace: 'apps' },
      { kind: 'file', file: path.join('sub', 'kustomization.yaml') },
    ]);
  });

  test('without a renderer, a file the kustomization does not list is not read, nor a folder of transformer configurations', () => {
    const dir = folder({
      // a commented-out resource and an old copy beside the kustomization: kustomize builds neither
      'app/kustomization.yaml': 'resources:\n  # - ./old.yaml\n  - ./cluster.yaml\ntransformers:\n  - ./transformers\n',
      'app/cluster.yaml': 'x: 1\n',
      'app/old.yaml': 'x: 1\n',
      'app/cluster-v1.yaml': 'x: 1\n',
      'app/transformers/kustomization.yaml': 'resources: [ns.yaml]\n',
      'app/transformers/ns.yaml': 'x: 1\n',
      // a subfolder it does not build is still walked (a Flux Kustomization may point at it)
      'app/extra/d.yaml': 'x: 1\n',
      // a kustomization.yaml that is a Flux Kustomization lists no kustomize resources: nothing is dropped
      'flux/kustomization.yaml': 'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: x}\n',
      'flux/e.yaml': 'x: 1\n',
      // a kustomization that does not parse drops nothing either
      'broken/kustomization.yaml': 'resources: [\n',
      'broken/f.yaml': 'x: 1\n',
    });
    expect(collectInputs(['.'], dir, undefined)).toEqual([
      { kind: 'file', file: path.join('app', 'cluster.yaml') },
      { kind: 'file', file: path.join('app', 'extra', 'd.yaml') },
      { kind: 'file', file: path.join('app', 'kustomization.yaml') },
      { kind: 'file', file: path.join('broken', 'f.yaml') },
      { kind: 'file', file: path.join('broken', 'kustomization.yaml') },
      { kind: 'file', file: path.join('flux', 'e.yaml') },
      { kind: 'file', file: path.join('flux', 'kustomization.yaml') },
    ]);
  });

  test("a kustomization file read as a document gets kustomize's apiVersion and kind", () => {
    expect(asKustomizationDocument({ resources: [] })).toEqual({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: [] });
    expect(asKustomizationDocument({ kind: 'Component' })).toEqual({ apiVersion: 'kustomize.config.k8s.io/v1alpha1', kind: 'Component' });
    const full = { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization' };
    expect(asKustomizationDocument(full)).toBe(full);
    expect(asKustomizationDocument('text')).toBe('text');
  });
});
