import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

// Loaded modules are seen from a fresh Node process: jest's own module registry would hide them.
function loadedAfter(script: string): string[] {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', `${script}; console.log(JSON.stringify(Object.keys(require.cache)))`], {
    cwd: root,
    encoding: 'utf8',
  });
  return (JSON.parse(out.trim().split('\n').pop()!) as string[]).map((p) => p.split(/[\\/]/).join('/'));
}

const loads = (files: string[], what: RegExp) => files.some((f) => what.test(f));

describe('the schema layer is lazy', () => {
  test("require('cdk8s-cnpg-i') loads neither ajv nor the CEL library nor a schema", () => {
    const files = loadedAfter("require('./src')");
    expect(loads(files, /node_modules\/ajv\//)).toBe(false);
    expect(loads(files, /node_modules\/@bufbuild\/cel\//)).toBe(false);
    expect(loads(files, /imports\/schemas\//)).toBe(false);
  });
  test("require('cdk8s-cnpg-i') loads neither the doctor's checks nor the plan nor the schema layer: they load on first use", () => {
    const files = loadedAfter("require('./src')");
    // (the constructs share the pure checks of src/checks with the doctor, and the schema guard,
    // src/schema/guard.ts, which loads the rest of the schema layer on first use; the Doctor and
    // Plan classes are exported as classes for jsii, from modules that import only types of the rest)
    const doctorOrPlan = files.filter((f) => /\/src\/(doctor\/|plan\/|schema\/(?!guard\.ts$)|cli\/)/.test(f)).map((f) => f.replace(/.*\/src\//, ''));
    expect(doctorOrPlan.sort()).toEqual(['doctor/synth-validation.ts', 'plan/plan-api.ts']);
    const used = loadedAfter("const lib = require('./src'); lib.checkManifests([]); lib.planChanges([], [])");
    expect(loads(used, /\/src\/doctor\/check-manifests\.ts$/)).toBe(true);
    expect(loads(used, /\/src\/plan\/plan\.ts$/)).toBe(true);
    // the classes' static members load the checks and the rules the same way
    const statics = loadedAfter("const lib = require('./src'); lib.Doctor.checkManifests([]); lib.Plan.PLAN_RULES.length");
    expect(loads(statics, /\/src\/doctor\/check-manifests\.ts$/)).toBe(true);
    expect(loads(statics, /\/src\/plan\/plan\.ts$/)).toBe(true);
  });
  test('loading the schema module itself loads nothing heavy either', () => {
    const files = loadedAfter("require('./src/schema')");
    expect(loads(files, /node_modules\/ajv\//)).toBe(false);
    expect(loads(files, /imports\/schemas\//)).toBe(false);
  });
  test('the first validation of a pinned kind loads only its schema and generated validator: no ajv compiler, no CEL library', () => {
    const files = loadedAfter(
      "const s = require('./src/schema'); s.validateObject({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg' }, spec: { instances: 1, storage: { size: '1Gi' } } })",
    );
    // only ajv's small runtime helpers, which the generated code requires
    expect(files.filter((f) => /node_modules\/ajv\//.test(f)).every((f) => /node_modules\/ajv\/dist\/runtime\//.test(f))).toBe(true);
    // the Cluster spec's rule only tests which fields are present: no library needed
    expect(loads(files, /node_modules\/@bufbuild\/cel\//)).toBe(false);
    expect(files.filter((f) => /imports\/schemas\/.*\.json$/.test(f)).map((f) => f.replace(/.*imports\/schemas\//, ''))).toEqual([
      'index.json',
      'postgresql.cnpg.io_clusters_v1.json',
    ]);
    expect(files.filter((f) => /imports\/schemas\/validators\//.test(f)).map((f) => f.replace(/.*imports\/schemas\/validators\//, ''))).toEqual([
      'index.ts',
      'postgresql.cnpg.io_clusters_v1.js',
      'list-map-keys.js',
    ]);
  });
  test('a rule that reads a value loads the CEL library; a schema of the caller is compiled by ajv', () => {
    const files = loadedAfter(
      "const s = require('./src/schema'); s.validateObject({ apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg' }, spec: { instances: 1, storage: { size: '1Gi' }, bootstrap: { initdb: { icuLocale: 'en', localeProvider: 'icu' } } } }); s.validateAgainstSchema({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' } }, { type: 'object' })",
    );
    expect(loads(files, /node_modules\/@bufbuild\/cel\//)).toBe(true);
    expect(loads(files, /node_modules\/ajv\/dist\/core\.js$/)).toBe(true);
  });
});

describe('compiled once per process', () => {
  test('the same validator is returned for the same schema', () => {
    const { compiledValidator } = require('../../src/schema/openapi') as typeof import('../../src/schema/openapi');
    const { crdSchema } = require('../../src/schema/crd-schemas') as typeof import('../../src/schema/crd-schemas');
    const cluster = crdSchema('postgresql.cnpg.io/v1', 'Cluster')!;
    expect(crdSchema('postgresql.cnpg.io/v1', 'Cluster')).toBe(cluster);
    expect(compiledValidator(cluster.schema)).toBe(compiledValidator(cluster.schema));
  });
});
