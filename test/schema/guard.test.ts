import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiObject, App, Chart, JsonPatch, Lazy, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { admit } from '../../src/checks/admission/index';
import { invalid } from '../../src/manifests/errors';
import type { Json } from '../../src/manifests/json';
import { Plugin } from '../../src/plugins/plugin';
import { PostgresCluster } from '../../src/postgres/postgres-cluster';
import { addChecks, addSchemaGuard, apiServerIssues, synthJson } from '../../src/schema/guard';

function synthError(chart: Chart): string {
  try {
    Testing.synth(chart);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected synth to fail');
}

function guarded(chart: Chart, id: string, obj: Record<string, unknown>): ApiObject {
  const o = new ApiObject(chart, id, obj as any);
  addSchemaGuard(o, o);
  return o;
}

const container = (resources: unknown) => ({ name: 'c', image: 'ghcr.io/x/y:1.0', resources });
const deployment = (name: string, resources: unknown) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    selector: { matchLabels: { a: 'b' } },
    template: { metadata: { labels: { a: 'b' } }, spec: { containers: [container(resources)], initContainers: [container(resources)] } },
  },
});
const cluster = (metadata: Record<string, unknown>, spec: Record<string, unknown>) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata,
  spec: { instances: 1, storage: { size: '1Gi' }, ...spec },
});

describe('addSchemaGuard', () => {
  test('a valid object synthesizes unchanged', () => {
    const chart = Testing.chart();
    guarded(chart, 'pg', cluster({ name: 'pg' }, { resources: { requests: { memory: '1Gi', cpu: '500m' }, limits: { memory: '1Gi', cpu: '1' } } }));
    guarded(chart, 'web', deployment('web', { requests: { cpu: '500m', memory: '1000Mi' }, limits: { cpu: 1, memory: '1Gi' } }));
    expect(Testing.synth(chart).map((o) => o.kind)).toEqual(['Cluster', 'Deployment']);
  });

  test('reports every problem of every object in one synth, one line each, under the construct path', () => {
    const chart = Testing.chart();
    guarded(
      chart,
      'pg',
      cluster(
        { name: 'pg', finalizers: ['example.com/a', 'example.com/a'], ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }] },
        { bootstrap: { initdb: { icuLocale: 'en-US' } }, plugins: [{ name: 'barman-cloud.cloudnative-pg.io', isWalArchiver: true }] },
      ),
    );
    guarded(
      chart,
      'web',
      deployment('web.v1', {
        requests: { cpu: '2', memory: '1Gi', 'ephemeral-storage': '2Gi' },
        limits: { cpu: '1500m', memory: '1000Mi', 'ephemeral-storage': '2Gi' },
      }),
    );
    expect(synthError(chart).split('\n')).toEqual([
      'Validation failed with the following errors:',
      "  [test/pg] spec.plugins[0].isWalArchiver: is not a field the CRD declares, so the API server drops it; value true; allowed the field 'isWALArchiver'",
      "  [test/pg] metadata.finalizers[1]: repeats item 0; finalizers are a set; value 'example.com/a'; allowed distinct finalizers",
      '  [test/pg] metadata.ownerReferences[0].uid: must not be empty; allowed a non-empty string',
      "  [test/pg] spec.bootstrap.initdb: fails the CRD rule `!has(self.icuLocale) || self.localeProvider == 'icu'` (no such key: localeProvider), so the API server refuses the object; allowed what the rule allows",
      "  [test/web] metadata.name: is not a DNS label, which a Deployment name should be (it becomes Pod host names; the API server warns); value 'web.v1'; allowed a lowercase RFC 1123 label (at most 63 characters of a-z, 0-9 and '-')",
      "  [test/web] spec.template.spec.containers[0].resources.requests.cpu: is above the cpu limit '1500m'; a request must be less than or equal to its limit; value '2'; allowed at most '1500m'",
      "  [test/web] spec.template.spec.containers[0].resources.requests.memory: is above the memory limit '1000Mi'; a request must be less than or equal to its limit; value '1Gi'; allowed at most '1000Mi'",
      "  [test/web] spec.template.spec.initContainers[0].resources.requests.cpu: is above the cpu limit '1500m'; a request must be less than or equal to its limit; value '2'; allowed at most '1500m'",
      "  [test/web] spec.template.spec.initContainers[0].resources.requests.memory: is above the memory limit '1000Mi'; a request must be less than or equal to its limit; value '1Gi'; allowed at most '1000Mi'",
    ]);
  });
});

