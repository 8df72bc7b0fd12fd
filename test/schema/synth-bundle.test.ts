import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

/** What `npm run synth` bundles for the example app (scripts/app-bundle.mjs), built in a fresh Node process. */
function bundleExampleApp(): { inputs: string[]; externals: string[]; text: string } {
  const script = [
    "const { bundleApp } = await import('./scripts/app-bundle.mjs');",
    "const r = await bundleApp('src/main.ts');",
    'const out = Object.values(r.metafile.outputs)[0];',
    'process.stdout.write(JSON.stringify({ inputs: Object.keys(r.metafile.inputs), externals: out.imports.filter((i) => i.external).map((i) => i.path), text: r.outputFiles[0].text }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out) as { inputs: string[]; externals: string[]; text: string };
}

describe('the bundle of `npm run synth` (scripts/app-bundle.mjs)', () => {
  let bundle: ReturnType<typeof bundleExampleApp>;
  beforeAll(() => {
    bundle = bundleExampleApp();
  });

  test('leaves the generated validators and the CRD schema files out: they are required from disk on first use', () => {
    // of imports/schemas/, only the small generated index of them is bundled
    expect(bundle.inputs.filter((f) => f.startsWith('imports/schemas/'))).toEqual(['imports/schemas/validators/index.ts']);
    // the app's own sources are in it
    expect(bundle.inputs).toContain('src/schema/crd-schemas.ts');
    const schemaDir = join(root, 'imports', 'schemas');
    const required = bundle.externals
      .filter((p) => p.startsWith(schemaDir))
      .map((p) =>
        p
          .slice(schemaDir.length + 1)
          .split(/[\\/]/)
          .join('/'),
      )
      .sort();
    expect(required).toEqual([
      'barmancloud.cnpg.io_objectstores_v1.json',
      'cert-manager.io_certificates_v1.json',
      'cert-manager.io_clusterissuers_v1.json',
      'cert-manager.io_issuers_v1.json',
      'index.json',
      'monitoring.coreos.com_podmonitors_v1.json',
      'monitoring.coreos.com_prometheusrules_v1.json',
      'postgresql.cnpg.io_backups_v1.json',
      'postgresql.cnpg.io_clusterimagecatalogs_v1.json',
      'postgresql.cnpg.io_clusters_v1.json',
      'postgresql.cnpg.io_databaseroles_v1.json',
      'postgresql.cnpg.io_databases_v1.json',
      'postgresql.cnpg.io_failoverquorums_v1.json',
      'postgresql.cnpg.io_imagecatalogs_v1.json',
      'postgresql.cnpg.io_poolers_v1.json',
      'postgresql.cnpg.io_publications_v1.json',
      'postgresql.cnpg.io_scheduledbackups_v1.json',
      'postgresql.cnpg.io_subscriptions_v1.json',
      'validators/barmancloud.cnpg.io_objectstores_v1.js',
      'validators/cert-manager.io_certificates_v1.js',
      'validators/cert-manager.io_clusterissuers_v1.js',
      'validators/cert-manager.io_clusterissuers_v1.js',
      'validators/monitoring.coreos.com_podmonitors_v1.js',
      'validators/monitoring.coreos.com_prometheusrules_v1.js',
      'validators/postgresql.cnpg.io_backups_v1.js',
      'validators/postgresql.cnpg.io_clusterimagecatalogs_v1.js',
      'validators/postgresql.cnpg.io_clusterimagecatalogs_v1.js',
      'validators/postgresql.cnpg.io_clusters_v1.js',
      'validators/postgresql.cnpg.io_databaseroles_v1.js',
      'validators/postgresql.cnpg.io_databases_v1.js',
      'validators/postgresql.cnpg.io_failoverquorums_v1.js',
      'validators/postgresql.cnpg.io_poolers_v1.js',
      'validators/postgresql.cnpg.io_publications_v1.js',
      'validators/postgresql.cnpg.io_scheduledbackups_v1.js',
      'validators/postgresql.cnpg.io_subscriptions_v1.js',
    ]);
    // by absolute path: the bundle lives in node_modules/.cache, not beside the files
    expect(bundle.text).toContain(`require(${JSON.stringify(join(schemaDir, 'validators', 'postgresql.cnpg.io_clusters_v1.js'))})`);
    // not a line of generated validator code in it
    expect(bundle.text).not.toContain('function validate10(');
  });

  test('leaves the cdk8s bindings out: it requires their compiled CommonJS (imports/compiled/)', () => {
    expect(bundle.inputs.filter((f) => /^imports\/[^/]+$/.test(f))).toEqual([]);
    const compiledDir = join(root, 'imports', 'compiled');
    const required = [...new Set(bundle.externals.filter((p) => p.startsWith(compiledDir)).map((p) => p.slice(compiledDir.length + 1)))].sort();
    expect(required).toEqual(['barmancloud.cnpg.io.js', 'cert-manager.io.js', 'postgresql.cnpg.io.js']);
    expect(bundle.text).not.toContain('class Cluster extends');
  });
});

describe('the compiled bindings (imports/compiled)', () => {
  test('are what `npm run import` writes today: compiled again here from imports/*.ts, byte for byte', () => {
    const script = [
      "const { compileBindings } = await import('./scripts/compile-bindings.mjs');",
      'process.stdout.write(JSON.stringify([...compileBindings()]));',
    ].join('\n');
    const fresh = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
    ) as [string, string][];
    const compiledDir = join(root, 'imports', 'compiled');
    expect(readdirSync(compiledDir).sort()).toEqual(fresh.map(([name]) => name).sort());
    expect(fresh.map(([name]) => name)).toEqual(['barmancloud.cnpg.io.js', 'cert-manager.io.js', 'monitoring.coreos.com.js', 'postgresql.cnpg.io.js']);
    for (const [name, text] of fresh) {
      // (a stale file fails here: run `npm run import`, or `node scripts/compile-bindings.mjs`)
      expect({ name, same: readFileSync(join(compiledDir, name), 'utf8') === text }).toEqual({ name, same: true });
    }
  });

  test('export what the TypeScript bindings export', () => {
    for (const name of ['barmancloud.cnpg.io', 'cert-manager.io', 'monitoring.coreos.com', 'postgresql.cnpg.io']) {
      // jest resolves imports/NAME to the TypeScript module; the compiled one is required by its path
      const fromTs = Object.keys(require(join(root, 'imports', name)) as object).sort();
      const fromJs = Object.keys(require(join(root, 'imports', 'compiled', `${name}.js`)) as object).sort();
      expect(fromJs).toEqual(fromTs);
      expect(fromJs.length).toBeGreaterThan(10);
    }
  });
});
