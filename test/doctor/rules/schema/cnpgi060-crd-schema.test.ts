/*
 * CNPGI060: the CRD schemas. An error for what the API server refuses; a warning for a required
 * field missing from an object read file by file whose kustomization lists a patch, not applied,
 * that may set it (a case the corpus measurement found: docs/development/corpus.md).
 */
import * as path from 'path';
import { main } from '../../../../src/cli/doctor';
import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { runCli, tempTree as folder } from '../../../cli/run-cli';
import { buildOracle, describeWithGo } from '../../../oracles/go-oracle';
import { doctorOnTree, fixture, ofRule } from '../../helpers';

const RULES = ['CNPGI060', 'CNPGI063', 'CNPGI311'];
const doctor = (dir: string, ...paths: string[]) => doctorOnTree(dir, paths, RULES);
const doctorWith = (kustomize: string, dir: string, ...paths: string[]) => doctorOnTree(dir, paths, RULES, kustomize);

describe('CNPGI060 crd-schema', () => {
  test('a wrong type in a Cluster is an error with the path and what the CRD allows', () => {
    const docs = fixture('good-plugin.yaml');
    const cluster = docs.find((d: any) => d.kind === 'Cluster') as any;
    cluster.spec.instances = 'one';
    expect(ofRule(analyzeManifests(docs).findings, 'CNPGI060').map((f) => `${f.severity} ${f.object}: ${f.message}`)).toEqual([
      expect.stringMatching(/^error Cluster\/.*: spec\.instances 'one' /),
    ]);
  });
});

// an ObjectStore whose destinationPath a patch adds (plugin-barman-cloud v0.14.0 CRD: required)
const STORE =
  'apiVersion: barmancloud.cnpg.io/v1\nkind: ObjectStore\nmetadata:\n  name: store\n  namespace: db\nspec:\n  configuration:\n    endpointURL: https://s3.example.com\n';
const STORE_PATCH =
  'apiVersion: barmancloud.cnpg.io/v1\nkind: ObjectStore\nmetadata:\n  name: store\n  namespace: db\nspec:\n  configuration:\n    destinationPath: s3://bucket/db\n';