describe('addSchemaGuard and rendering errors', () => {
  test('a CnpgIValidationError thrown while rendering (inside a Lazy, which cdk8s wraps) is reported as a line', () => {
    const chart = Testing.chart();
    const o = new ApiObject(chart, 'cm', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: Lazy.any({ produce: () => invalid('test/cm', 'data', 1, 'is wrong', 'fix it') }),
    } as any);
    addSchemaGuard(o, o);
    expect(synthError(chart)).toBe('Validation failed with the following errors:\n  [test/cm] data 1 is wrong; fix it');
  });

  test('any other rendering error propagates', () => {
    const chart = Testing.chart();
    const o = new ApiObject(chart, 'cm', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: Lazy.any({
        produce: () => {
          throw new RangeError('bug');
        },
      }),
    } as any);
    addSchemaGuard(o, o);
    expect(synthError(chart)).toMatch(/^Failed serializing construct at path 'test\/cm' with name 'test-cm-c8[0-9a-f]{6}': RangeError: bug$/);
  });
});

describe('apiServerIssues', () => {
  const names = (obj: unknown) => apiServerIssues(obj).map((i) => `${i.path} ${i.kind}`);

  test('a Cluster name must be a DNS-1035 label of at most 50 characters: the admission check says so, not the guard', () => {
    // The CloudNativePG webhook's validateName lives in src/checks/admission (CNPGI315), which the
    // constructs run at synth; the guard keeps what the API server itself checks of the name.
    const admissionNames = (obj: Record<string, unknown>) => (admit('Cluster', obj).issues.get('validateName') ?? []).map((i) => i.path);
    for (const name of ['a'.repeat(51), '9db', 'db.v1']) {
      expect(names(cluster({ name }, {}))).toEqual([]);
      expect(admissionNames(cluster({ name }, {}))).toEqual(['metadata.name']);
    }
    expect(names(cluster({ name: 'a'.repeat(50) }, {}))).toEqual([]);
    expect(admissionNames(cluster({ name: 'a'.repeat(50) }, {}))).toEqual([]);
  });

  test("a Cluster's spec.resources is the Cluster webhook's (validateResources, an admission check), not the guard's", () => {
    const above = cluster({ name: 'pg' }, { resources: { requests: { memory: '2Gi' }, limits: { memory: '1Gi' } } });
    expect(names(above)).toEqual([]);
    expect([...(admit('Cluster', above as Json).issues.get('validateResources') ?? [])].map((i) => i.path)).toEqual(['spec.resources.requests.memory']);
    const zeroLimit = cluster({ name: 'pg' }, { resources: { requests: { memory: '2Gi' }, limits: { memory: '0' } } });
    expect(names(zeroLimit)).toEqual([]);
    expect(admit('Cluster', zeroLimit as Json).issues.get('validateResources')).toBeUndefined();
  });

  test('requests are compared to limits per resource, exactly, and only where both are set', () => {
    const at = (r: unknown) => names(deployment('web', r)).filter((n) => n.includes('containers[0]'));
    expect(at({ requests: { cpu: '1' }, limits: { cpu: '1000m' } })).toEqual([]);
    expect(at({ requests: { cpu: '1001m' }, limits: { cpu: '1' } })).toEqual(['spec.template.spec.containers[0].resources.requests.cpu max']);
    expect(at({ requests: { 'ephemeral-storage': '1Gi' }, limits: { 'ephemeral-storage': '1G' } })).toEqual([
      'spec.template.spec.containers[0].resources.requests.ephemeral-storage max',
    ]);
    expect(at({ requests: { memory: '4Gi' } })).toEqual([]);
    expect(at({ limits: { memory: '1Gi' }, requests: { cpu: '8' } })).toEqual([]);
  });

  test('negative quantities; huge pages and extended resources need a limit equal to the request', () => {
    const at = (r: unknown) => names(deployment('web', r)).filter((n) => n.includes('containers[0]'));
    expect(at({ requests: { cpu: '-1' } })).toEqual(['spec.template.spec.containers[0].resources.requests.cpu min']);
    expect(at({ limits: { memory: '-1Gi' } })).toEqual(['spec.template.spec.containers[0].resources.limits.memory min']);
    expect(at({ requests: { 'hugepages-2Mi': '100Mi', memory: '1Gi' }, limits: { 'hugepages-2Mi': '100Mi' } })).toEqual([]);
    expect(at({ requests: { 'hugepages-2Mi': '50Mi' }, limits: { 'hugepages-2Mi': '100Mi' } })).toEqual([
      'spec.template.spec.containers[0].resources.requests.hugepages-2Mi schema',
    ]);
    expect(at({ requests: { 'example.com/gpu': '1' } })).toEqual(['spec.template.spec.containers[0].resources.limits["example.com/gpu"] required']);
    expect(at({ requests: { 'example.kubernetes.io/thing': '1' } })).toEqual([]);
  });

  test('in a core object a value that is not a quantity is an issue', () => {
    expect(names(deployment('web', { requests: { cpu: 'lots' }, limits: { memory: '1 Gi' } })).filter((n) => n.includes('containers[0]'))).toEqual([
      'spec.template.spec.containers[0].resources.requests.cpu format',
      'spec.template.spec.containers[0].resources.limits.memory format',
    ]);
  });

  test("containers anywhere: a Pod, a CronJob's job template", () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container({ requests: { cpu: '2' }, limits: { cpu: '1' } })] } };
    expect(names(pod)).toEqual(['spec.containers[0].resources.requests.cpu max']);
    const cron = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'c' },
      spec: {
        schedule: '@daily',
        jobTemplate: { spec: { template: { spec: { containers: [container({ requests: { memory: '2Gi' }, limits: { memory: '1Gi' } })] } } } },
      },
    };
    expect(names(cron)).toEqual(['spec.jobTemplate.spec.template.spec.containers[0].resources.requests.memory max']);
  });

  test('workload names should be DNS labels; other kinds take subdomains, Services DNS-1035 labels', () => {
    expect(names(deployment('web.v1', {}))).toEqual(['metadata.name invalid-name']);
    expect(names({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web.v1' } })).toEqual([]);
    expect(names({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web.v1' }, spec: { containers: [] } })).toEqual(['metadata.name invalid-name']);
    expect(names({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'web.v1' } })).toEqual(['metadata.name invalid-name']);
    expect(names({ apiVersion: 'v1', kind: 'Service', metadata: { name: '1web' } })).toEqual(['metadata.name invalid-name']);
    expect(names({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web_v1' } })).toEqual(['metadata.name invalid-name']);
  });

  test('the object checked is not changed (the synth writes the JSON the guard checked)', () => {
    const deepFreeze = <T>(x: T): T => {
      if (x !== null && typeof x === 'object') {
        Object.values(x).forEach(deepFreeze);
        Object.freeze(x);
      }
      return x;
    };
    // defaults to apply, a status to drop, an unknown field to prune, resources to compare
    const make = () =>
      cluster(
        { name: 'pg', labels: { a: 'b' } },
        { plugins: [{ name: 'x.example.com', isWalArchiver: true }], resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } },
      );
    const withStatus = { ...make(), status: { phase: 'x' } };
    for (const obj of [make(), withStatus, deployment('web', { requests: { cpu: '2' }, limits: { cpu: '1' } })]) {
      const expected = JSON.stringify(obj);
      const found = apiServerIssues(obj).map((i) => i.message);
      expect(apiServerIssues(deepFreeze(obj)).map((i) => i.message)).toEqual(found);
      expect(JSON.stringify(obj)).toBe(expected);
    }
  });

  test('cdk8s-plus objects: a Deployment with a request above its limit', () => {
    const chart = Testing.chart();
    const d = new kplus.Deployment(chart, 'web', {
      containers: [{ image: 'ghcr.io/x/y:1.0', resources: { cpu: { request: kplus.Cpu.millis(2000), limit: kplus.Cpu.millis(1000) } } }],
    });
    addSchemaGuard(d, ApiObject.of(d));
    expect(synthError(chart)).toContain("[test/web] Deployment 'test-web-c8");
    expect(synthError(chart)).toContain("spec.template.spec.containers[0].resources.requests.cpu: is above the cpu limit '1000m'");
  });
});

describe('addChecks', () => {
  class Thing extends Construct {
    constructor(scope: Construct, id: string, bad: boolean) {
      super(scope, id);
      addChecks(this, () => {
        if (bad) invalid(this, 'replicas', -1, 'is negative', 'use 1 or more');
      });
    }
  }

  test('every failing check of the app is reported in one synth', () => {
    const chart = Testing.chart();
    new Thing(chart, 'a', true);
    new Thing(chart, 'b', false);
    new Thing(chart, 'c', true);
    expect(synthError(chart)).toBe(
      [
        'Validation failed with the following errors:',
        '  [test/a] replicas -1 is negative; use 1 or more',
        '  [test/c] replicas -1 is negative; use 1 or more',
      ].join('\n'),
    );
  });

  test('passing checks leave the synth alone', () => {
    const chart = Testing.chart();
    new Thing(chart, 'a', false);
    expect(Testing.synth(chart)).toEqual([]);
  });

  test('any other error propagates as it is', () => {
    const chart = Testing.chart();
    addChecks(chart, () => {
      throw new TypeError('a bug');
    });
    expect(() => Testing.synth(chart)).toThrow(TypeError);
  });
});

describe('within one App.synth() or App.synthYaml() call, each object is rendered and checked once', () => {
  /** An app of two charts (cdk8s then validates the app three times per call), one guarded object counting its renders and checks. */
  function countingApp() {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'cnpg-i-guard-')) });
    const chart = new Chart(app, 'one', { namespace: 'ns' });
    new Chart(app, 'two');
    const counts = { renders: 0, checks: 0 };
    const data: Record<string, string> = { a: '1' };
    const cm = new ApiObject(chart, 'cm', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm' },
      data: Lazy.any({
        produce: () => {
          counts.renders++;
          return { ...data };
        },
      }),
    } as any);
    addSchemaGuard(cm, cm);
    addChecks(cm, () => {
      counts.checks++;
    });
    return { app, chart, cm, counts, data };
  }
  const docs = (yaml: string) => yaml.split(/^---$/m).map((d) => d.trim());

  test('synthYaml renders the object once and runs each check once, though cdk8s validates the app three times', () => {
    const { app, counts } = countingApp();
    expect(docs(app.synthYaml())).toEqual(['apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: ns\ndata:\n  a: "1"']);
    expect(counts).toEqual({ renders: 1, checks: 1 });
    app.synthYaml();
    expect(counts).toEqual({ renders: 2, checks: 2 });
  });

  test('App.synth renders the object once and writes what was checked', () => {
    const { app, counts } = countingApp();
    app.synth();
    expect(counts).toEqual({ renders: 1, checks: 1 });
    expect(readFileSync(join(app.outdir, 'one.k8s.yaml'), 'utf8')).toContain('  a: "1"');
  });

  test('a change made after a synth is in the next synth, and checked there', () => {
    const { app, cm, data } = countingApp();
    app.synthYaml();
    data.b = '2';
    cm.metadata.addLabel('team', 'db');
    cm.addJsonPatch(JsonPatch.add('/immutable', true));
    const yaml = app.synthYaml();
    expect(yaml).toContain('    team: db');
    expect(yaml).toContain('  b: "2"');
    expect(yaml).toContain('immutable: true');
    cm.metadata.addLabel('bad key', 'x');
    expect(() => app.synthYaml()).toThrow(/\[one\/cm\] metadata\.labels\["bad key"\]: is not a valid label key/);
    expect(() => app.synth()).toThrow(/metadata\.labels\["bad key"\]/);
  });

  test('a failed synth leaves nothing behind: once fixed, the next synth renders afresh', () => {
    const { app, cm, counts } = countingApp();
    cm.metadata.addLabel('bad key', 'x');
    expect(() => app.synthYaml()).toThrow(/is not a valid label key/);
    const renders = counts.renders;
    ApiObject.of(cm).metadata.addAnnotation('note', 'fixed');
    expect(() => app.synthYaml()).toThrow(/is not a valid label key/);
    expect(counts.renders).toBe(renders + 1);
  });

  test('outside a synth call, toJson(), chart.toJson() and Testing.synth() render and check every time', () => {
    const { app, chart, cm, counts, data } = countingApp();
    app.synthYaml();
    data.c = '3';
    expect(cm.toJson().data).toEqual({ a: '1', c: '3' });
    expect(counts).toEqual({ renders: 2, checks: 1 });
    // chart.toJson() validates the app once (one render for the guard, one for the chart)
    expect(chart.toJson()[0].data).toEqual({ a: '1', c: '3' });
    expect(counts).toEqual({ renders: 4, checks: 2 });
    data.d = '4';
    expect(Testing.synth(chart)[0].data).toEqual({ a: '1', c: '3', d: '4' });
    expect(counts).toEqual({ renders: 6, checks: 3 });
  });

  test('a second toJson() within the same synth call renders afresh', () => {
    const { app, chart, cm, counts } = countingApp();
    const seen: unknown[] = [];
    // A later object whose rendering reads the guarded one (as a lazy value may).
    new ApiObject(chart, 'reader', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'reader' },
      data: Lazy.any({
        produce: () => {
          seen.push(cm.toJson());
          return { n: String(seen.length) };
        },
      }),
    } as any);
    app.synthYaml();
    // the reader took the checked JSON once (at its own render), then the synth rendered cm again
    expect(seen).toHaveLength(1);
    expect(counts).toEqual({ renders: 2, checks: 1 });
  });

  test('a check reading the object with synthJson() shares the one rendering: before the guard ran, after it, and not used up by it', () => {
    for (const order of ['check first', 'guard first'] as const) {
      const { app, chart, cm, counts } = countingApp();
      const read: unknown[] = [];
      // A check on a construct validated before (the app: the root comes first) or after the
      // guarded object, as a Cluster's check reads the app's ObjectStores.
      const reader = order === 'check first' ? app : new Construct(chart, 'z-reader');
      addChecks(reader, () => {
        read.push(synthJson(cm));
        read.push(synthJson(cm));
      });
      const yaml = app.synthYaml();
      expect(yaml).toContain('  a: "1"');
      expect(counts).toEqual({ renders: 1, checks: 1 });
      expect(read).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'ns' }, data: { a: '1' } }, read[0]]);
      expect(read[1]).toBe(read[0]);
    }
  });

  test('synthJson() outside a synth call, or of an object without a guard, renders afresh', () => {
    const { cm, counts } = countingApp();
    expect(synthJson(cm)).toEqual(synthJson(cm));
    expect(counts.renders).toBe(2);
    const plain = new ApiObject(new Chart(new App(), 'c'), 'plain', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p' } });
    expect(synthJson(plain)).toEqual(plain.toJson());
  });

  test("the app's own synth methods still run: a subclass's override and a spy on the prototype are called", () => {
    class LoggingApp extends App {
      public readonly calls: string[] = [];
      public synthYaml(): string {
        this.calls.push('synthYaml');
        return super.synthYaml();
      }
    }
    const app = new LoggingApp({ outdir: mkdtempSync(join(tmpdir(), 'cnpg-i-guard-')) });
    const cm = new ApiObject(new Chart(app, 'one'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });
    addSchemaGuard(cm, cm);
    const spy = jest.spyOn(App.prototype, 'synth');
    try {
      expect(app.synthYaml()).toContain('name: cm');
      app.synth();
      expect(app.calls).toEqual(['synthYaml']);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  test('a library construct: a plugin added to a Cluster after a synth is in the next synth', () => {
    const app = new App({ outdir: mkdtempSync(join(tmpdir(), 'cnpg-i-guard-')) });
    const chart = new Chart(app, 'apps', { namespace: 'db' });
    const pg = new PostgresCluster(chart, 'pg', { instances: 1, storage: { size: Size.gibibytes(1) } });
    expect(app.synthYaml()).not.toContain('plugins:');
    pg.addPlugin(Plugin.fromPluginName('barman-cloud.cloudnative-pg.io'), { isWalArchiver: true });
    expect(app.synthYaml()).toContain('  plugins:\n    - enabled: true\n      isWALArchiver: true\n      name: barman-cloud.cloudnative-pg.io');
  });
});

describe('the schema layer is loaded by the first validation, not by the guard module', () => {
  const root = join(__dirname, '..', '..');
  function loadedAfter(script: string): string[] {
    const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', `${script}; console.log(JSON.stringify(Object.keys(require.cache)))`], {
      cwd: root,
      encoding: 'utf8',
    });
    return (JSON.parse(out.trim().split('\n').pop()!) as string[]).map((p) => p.split(/[\\/]/).join('/'));
  }

  test('requiring src/schema/guard loads neither ajv nor the rest of src/schema', () => {
    const files = loadedAfter("require('./src/schema/guard')");
    expect(files.some((f) => f.includes('node_modules/ajv/'))).toBe(false);
    expect(files.some((f) => f.includes('/src/schema/') && !f.endsWith('/src/schema/guard.ts'))).toBe(false);
  });

  test('a validation loads them', () => {
    const files = loadedAfter("require('./src/schema/guard').apiServerIssues({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })");
    expect(files.some((f) => f.includes('/src/schema/validate-object'))).toBe(true);
  });
});
