/*
 * The doctor on real inputs (issue 21, point 4): what a repository of manifests looks like, as
 * opposed to one synthesized app. Each case failed before its fix.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { main, parseArgs } from '../../src/cli/doctor';
import { analyzeManifests } from '../../src/doctor/check-manifests';
import { runCli } from '../cli/run-cli';
import { describeWithShared, sharedPath } from '../shared';
import { Doc, doc, fixture, ofRule } from './helpers';

/** Runs the CLI in `cwd`; returns the exit code and what it printed. */
const cli = (argv: string[], cwd: string) => runCli(main, argv, { cwd });

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder with these files (relative path to text). */
function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-input-'));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const BARMAN = 'barman-cloud.cloudnative-pg.io';

const cluster = (namespace?: string) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', ...(namespace !== undefined ? { namespace } : {}) },
  spec: { instances: 1, storage: { size: '1Gi' }, plugins: [{ name: BARMAN, isWALArchiver: true, parameters: { barmanObjectName: 'store' } }] },
});
const objectStore = (namespace?: string) => ({
  apiVersion: 'barmancloud.cnpg.io/v1',
  kind: 'ObjectStore',
  metadata: { name: 'store', ...(namespace !== undefined ? { namespace } : {}) },
  spec: { configuration: { destinationPath: 's3://backups/pg' } },
});
const lines = (objects: unknown[], ruleId: string, options = {}) =>
  ofRule(analyzeManifests(objects, { knownPlugins: [BARMAN], ...options }).findings, ruleId).map((f) => `${f.severity} ${f.object} ${f.message}`);

describe('one namespace for every rule: the manifest index resolves it', () => {
  test('CNPGI106: a Cluster without a namespace is in the default namespace (-n), where its ObjectStore is', () => {
    expect(lines([cluster(), objectStore('db')], 'CNPGI106', { defaultNamespace: 'db' })).toEqual([]);
    expect(lines([cluster('db'), objectStore()], 'CNPGI106', { defaultNamespace: 'db' })).toEqual([]);
  });
  test('CNPGI106: the mirror case, an ObjectStore without a namespace next to a Cluster in another one, is an error', () => {
    expect(lines([cluster('default'), objectStore()], 'CNPGI106', { defaultNamespace: 'db' })).toEqual([
      "error Cluster/default/pg ObjectStore 'store' is in namespace db, but Barman Cloud looks it up only in the Cluster's namespace 'default'",
    ]);
    expect(lines([cluster(), objectStore('default')], 'CNPGI106', { defaultNamespace: 'db' })).toEqual([
      "error Cluster/db/pg ObjectStore 'store' is in namespace default, but Barman Cloud looks it up only in the Cluster's namespace 'db'",
    ]);
  });
  test('CNPGI106: without -n, objects without a namespace are in the operator namespace, an assumption that makes a warning', () => {
    expect(lines([cluster(), objectStore('cnpg-system')], 'CNPGI106')).toEqual([]);
    expect(lines([cluster(), objectStore('default')], 'CNPGI106')).toEqual([
      "warning Cluster/cnpg-system/pg ObjectStore 'store' is in namespace default, but Barman Cloud looks it up only in the Cluster's namespace 'cnpg-system' (a warning, not an error: Cluster 'pg' has no namespace ('cnpg-system' is assumed); pass --namespace to say where it is applied)",
    ]);
    // Both namespaces written: nothing is assumed, and the mismatch stays an error.
    expect(lines([cluster('cnpg-system'), objectStore('default')], 'CNPGI106')).toEqual([
      "error Cluster/cnpg-system/pg ObjectStore 'store' is in namespace default, but Barman Cloud looks it up only in the Cluster's namespace 'cnpg-system'",
    ]);
  });
});