describe('a required field a kustomization patch may set, the folder read file by file', () => {
  test('a patch file missing from the checkout (a git-ignored env/ folder): a warning naming it, not an error', async () => {
    const dir = folder({
      'backups/kustomization.yaml': 'resources: [./object-store.yaml]\npatches:\n  - path: ./env/patch-object-store.yaml\n',
      'backups/object-store.yaml': STORE,
    });
    const { lines } = await doctor(dir);
    expect(lines).toEqual([
      `CNPGI060 warning ObjectStore/db/store: spec.configuration.destinationPath is required by the CRD and not set as written; the kustomization's patch ${path.join('backups', 'env', 'patch-object-store.yaml')} (not in the input) was not applied and may set it`,
    ]);
  });

  test('a patch file that targets the object (by its kind and name, or a target selector): a warning', async () => {
    const smp = folder({ 'kustomization.yaml': 'resources: [store.yaml]\npatches:\n  - path: patch.yaml\n', 'store.yaml': STORE, 'patch.yaml': STORE_PATCH });
    expect((await doctor(smp)).lines).toEqual([
      expect.stringMatching(/^CNPGI060 warning .*the kustomization's patch patch\.yaml was not applied and may set it$/),
    ]);
    const selector = folder({
      'kustomization.yaml':
        'resources: [store.yaml]\npatches:\n  - target: {kind: ObjectStore, name: "st.*"}\n    patch: |-\n      - op: add\n        path: /spec/configuration/destinationPath\n        value: s3://bucket/db\n',
      'store.yaml': STORE,
    });
    expect((await doctor(selector)).lines).toEqual([expect.stringMatching(/^CNPGI060 warning .*an inline patch of kustomization\.yaml was not applied/)]);
  });

  test('near misses: no patch, or patches that name other objects, leave the error', async () => {
    const none = folder({ 'kustomization.yaml': 'resources: [store.yaml]\n', 'store.yaml': STORE });
    expect((await doctor(none)).lines).toEqual([
      expect.stringMatching(/^CNPGI060 error ObjectStore\/db\/store: spec.configuration.destinationPath is required by the CRD and not set$/),
    ]);
    const other = folder({
      'kustomization.yaml':
        'resources: [store.yaml]\npatches:\n  - path: patch.yaml\n  - target: {kind: ObjectStore, name: store-2}\n    path: ./env/missing.yaml\n',
      'store.yaml': STORE,
      'patch.yaml': STORE_PATCH.replace('name: store', 'name: another'),
    });
    expect((await doctor(other)).lines).toEqual([expect.stringMatching(/^CNPGI060 error /)]);
    // a strategic-merge patch without the namespace the object is written with: kustomize finds no
    // object for it ("no resource matches strategic merge patch ... [noNs]"), even with a
    // kustomization namespace, which is set after the patches
    const noNamespace = folder({
      'kustomization.yaml': 'namespace: db\nresources: [store.yaml]\npatches:\n  - path: patch.yaml\n',
      'store.yaml': STORE,
      'patch.yaml': STORE_PATCH.replace('  namespace: db\n', ''),
    });
    expect((await doctor(noNamespace)).lines).toEqual([expect.stringMatching(/^CNPGI060 error /)]);
    // a wrong value is not a missing one: a patch does not make it a warning
    const wrong = folder({
      'kustomization.yaml': 'resources: [store.yaml]\npatches:\n  - path: ./env/p.yaml\n',
      'store.yaml': STORE.replace('https://s3.example.com', '{a: 1}'),
    });
    expect((await doctor(wrong)).lines.filter((l) => l.includes('endpointURL'))).toEqual([expect.stringMatching(/^CNPGI060 error /)]);
  });

  test('the patches of a kustomize Component the kustomization includes count as its own', async () => {
    const dir = folder({
      'app/kustomization.yaml': 'resources: [store.yaml]\ncomponents: [../components/s3]\n',
      'app/store.yaml': STORE,
      'components/s3/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - path: patch.yaml\n',
      'components/s3/patch.yaml': STORE_PATCH,
    });
    expect((await doctor(dir, 'app')).lines).toEqual([
      expect.stringMatching(/^CNPGI060 warning .*the kustomization's patch components\/s3\/patch\.yaml was not applied and may set it$/),
    ]);
  });

  test("a parent kustomization's patches reach the folders it builds in", async () => {
    const dir = folder({
      'kustomization.yaml': 'resources: [./base]\npatches:\n  - path: ./env/patch.yaml\n',
      'base/kustomization.yaml': 'resources: [store.yaml]\n',
      'base/store.yaml': STORE,
    });
    expect((await doctor(dir)).lines).toEqual([expect.stringMatching(/^CNPGI060 warning .*patch env\/patch\.yaml \(not in the input\)/)]);
  });
});

describeWithGo('the same folders rendered by kustomize (built from sigs.k8s.io/kustomize/kustomize/v5 v5.8.1)', () => {
  let kustomize: string;
  beforeAll(() => {
    kustomize = buildOracle('kustomize');
  }, 600_000);

  test('the patch that may set the field does set it: rendered, the object has it and nothing is found', async () => {
    const dir = folder({ 'kustomization.yaml': 'resources: [store.yaml]\npatches:\n  - path: patch.yaml\n', 'store.yaml': STORE, 'patch.yaml': STORE_PATCH });
    const r = await doctorWith(kustomize, dir);
    expect(r.report.objectCount).toBe(1);
    expect(r.lines).toEqual([]);
  });

  test('the near miss as kustomize sees it: a strategic-merge patch without the namespace matches nothing', async () => {
    const dir = folder({
      'kustomization.yaml': 'namespace: db\nresources: [store.yaml]\npatches:\n  - path: patch.yaml\n',
      'store.yaml': STORE,
      'patch.yaml': STORE_PATCH.replace('  namespace: db\n', ''),
    });
    const r = await runCli(main, ['.'], { cwd: dir, env: { CNPG_I_KUSTOMIZE: kustomize } });
    expect(r.code).toBe(2);
    expect(r.err).toContain('no resource matches strategic merge patch');
  });

  test("a Component's patch, rendered: applied to the including kustomization's object", async () => {
    const dir = folder({
      'app/kustomization.yaml': 'resources: [store.yaml]\ncomponents: [../components/s3]\n',
      'app/store.yaml': STORE,
      'components/s3/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - path: patch.yaml\n',
      'components/s3/patch.yaml': STORE_PATCH,
    });
    const r = await doctorWith(kustomize, dir, 'app');
    expect(r.report.objectCount).toBe(1);
    expect(r.lines).toEqual([]);
  });

  test('a patch missing from the checkout: kustomize cannot build the folder, and the doctor says so', async () => {
    const dir = folder({
      'backups/kustomization.yaml': 'resources: [./object-store.yaml]\npatches:\n  - path: ./env/patch-object-store.yaml\n',
      'backups/object-store.yaml': STORE,
    });
    const r = await runCli(main, ['backups'], { cwd: dir, env: { CNPG_I_KUSTOMIZE: kustomize } });
    expect(r.code).toBe(2);
    expect(r.err).toContain('backups (kustomize build): kustomize build failed');
  });
});
