/*
 * The library as a user gets it: `npm pack` of this checkout, installed into a fresh cdk8s app
 * that this test writes, then compiled, synthesized, checked and snapshot-tested the way the
 * README's "Use it in your project" section says; then the starter (examples/platform) installed
 * from the same tarball into a copy of it, and run through its own scripts.
 *
 * No network: the tarball is installed with `npm install --offline`, and its peers (and the
 * tools a user app would have as devDependencies) are linked from this project's node_modules,
 * which `npm ci` already filled. One temporary app serves every step of the README's part, one
 * copy of the starter every step of its own.
 */
import { execFileSync, spawnSync, SpawnSyncReturns } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';

const ROOT = path.join(__dirname, '..', '..');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The fenced block right after `<!-- consumer: NAME -->` in the README. */
function readmeBlock(name: string): string {
  const m = README.match(new RegExp(`<!-- consumer: ${name.replace(/\./g, '\\.')} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\``));
  if (!m) throw new Error(`README has no block marked <!-- consumer: ${name} -->`);
  return m[1];
}

/** The README's first TypeScript block: the shortest working example. */
const SHORTEST = README.match(/```ts\n([\s\S]*?)```/)![1];

// What a user's app has besides the library: its peers and the dev tools the README names.
const LINKED = ['cdk8s', 'cdk8s-plus-28', 'constructs', 'cdk8s-cli', 'typescript', 'tsx', 'jest', 'ts-jest', '@types/jest', '@types/node'];

/**
 * The library's runtime `dependencies` and everything they need in turn (their dependencies and
 * peers), read from this project's node_modules: an offline install finds them all as links.
 */
function runtimeClosure(): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    const manifest = path.join(ROOT, 'node_modules', name, 'package.json');
    if (!fs.existsSync(manifest)) return;
    seen.add(name);
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    for (const dep of [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]) visit(dep);
  };
  Object.keys(PKG.dependencies ?? {}).forEach(visit);
  return [...seen].sort();
}

/**
 * The staging copy's node_modules: the runtime dependencies and what they need (the packages the
 * tarball bundles) as real copies, everything else (the build tools prepack runs) as links. npm
 * decides what goes into the bundle from the tree it reads; through one link to the whole
 * node_modules it bundled only the direct dependencies whenever npm's hidden lockfile there was
 * older than the folder (after any test wrote node_modules/.cache), and the transitive ones
 * (fast-deep-equal for ajv, @bufbuild/cel-spec...) went missing from the tarball.
 */
function stageNodeModules(from: string, to: string): void {
  const bundled = new Set(runtimeClosure());
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from)) {
    if (entry === '.cache' || entry === '.package-lock.json') continue;
    const names = entry.startsWith('@') ? fs.readdirSync(path.join(from, entry)).map((n) => `${entry}/${n}`) : [entry];
    if (entry.startsWith('@')) fs.mkdirSync(path.join(to, entry), { recursive: true });
    for (const name of names) {
      if (bundled.has(name)) fs.cpSync(path.join(from, name), path.join(to, name), { recursive: true, dereference: true });
      else fs.symlinkSync(path.join(from, name), path.join(to, name), 'dir');
    }
  }
}

let work: string;
let app: string;
let tarball: string;

