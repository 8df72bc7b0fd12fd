/*
 * The doctor's command line on files a repository holds but no build applies: files named as
 * templates, and files a kustomization above leaves out of a folder whose files it lists by name
 * (patches that were not applied: test/doctor/rules/schema/cnpgi060-crd-schema.test.ts). Minimal
 * cases written here for classes the corpus measurement found (docs/development/corpus.md).
 */
import * as path from 'path';
import { doctorOnTree } from '../doctor/helpers';
import { tempTree as folder } from './run-cli';

const doctor = (dir: string, ...paths: string[]) => doctorOnTree(dir, paths, ['CNPGI060', 'CNPGI063', 'CNPGI311']);

// a Cluster template: copied and filled by hand (the placeholders are another tool's)
const TEMPLATE =
  'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: pg\n  namespace: db\nspec:\n  instances: 2\n  storage:\n    size: REPLACE_ME_SIZE\n';

describe('files named as templates', () => {
  test('not read when walking a folder: one notice names them', async () => {
    const dir = folder({
      'db/pg.template.yaml': TEMPLATE,
      'db/job.tmpl.yaml': TEMPLATE.replace('name: pg', 'name: pg2'),
      'db/service.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: db}\n',
    });
    const r = await doctor(dir);
    expect(r.lines).toEqual([]);
    expect(r.report.objectCount).toBe(1);
    expect(r.err).toContain(
      `notice: 2 files not read, named as templates: ${path.join('db', 'job.tmpl.yaml')}, ${path.join('db', 'pg.template.yaml')}; no kustomization builds them`,
    );
  });

  test('near misses: given as a file, listed by a kustomization, or in a folder a Flux Kustomization applies, it is judged', async () => {
    const dir = folder({ 'db/pg.template.yaml': TEMPLATE });
    const refused = /^CNPGI311 error Cluster\/db\/pg: .*'REPLACE_ME_SIZE'/;
    expect((await doctor(dir, path.join('db', 'pg.template.yaml'))).lines).toEqual([expect.stringMatching(refused)]);
    const listed = folder({ 'db/kustomization.yaml': 'resources: [pg.template.yaml]\n', 'db/pg.template.yaml': TEMPLATE });
    expect((await doctor(listed)).lines).toEqual([expect.stringMatching(refused)]);
    // Flux generates a kustomization of every YAML file below spec.path (fluxcd/pkg kustomize v1.35.4 scanManifests)
    const flux = folder({
      'clusters/db.yaml':
        'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: db, namespace: flux-system}\nspec:\n  path: ./apps\n  sourceRef: {kind: GitRepository, name: repo}\n',
      'apps/db/pg.template.yaml': TEMPLATE,
    });
    expect((await doctor(flux)).lines).toEqual([expect.stringMatching(refused)]);
    // ...but not below a subfolder with a kustomization of its own, which lists what it builds
    const stops = folder({
      'clusters/db.yaml':
        'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: db, namespace: flux-system}\nspec:\n  path: ./apps\n  sourceRef: {kind: GitRepository, name: repo}\n',
      'apps/db/kustomization.yaml': 'resources: []\n',
      'apps/db/more/pg.template.yaml': TEMPLATE,
    });
    expect((await doctor(stops)).lines).toEqual([]);
  });
});

describe('a file a kustomization above leaves out of a folder whose files it lists by name', () => {
  const ns = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: _\n';
  const ks =
    'apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: app, namespace: flux-system}\nspec:\n  path: ./apps/app/app\n  sourceRef: {kind: GitRepository, name: repo}\n';
  test('not read, with a notice', async () => {
    const dir = folder({
      'apps/kustomization.yaml': 'resources: [./app/ks.yaml]\n',
      'apps/app/ks.yaml': ks,
      'apps/app/namespace.yaml': ns,
      'apps/app/app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: db}\n',
    });
    const r = await doctor(dir);
    expect(r.lines).toEqual([]);
    expect(r.err).toContain(
      `notice: 1 file not read, left out where a kustomization above lists its folder's files by name: ${path.join('apps', 'app', 'namespace.yaml')}`,
    );
  });

  test('near misses: a folder nothing lists by name, or one a Flux Kustomization applies, is read whole', async () => {
    const plain = folder({ 'apps/app/ks.yaml': ks, 'apps/app/namespace.yaml': ns });
    expect((await doctor(plain)).lines).toEqual([expect.stringMatching(/^CNPGI063 error Namespace\/_: metadata.name '_'/)]);
    const applied = folder({
      'apps/kustomization.yaml': 'resources: [./app/ks.yaml]\n',
      'apps/app/ks.yaml': ks.replace('./apps/app/app', './apps/app'),
      'apps/app/namespace.yaml': ns,
    });
    expect((await doctor(applied)).lines).toEqual([expect.stringMatching(/^CNPGI063 error Namespace\/_/)]);
  });
});