describe('the operator Deployment without a namespace is in the default namespace too', () => {
  const operator = (env: object[]) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'cnpg-controller-manager' },
    spec: {
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'cloudnative-pg' } },
        spec: { containers: [{ name: 'manager', image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0', env }] },
      },
    },
  });
  const namespaceEnv = { name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } };
  const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'cnpg-system' }, data: { plugins: 'missing.example.com' } };

  test('CNPGI104 reads a ConfigMap of that namespace', () => {
    const objects = [operator([namespaceEnv, { name: 'INCLUDE_PLUGINS', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'plugins' } } }]), config];
    const f = ofRule(analyzeManifests(objects, { defaultNamespace: 'cnpg-system' }).findings, 'CNPGI104');
    expect(f.map((x) => `${x.object} ${x.path}`)).toEqual(['Deployment/cnpg-system/cnpg-controller-manager INCLUDE_PLUGINS']);
    // the ConfigMap in another namespace is not the one the pod reads
    const elsewhere = { ...config, metadata: { name: 'cfg', namespace: 'other' } };
    expect(ofRule(analyzeManifests([objects[0], elsewhere], { defaultNamespace: 'cnpg-system' }).findings, 'CNPGI104')).toEqual([]);
  });

  test('CNPGI001 and CNPGI002 name it as every other rule does', () => {
    const objects = [operator([])];
    const findings = analyzeManifests(objects).findings.filter((f) => f.ruleId === 'CNPGI001' || f.ruleId === 'CNPGI002');
    expect(findings.map((f) => `${f.ruleId} ${f.object}`)).toEqual([
      'CNPGI002 Deployment/cnpg-system/cnpg-controller-manager',
      'CNPGI001 Deployment/cnpg-system/cnpg-controller-manager',
    ]);
  });
});

describeWithShared(
  'a release manifest beside the kubernetes/ files it was built from',
  () => {
    const release = () => fs.readFileSync(sharedPath('reference', 'plugin-barman-cloud-v0.14.0-manifest.yaml'), 'utf8');
    /** The kubernetes/ source of one object of the release: no namespace (the kustomization sets it). */
    const source = (kind: string, change: (d: Doc) => void = () => undefined) => {
      const d: Doc = YAML.parseAllDocuments(release())
        .map((x) => x.toJS())
        .find((x) => x?.kind === kind && x.metadata?.name === 'barman-cloud');
      delete d.metadata.namespace;
      change(d);
      return YAML.stringify(d);
    };

    test('the same Service in both files is one object: no plugin-name conflict with itself', async () => {
      const dir = folder({ 'manifest.yaml': release(), 'kubernetes/service.yaml': source('Service') });
      const r = await cli(['.', '-n', 'cnpg-system', '--format', 'json'], dir);
      const report = JSON.parse(r.out);
      // CNPGI126: the committed manifest names the -testing:main builds
      expect(report.findings.map((f: { ruleId: string }) => f.ruleId)).toEqual(['CNPGI001', 'CNPGI126', 'CNPGI126']);
      expect(report.plugins.map((p: { object: string }) => p.object)).toEqual(['Service/cnpg-system/barman-cloud']);
      expect(r.code).toBe(0);
    });

    test('a source that differs from what was built (the image before kustomize set it) is CNPGI117', async () => {
      const dir = folder({
        'manifest.yaml': release(),
        'kubernetes/deployment.yaml': source('Deployment', (d) => (d.spec.template.spec.containers[0].image = 'plugin-barman-cloud')),
        'kubernetes/service.yaml': source('Service'),
      });
      const r = await cli(['.', '-n', 'cnpg-system', '--format', 'json'], dir);
      const f = JSON.parse(r.out).findings.filter((x: { ruleId: string }) => x.ruleId === 'CNPGI117');
      expect(f.map((x: { object: string; path: string; source: { file: string } }) => [x.object, x.path, x.source.file])).toEqual([
        // files are read in name order: kubernetes/ first, so the release's copy is the later one
        ['Deployment/cnpg-system/barman-cloud', 'spec.template.spec.containers[0].image', 'manifest.yaml'],
      ]);
    });
  },
  'reference',
  'plugin-barman-cloud-v0.14.0-manifest.yaml',
);