function run(cmd: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, CDK8S_CHECK_UPGRADE: 'false', ...extraEnv };
  // The app is a user's: none of this project's jest or CI settings leak into it.
  delete env.CDK8S_OUTDIR;
  delete env.JEST_WORKER_ID;
  return spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  if (r.error) throw new Error(`${what}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  return r.stdout;
}

/** Every file of the tarball, without the leading `package/`. */
/** Copies what git would hand a user of `from` (tracked files, and new ones it does not ignore) into `to`. */
function copyCheckout(from: string, to: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], { cwd: from, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && fs.existsSync(path.join(from, f)));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(to, f)), { recursive: true });
    fs.copyFileSync(path.join(from, f), path.join(to, f));
  }
}

/**
 * Installs into the app `dir`, offline, the packed library, its runtime dependencies and the
 * `packages` named, each from this project's node_modules.
 */
function installPacked(dir: string, packages: readonly string[], what: string): void {
  ok(
    run(
      NPM,
      [
        'install',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--legacy-peer-deps',
        tarball,
        ...[...runtimeClosure(), ...packages].map((p) => path.join(ROOT, 'node_modules', p)),
      ],
      dir,
    ),
    what,
  );
}

function tarballFiles(): string[] {
  return execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''))
    .sort();
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-consumer-'));

  // 1. Pack a copy of the checkout (what git tracks plus new files it does not ignore), so that
  //    `prepack` builds in the copy and never touches this checkout's lib/, which other tests'
  //    processes may be reading.
  const staging = path.join(work, 'staging');
  copyCheckout(ROOT, staging);
  stageNodeModules(path.join(ROOT, 'node_modules'), path.join(staging, 'node_modules'));
  const packed = ok(run(NPM, ['pack', '--silent', '--pack-destination', work], staging), 'npm pack')
    .trim()
    .split('\n')
    .pop()!;
  tarball = path.join(work, packed);

  // 2. A fresh cdk8s app, written as the README says.
  app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'my-platform', version: '1.0.0', private: true }, null, 2));
  installPacked(app, LINKED, 'npm install');
  fs.writeFileSync(
    path.join(app, 'tsconfig.json'),
    JSON.stringify(
      {
        compilerOptions: {
          target: 'ES2022',
          module: 'commonjs',
          moduleResolution: 'node',
          lib: ['ES2022'],
          types: ['node', 'jest'],
          strict: true,
          noImplicitReturns: true,
          noUnusedLocals: true,
          esModuleInterop: true,
          // The packed .d.ts files are checked too: no missing or internal type may leak into them.
          skipLibCheck: false,
        },
        include: ['*.ts'],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(app, 'main.ts'), SHORTEST);
  fs.writeFileSync(path.join(app, 'cdk8s.yaml'), readmeBlock('cdk8s.yaml'));
  fs.writeFileSync(path.join(app, 'main.test.ts'), readmeBlock('main.test.ts'));
  // the doctor in the app's own jest (CommonJS under ts-jest): a CRD rule that reads a value loads
  // the CEL evaluator, which the package carries as CommonJS (an ES module would not load here)
  fs.writeFileSync(
    path.join(app, 'cel.test.ts'),
    `import { checkManifests } from 'cdk8s-cnpg-i';

test('the doctor evaluates a CRD rule', () => {
  const cluster = {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', namespace: 'db' },
    spec: { instances: 1, storage: { size: '1Gi' }, bootstrap: { initdb: { icuLocale: 'en' } } },
  };
  const messages = checkManifests([cluster], { operatorNamespace: 'cnpg-system' }).map((f) => f.message);
  expect(messages.join('\\n')).toContain('(no such key: localeProvider)');
});
`,
  );
  fs.writeFileSync(path.join(app, 'jest.config.js'), "module.exports = { testEnvironment: 'node', transform: { '^.+\\\\.ts$': 'ts-jest' } };\n");
}, 300_000);

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed library in a fresh cdk8s app', () => {
  test('the tarball holds the compiled library, its types, the bin, README and LICENSE, and nothing a consumer does not need', () => {
    const files = tarballFiles();
    for (const f of [
      'package.json',
      'README.md',
      'LICENSE',
      'bin/cnpg-i-doctor.js',
      'lib/src/index.js',
      'lib/src/index.d.ts',
      'lib/src/cli/doctor.js',
      'lib/src/doctor/cdk8s-validation-plugin.js',
      'lib/imports/postgresql.cnpg.io.js',
      'lib/imports/postgresql.cnpg.io.d.ts',
      'lib/imports/schemas/index.json',
      'lib/imports/schemas/postgresql.cnpg.io_clusters_v1.json',
      'lib/imports/schemas/validators/index.js',
      'lib/imports/schemas/validators/postgresql.cnpg.io_clusters_v1.js',
      'lib/imports/schemas/validators/list-map-keys.js',
    ]) {
      expect(files).toContain(f);
    }
    // the jsii assembly, for jsii tooling (jsii-pacmak, jsii-docgen, Construct Hub), compressed:
    // `.jsii` redirects to `.jsii.gz` (@jsii/spec loadAssemblyFromFile follows the redirect)
    expect(files).toEqual(expect.arrayContaining(['.jsii', '.jsii.gz']));
    const installed = path.join(app, 'node_modules', 'cdk8s-cnpg-i');
    expect(JSON.parse(fs.readFileSync(path.join(installed, '.jsii'), 'utf8'))).toEqual({
      schema: 'jsii/file-redirect',
      compression: 'gzip',
      filename: '.jsii.gz',
    });
    const assembly = JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(installed, '.jsii.gz'))).toString('utf8'));
    expect(assembly).toMatchObject({ schema: 'jsii/0.10.0', name: 'cdk8s-cnpg-i' });
    expect(Object.keys(assembly.types)).toContain('cdk8s-cnpg-i.PostgresCluster');
    // not the example app, the starter, sources, tests, benchmarks, build state or synth output (the bundled
    // dependencies under node_modules/ are as their authors publish them)
    const own = files.filter((f) => !f.startsWith('node_modules/'));
    expect(
      own.filter(
        (f) =>
          /^lib\/src\/main\./.test(f) ||
          /^(src|test|bench|dist|scripts|docs|examples|\.ci)\//.test(f) ||
          /\.tsbuildinfo$|\.ts$/.test(f.replace(/\.d\.ts$/, '')),
      ),
    ).toEqual([]);
    // jsii requires a dependency that is not a jsii module to be bundled: exactly the runtime
    // dependencies and what they need in turn are (no cdk8s, no devDependency)
    const bundled = [
      ...new Set(
        files
          .filter((f) => f.startsWith('node_modules/'))
          .map((f) =>
            f
              .split('/')
              .slice(1, f.split('/')[1].startsWith('@') ? 3 : 2)
              .join('/'),
          ),
      ),
    ].sort();
    expect(PKG.bundledDependencies).toEqual(Object.keys(PKG.dependencies).sort());
    expect(bundled).toEqual(runtimeClosure());
    expect(fs.readFileSync(path.join(app, 'node_modules', 'cdk8s-cnpg-i', 'LICENSE'), 'utf8')).toContain(
      'Apache License\n                           Version 2.0, January 2004',
    );
  });

  test('the published types keep their JSDoc and leave out @internal members', () => {
    const lib = path.join(app, 'node_modules', 'cdk8s-cnpg-i', 'lib', 'src');
    const dts = tarballFiles().filter((f) => f.startsWith('lib/src/') && f.endsWith('.d.ts'));
    const text = dts.map((f) => fs.readFileSync(path.join(app, 'node_modules', 'cdk8s-cnpg-i', f), 'utf8')).join('\n');
    expect(text).not.toContain('@internal');
    // requireDuration is @internal in src/common/render.ts; StandalonePlugin is public and documented
    expect(fs.readFileSync(path.join(lib, 'common', 'render.d.ts'), 'utf8')).not.toContain('requireDuration');
    expect(fs.readFileSync(path.join(lib, 'plugins', 'standalone-plugin.d.ts'), 'utf8')).toMatch(/\/\*\*[\s\S]*?\*\/\s*export declare class StandalonePlugin/);
  });

  test('the package resolves through its exports map, and only through it', () => {
    const probe =
      "const p = require.resolve('cdk8s-cnpg-i'); let deep = 'refused'; try { require.resolve('cdk8s-cnpg-i/lib/src/doctor/rules'); deep = 'resolved'; } catch {} console.log(JSON.stringify({ p, deep, v: require('cdk8s-cnpg-i/package.json').version }));";
    const out = JSON.parse(ok(run(process.execPath, ['-e', probe], app), 'node -e'));
    expect(path.relative(app, out.p)).toBe(path.join('node_modules', 'cdk8s-cnpg-i', 'lib', 'src', 'index.js'));
    expect(out.deep).toBe('refused');
    expect(out.v).toBe(PKG.version);
  });

  test('the package loads the doctor and the plan on first use; from CommonJS and from ES modules every name is there', () => {
    const probe = [
      "const lib = require('cdk8s-cnpg-i');",
      "const loaded = () => Object.keys(require.cache).map((f) => f.split(require('path').sep).join('/')).filter((f) => /cdk8s-cnpg-i\\/lib\\/src\\/(doctor|plan|rules|cli|live|schema\\/(?!guard\\.js$))/.test(f));",
      'const before = loaded();',
      'const names = Object.keys(lib).sort();',
      'const findings = lib.checkManifests([]);',
      'console.log(JSON.stringify({ before, names, after: loaded().some((f) => /\\/doctor\\/check-manifests\\.js$/.test(f)), findings: findings.length }));',
    ].join(' ');
    const out = JSON.parse(ok(run(process.execPath, ['-e', probe], app), 'node -e'));
    expect(out.before).toEqual([]);
    expect(out.after).toBe(true);
    expect(out.findings).toBe(1); // CNPGI001: no operator namespace given
    // the same names as the sources' index (the compiled entry point only defers loading)
    expect(out.names).toEqual(Object.keys(require('../../src')).sort());
    fs.writeFileSync(
      path.join(app, 'probe.mjs'),
      "import { checkManifests, planChanges, Doctor, PLAN_RULES, StandalonePlugin } from 'cdk8s-cnpg-i';\nconsole.log([typeof checkManifests, typeof planChanges, typeof Doctor, PLAN_RULES.length > 0, typeof StandalonePlugin].join(' '));\n",
    );
    expect(ok(run(process.execPath, ['probe.mjs'], app), 'node probe.mjs').trim()).toBe('function function function true function');
  });

  test("the README's shortest example compiles with strict tsc against the packed .d.ts", () => {
    ok(run(path.join(app, 'node_modules', '.bin', 'tsc'), ['-p', '.', '--noEmit'], app), 'tsc');
  });

  test("the README's cdk8s.yaml names this package's version", () => {
    expect(readmeBlock('cdk8s.yaml')).toContain(`    version: ${PKG.version}\n`);
  });

  test("`cdk8s synth` with the README's cdk8s.yaml writes the plugin and runs the doctor as a validation plugin", () => {
    const r = run(path.join(app, 'node_modules', '.bin', 'cdk8s'), ['synth'], app);
    const out = ok(r, 'cdk8s synth');
    const yaml = fs.readFileSync(path.join(app, 'dist', 'cnpg-system.k8s.yaml'), 'utf8');
    expect(yaml).toContain('cnpg.io/pluginName: cnpg-i-hello-world.cloudnative-pg.io');
    expect(yaml).toContain('--client-cert=/client/ca.crt');
    // cdk8s-cli loaded the doctor from the installed package and printed its report
    expect(out).toContain(`node_modules${path.sep}cdk8s-cnpg-i@${PKG.version})`);
    expect(out).toMatch(/plugins\s+│ cnpg-i-hello-world\.cloudnative-pg\.io/);
    expect(out).toContain('Validations ended succesfully');
  });

  test('the installed cnpg-i-doctor bin checks the output with its runtime dependencies only', () => {
    // A preload refuses every package but the library's own `dependencies` and what they need in
    // turn (no tsx fallback, no TypeScript, and not even cdk8s: the doctor works on anyone's YAML
    // without it).
    const allowed = [PKG.name, ...runtimeClosure()];
    const guard = path.join(work, 'only-runtime-deps.js');
    fs.writeFileSync(
      guard,
      `const Module = require('module');
