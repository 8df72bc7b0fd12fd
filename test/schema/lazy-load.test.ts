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
    expect(loads(files, /node_modules\/@marcbachmann\/cel-js\//)).toBe(false);
    expect(loads(files, /imports\/schemas\//)).toBe(false);
  });
  test('the constructs load neither the doctor, the plan, the rule engine nor the schema layer (the compiled entry point loads the doctor and the plan on first use: scripts/lazy-exports.mjs)', () => {
    const files = loadedAfter("require('./src/tls'); require('./src/plugins'); require('./src/postgres'); require('./src/presets')");
    // (the constructs share the pure checks of src/checks with the doctor, and the schema guard,
    // src/schema/guard.ts, which loads the rest of the schema layer on first use)
    const heavy = files.filter((f) => /\/src\/(doctor\/|plan\/|rules\/|cli\/|schema\/(?!guard\.ts$))/.test(f)).map((f) => f.replace(/.*\/src\//, ''));
    expect(heavy).toEqual([]);
    // the probe sees what it must: the doctor's modules once the doctor is used
    const used = loadedAfter("require('./src/doctor').checkManifests([])");
    expect(loads(used, /\/src\/doctor\/check-manifests\.ts$/)).toBe(true);
    expect(loads(used, /\/src\/rules\/registry\.ts$/)).toBe(true);
  });
  test("the constructs load CloudNativePG's admission checks at their first synth, and no YAML parser, not with the library", () => {
    const ADMISSION = /\/src\/checks\/admission\/index\.ts$/;
    // (from the sources, src/index.ts loads the doctor, which uses them: the construct modules here)
    const constructs = "require('./src/tls'); require('./src/plugins'); require('./src/presets'); const { PostgresCluster } = require('./src/postgres');";
    const beforeSynth = loadedAfter(constructs);
    expect(loads(beforeSynth, ADMISSION)).toBe(false);
    // nor the YAML parser, which reads release manifests (cdk8s has a copy of its own)
    expect(beforeSynth.filter((f) => /\/node_modules\/yaml\//.test(f) && !/\/node_modules\/cdk8s\//.test(f))).toEqual([]);
    const synth =
      constructs +
      "const { App, Chart, Size } = require('cdk8s'); const app = new App(); " +
      "new PostgresCluster(new Chart(app, 'c', { namespace: 'db' }), 'pg', { instances: 1, storage: { size: Size.gibibytes(1) } }); app.synthYaml()";
    expect(loads(loadedAfter(synth), ADMISSION)).toBe(true);
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
    expect(loads(files, /node_modules\/@marcbachmann\/cel-js\//)).toBe(false);
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
    expect(loads(files, /node_modules\/@marcbachmann\/cel-js\//)).toBe(true);
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