describe('partial inputs: what the input lacks is a warning, unless the input is said to be complete', () => {
  const clustersOnly = () => [cluster('db')];
  const severities = (objects: unknown[], ruleId: string, options = {}) => ofRule(analyzeManifests(objects, options).findings, ruleId).map((f) => f.severity);

  test('CNPGI040: Clusters whose plugins no part of the input installs (a GitOps repository of Clusters) are a warning', () => {
    const f = ofRule(analyzeManifests(clustersOnly(), { operatorNamespace: 'cnpg-system' }).findings, 'CNPGI040');
    expect(f.map((x) => [x.severity, x.object, x.path, x.message, x.fix])).toEqual([
      [
        'warning',
        'Cluster/db/pg',
        'spec.plugins[0].name',
        "Cluster names plugin 'barman-cloud.cloudnative-pg.io', which the input does not install: it holds no operator Deployment, plugin Service or sidecar plugin, so its plugins come from elsewhere; if 'barman-cloud.cloudnative-pg.io' is not installed there, the operator stops with \"unknown plugin being required\"",
        'pass --known-plugin barman-cloud.cloudnative-pg.io (knownPlugins) if it is installed elsewhere, or --complete (complete: true) if the input is everything that is installed; otherwise deploy the plugin or fix the name',
      ],
    ]);
  });

  test('CNPGI040: an error when the input shows which plugins exist, or is said to be complete', () => {
    expect(severities(clustersOnly(), 'CNPGI040', { complete: true })).toEqual(['error']);
    expect(severities(clustersOnly(), 'CNPGI040', { knownPlugins: ['other.example.com'] })).toEqual(['error']);
    // the good fixture holds the operator and a plugin Service; each alone shows the plugins too
    const good = fixture('good-plugin.yaml');
    const operatorOnly = good.filter((d) => d.kind === 'Deployment' && d.metadata.name === 'cnpg-controller-manager');
    const serviceOnly = good.filter((d) => d.kind === 'Service');
    expect(severities([...clustersOnly(), ...operatorOnly], 'CNPGI040')).toEqual(['error']);
    expect(severities([...clustersOnly(), ...serviceOnly], 'CNPGI040')).toEqual(['error']);
    expect(severities([...clustersOnly(), ...fixture('sidecar-operator.yaml')], 'CNPGI040', { sidecarPlugins: { hello: 'hello.example.com' } })).toEqual([
      'error',
    ]);
  });

  test('the other facts about missing objects: warnings, errors in a complete input with the reason', () => {
    const broken = () => {
      const docs = fixture('good-plugin.yaml');
      doc(docs, 'Service', 'backup').spec.selector = { app: 'nothing' };
      doc(docs, 'Service', 'backup').metadata.annotations['cnpg.io/pluginClientSecret'] = 'nowhere';
      doc(docs, 'Certificate', 'backup-server').spec.issuerRef = { name: 'missing', kind: 'Issuer' };
      doc(docs, 'Cluster', 'pg').spec.plugins.push({ name: 'barman-cloud.cloudnative-pg.io', parameters: { barmanObjectName: 'store' } });
      return docs;
    };
    const summary = (options: object) =>
      analyzeManifests(broken(), { knownPlugins: [BARMAN], ...options })
        .findings.filter((f) => ['CNPGI016', 'CNPGI020', 'CNPGI024', 'CNPGI106'].includes(f.ruleId))
        .map((f) => `${f.ruleId} ${f.severity} ${f.message}`)
        .sort();
    const note = '; the input is said to be complete, so nothing else provides it';
    expect(summary({})).toEqual([
      'CNPGI016 warning selector {"app":"nothing"} matches no pod template in the input; the plugin pods must come from elsewhere',
      "CNPGI020 warning client Secret 'nowhere' is written by no Certificate in 'cnpg-system' and is not in the input; the operator retries with ClientSecretNotFound until it exists",
      "CNPGI024 warning Issuer 'missing' is not in the input; cert-manager issues nothing until it exists in 'cnpg-system'",
    ]);
    expect(summary({ complete: true })).toEqual([
      'CNPGI016 error selector {"app":"nothing"} matches no pod template in the input; the input is said to be complete, so the Service has no endpoints and the operator cannot reach the plugin',
      "CNPGI020 error client Secret 'nowhere' is written by no Certificate in 'cnpg-system' and is not in the input; the operator retries with ClientSecretNotFound until it exists" +
        note,
      "CNPGI024 error Issuer 'missing' is not in the input; cert-manager issues nothing until it exists in 'cnpg-system'" + note,
      "CNPGI106 error ObjectStore 'store' is not in the input; Barman Cloud looks for it in namespace 'app'" + note,
    ]);
  });

  test('an ObjectStore missing beside others is a warning; in a complete input, an error', () => {
    const other = { ...objectStore('db'), metadata: { name: 'other', namespace: 'db' } };
    expect(lines([cluster('db'), other], 'CNPGI106')).toEqual([
      "warning Cluster/db/pg ObjectStore 'store' is not in the input; Barman Cloud looks for it in namespace 'db'",
    ]);
    expect(lines([cluster('db'), other], 'CNPGI106', { complete: true })).toEqual([
      "error Cluster/db/pg ObjectStore 'store' is not in the input; Barman Cloud looks for it in namespace 'db'; the input is said to be complete, so nothing else provides it",
    ]);
  });

  test('--complete on the command line, complete in the API; anything but a boolean is refused', () => {
    expect(parseArgs(['x.yaml', '--complete']).options.complete).toBe(true);
    expect(parseArgs(['x.yaml']).options).not.toHaveProperty('complete');
    expect(() => analyzeManifests([], { complete: 'yes' as unknown as boolean })).toThrow(
      "checkManifests: options.complete 'yes' must be true or false; pass complete: true when the input is everything that is installed",
    );
  });
});