const allowed = new Set(${JSON.stringify(allowed)});
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const bare = !request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:') && !Module.isBuiltin(request);
  if (bare) {
    const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
    if (!allowed.has(name)) throw new Error('cnpg-i-doctor loaded ' + request + ', which is not a runtime dependency');
  }
  return resolve.call(this, request, parent, ...rest);
};
`,
    );
    const bin = path.join(app, 'node_modules', '.bin', 'cnpg-i-doctor');
    const r = run(process.execPath, ['-r', guard, bin, 'dist', '--operator-namespace', 'cnpg-system'], app);
    expect({ code: r.status, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(r.stdout).toContain('cnpg-i-hello-world.cloudnative-pg.io');
    // the schema layer finds its generated validators in the package (the Cluster schema's type check)
    fs.writeFileSync(
      path.join(work, 'bad-cluster.yaml'),
      'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: pg\n  namespace: db\n' + 'spec:\n  instances: three\n  storage:\n    size: 1Gi\n',
    );
    const bad = run(process.execPath, ['-r', guard, bin, path.join(work, 'bad-cluster.yaml'), '--operator-namespace', 'cnpg-system'], app);
    expect({ code: bad.status, err: bad.stderr }).toEqual({ code: 1, err: '' });
    expect(bad.stdout).toMatch(/CNPGI060 +spec\.instances 'three' must be a whole number/);
    // and evaluates the CRDs' CEL rules with the evaluator bundled into the package (a CommonJS
    // file of its own: no package to resolve, nothing the guard lets through)
    fs.writeFileSync(
      path.join(work, 'icu-cluster.yaml'),
      'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: pg\n  namespace: db\n' +
        'spec:\n  instances: 1\n  storage:\n    size: 1Gi\n  bootstrap:\n    initdb:\n      icuLocale: en\n',
    );
    const icu = run(process.execPath, ['-r', guard, bin, path.join(work, 'icu-cluster.yaml'), '--operator-namespace', 'cnpg-system'], app);
    expect({ code: icu.status, err: icu.stderr }).toEqual({ code: 1, err: '' });
    expect(icu.stdout).toContain("fails the CRD rule `!has(self.icuLocale) || self.localeProvider == 'icu'` (no such key: localeProvider)");
    // `cnpg-i-doctor cluster` reads a kubeconfig with the Kubernetes client bundled into the
    // package (no @kubernetes/client-node to install): here a server nothing listens on
    fs.writeFileSync(
      path.join(work, 'kubeconfig'),
      'apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "https://127.0.0.1:1"}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n',
    );
    const live = run(process.execPath, ['-r', guard, bin, 'cluster', '--kubeconfig', path.join(work, 'kubeconfig')], app);
    expect({ code: live.status, err: live.stderr }).toEqual({
      code: 2,
      err: `cnpg-i-doctor cluster: cannot reach the API server https://127.0.0.1:1 (context 'x' of ${path.join(work, 'kubeconfig')}): ECONNREFUSED; check that the cluster runs and the address is right (kubectl --context x get --raw /version), or pass --context NAME\n`,
    });
    // the guard does refuse: the library's index needs cdk8s and cdk8s-plus (whichever loads first)
    const refused = run(process.execPath, ['-r', guard, '-e', "require('cdk8s-cnpg-i')"], app);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/cnpg-i-doctor loaded cdk8s(-plus-28)?, which is not a runtime dependency/);
  });

  test("the README's snapshot test, and a doctor test that evaluates a CRD rule, run with jest in the app and pass in CI mode", () => {
    const jest = path.join(app, 'node_modules', '.bin', 'jest');
    ok(run(jest, ['--ci=false'], app), 'jest (first run)');
    const snap = fs.readFileSync(path.join(app, '__snapshots__', 'main.test.ts.snap'), 'utf8');
    expect(snap).toContain('"cnpg.io/pluginName": "cnpg-i-hello-world.cloudnative-pg.io"');
    ok(run(jest, ['--ci'], app), 'jest --ci');
    // and the doctor's CEL test ran in it (cel.test.ts above)
    expect(run(jest, ['--ci', '--listTests'], app).stdout).toContain('cel.test.ts');
  });
});

/*
 * The starter (examples/platform): a copy of it, as a user copies it, with the packed library
 * and its pinned toolchain installed, then its own scripts: `npm run synth` (cdk8s synth with the
 * doctor as a validation plugin and the plan in the app), `npm test` (tsc and jest, against the
 * committed snapshot) and `npm run doctor`.
 *
 * When the library's output changes on purpose, the committed snapshot is stale and `npm test`
 * here fails with jest's diff: run this suite once with CNPG_I_UPDATE_STARTER_SNAPSHOT=1, which
 * runs the starter's jest with `-u` and copies the new snapshot back into examples/platform.
 */
describe('the starter app in examples/platform', () => {
  const STARTER = path.join(ROOT, 'examples', 'platform');
  const STARTER_PKG = JSON.parse(fs.readFileSync(path.join(STARTER, 'package.json'), 'utf8'));
  const SNAPSHOT = path.join('__snapshots__', 'platform.test.ts.snap');
  let starter: string;

  beforeAll(() => {
    // What git would hand a user (tracked files and new ones it does not ignore), never a
    // node_modules or dist/ left in the checkout.
    starter = path.join(work, 'platform');
    copyCheckout(STARTER, starter);
    // The starter's own dependencies, each from the tarball or from this project's node_modules
    // (the first test checks that those are the versions the starter pins).
    const own = [...Object.keys(STARTER_PKG.dependencies), ...Object.keys(STARTER_PKG.devDependencies)].filter((p) => p !== PKG.name);
    installPacked(starter, own, 'npm install (starter)');
  }, 300_000);

  test('pins every dependency exactly, to the versions this test installs, and names this library version', () => {
    const pinned = { ...STARTER_PKG.dependencies, ...STARTER_PKG.devDependencies };
    const installed = Object.fromEntries(
      Object.keys(pinned).map((p) => [
        p,
        p === PKG.name ? PKG.version : JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', p, 'package.json'), 'utf8')).version,
      ]),
    );
    expect(pinned).toEqual(installed);
    // the toolchain a user installs: the compiler, the test runner and its TypeScript transform,
    // the app runner, cdk8s-cli and the types
    expect(Object.keys(STARTER_PKG.devDependencies).sort()).toEqual(['@types/jest', '@types/node', 'cdk8s-cli', 'jest', 'ts-jest', 'tsx', 'typescript']);
    expect(Object.keys(STARTER_PKG.dependencies).sort()).toEqual(['cdk8s', PKG.name, 'cdk8s-plus-28', 'constructs'].sort());
    // cdk8s.yaml loads the doctor from the installed library; its version label says which
    const cdk8sYaml = fs.readFileSync(path.join(STARTER, 'cdk8s.yaml'), 'utf8');
    expect(cdk8sYaml).toContain(`  - package: ./node_modules/${PKG.name}\n    version: ${PKG.version}\n    class: DoctorValidationPlugin\n`);
    expect(STARTER_PKG.scripts.synth).toBe('cdk8s synth --no-check-upgrade');
  });

  test('`npm run synth` writes both charts, runs the doctor over them and the plan in the app', () => {
    const r = run(NPM, ['run', 'synth'], starter);
    ok(r, 'npm run synth');
    const system = fs.readFileSync(path.join(starter, 'dist', 'cnpg-system.k8s.yaml'), 'utf8');
    const databases = fs.readFileSync(path.join(starter, 'dist', 'databases.k8s.yaml'), 'utf8');
    expect(system).toContain('cnpg.io/pluginName: barman-cloud.cloudnative-pg.io');
    expect(system).toContain('cnpg.io/pluginName: cnpg-i-hello-world.cloudnative-pg.io');
    expect(system).toContain('isCA: true'); // the private CA
    expect(databases.match(/^kind: Cluster$/gm)).toHaveLength(3);
    expect(databases.match(/^kind: ScheduledBackup$/gm)).toHaveLength(2);
    expect(databases).toContain('kind: ObjectStore');
    expect(databases).toMatch(/recoveryTarget:\n\s+exclusive: true\n\s+targetTime: "2026-05-01T09:00:00Z"\n\s+source: orders\n/);
    // the doctor, loaded by cdk8s-cli from the installed library, found nothing to stop on
    expect(r.stdout).toContain(`node_modules${path.sep}${PKG.name}@${PKG.version})`);
    expect(r.stdout).toContain('Validations ended succesfully');
    // the plan said what it compared with: outside a repository, nothing
    expect(r.stderr).toMatch(/^plan: compared with nothing: .*not in a git repository/m);
  });

  test('`npm test` type-checks the starter and passes its snapshot and doctor tests in CI mode', () => {
    if (process.env.CNPG_I_UPDATE_STARTER_SNAPSHOT === '1') {
      ok(run(path.join(starter, 'node_modules', '.bin', 'jest'), ['--ci=false', '-u'], starter), 'jest -u (starter)');
      fs.mkdirSync(path.join(STARTER, '__snapshots__'), { recursive: true });
      fs.copyFileSync(path.join(starter, SNAPSHOT), path.join(STARTER, SNAPSHOT));
    }
    const out = ok(run(NPM, ['test'], starter, { CI: 'true' }), 'npm test (starter)');
    expect(out).toContain('tsc --noEmit && jest');
    // jest --ci never writes a snapshot: the committed one was compared, not created
    expect(fs.readFileSync(path.join(starter, SNAPSHOT), 'utf8')).toBe(fs.readFileSync(path.join(STARTER, SNAPSHOT), 'utf8'));
  });

  test('`npm run doctor` checks dist/ with the installed cnpg-i-doctor', () => {
    const r = run(NPM, ['run', 'doctor'], starter);
    expect({ code: r.status, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(r.stdout).toContain('barman-cloud.cloudnative-pg.io');
  });

  test('the plan in the app fails the synth when a change would delete an archiving Cluster', () => {
    const git = (...args: string[]) => ok(run('git', ['-c', 'user.name=starter', '-c', 'user.email=starter@example.com', ...args], starter), `git ${args[0]}`);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'platform');
    const platform = path.join(starter, 'platform.ts');
    const before = fs.readFileSync(platform, 'utf8');
    expect(before).toContain("new PostgresCluster(databases, 'billing',");
    fs.writeFileSync(platform, before.replace("new PostgresCluster(databases, 'billing',", "new PostgresCluster(databases, 'invoices',"));
    try {
      const r = run(NPM, ['run', 'synth'], starter);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/^plan: compared the new output with git HEAD:dist \(2 files\)$/m);
      expect(r.stdout + r.stderr).toMatch(/CNPGI2\d\d .*Cluster.*billing/);
    } finally {
      fs.writeFileSync(platform, before);
    }
  });
});
