#!/usr/bin/env node
// `npm run bench`: every benchmark, side by side in one run, printed as a table and written to
// bench/RESULTS.md. Absolute times on these shared machines are noise; the ratios are the result.
//
//   node bench/run.mjs            the full run (several minutes)
//   node bench/run.mjs --quick    one round each and small fleets: checks the harness works
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyValidators } from '../scripts/copy-validators.mjs';
import { lazify } from '../scripts/lazy-exports.mjs';
import { doctorBench } from './doctor-run.mjs';
import { fleetBench } from './fleet-run.mjs';
import { planBench } from './plan-run.mjs';
import { schemaBench } from './schema-run.mjs';
import { interleave, ms, ratio, table } from './stats.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const rounds = quick ? 1 : 7;
const node = process.execPath;
const cacheDir = join(root, 'node_modules', '.cache', 'cdk8s-cnpg-i-synth');
const out = mkdtempSync(join(tmpdir(), 'cnpg-i-bench-'));
const env = { ...process.env, CDK8S_CHECK_UPGRADE: 'false', CDK8S_OUTDIR: out };
const opts = { cwd: root, env };
const sections = [];
let appSection;
// the main job's medians, compared with loading cdk8s in section 2
let mainJob;

// The precompiled baselines are built into a folder of the benchmark's own, never into lib/,
// which the doctor's bin may be reading at the same time.
const built = join(root, 'bench', '.work', 'lib');
console.error('building the precompiled baselines (tsc)...');
// From scratch: a stale incremental state beside a changed tree has given a broken build.
rmSync(built, { recursive: true, force: true });
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json', '--outDir', built, '--tsBuildInfoFile', join(built, '.tsbuildinfo')], {
  cwd: root,
  stdio: 'ignore',
});
// and, as `npm run build` does, the generated validators, which tsc does not compile, and the
// entry point's lazy re-exports of the doctor and the plan
copyValidators(built);
writeFileSync(join(built, 'src', 'index.js'), lazify(readFileSync(join(built, 'src', 'index.js'), 'utf8'), join(built, 'src')));

// 1. The main job: npm run synth of the example app, against the same app precompiled, and
//    against the stock cdk8s setup (cdk8s synth with a type-checking ts-node app).
{
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // cold: the app's bundle is made again, as after an edit of the app; the code cache of the
  // modules that did not change (scripts/compile-cache.mjs: cdk8s, cdk8s-plus...) is kept
  const clearBundle = () => {
    for (const f of existsSync(cacheDir) ? readdirSync(cacheDir) : []) if (f !== 'v8') rmSync(join(cacheDir, f), { force: true });
  };
  // a first run ever: neither the bundle nor any code cache
  const clearCache = () => rmSync(cacheDir, { recursive: true, force: true });
  const cases = [
    { name: 'npm run synth, first run (no bundle, no code cache)', cmd: npm, args: ['run', '-s', 'synth'], opts, before: clearCache },
    { name: 'npm run synth, cold (no bundle cache)', cmd: npm, args: ['run', '-s', 'synth'], opts, before: clearBundle },
    { name: 'npm run synth, bundle cached', cmd: npm, args: ['run', '-s', 'synth'], opts },
    { name: 'the synth command alone (node scripts/run-app.mjs), cold', cmd: node, args: ['scripts/run-app.mjs', 'src/main.ts'], opts, before: clearBundle },
    { name: 'the synth command alone (node scripts/run-app.mjs), cached', cmd: node, args: ['scripts/run-app.mjs', 'src/main.ts'], opts },
    { name: 'precompiled app (node lib/src/main.js)', cmd: node, args: [join(built, 'src', 'main.js')], opts },
  ];
  if (!quick) {
    cases.push({
      name: 'stock: cdk8s synth, app `npx ts-node src/main.ts`',
      cmd: join(root, 'node_modules', '.bin', 'cdk8s'),
      args: ['synth', '--app', 'npx ts-node src/main.ts', '--output', out],
      opts,
      // about 10 s a run: 7 rounds of it, while the sub-second cases get more rounds (below)
      rounds,
    });
  }
  // The sub-second commands are the ones whose ratios the load on this shared machine moves
  // most: 15 rounds of them, interleaved as before.
  const t = interleave(cases, quick ? 1 : 15);
  mainJob = t;
  const pre = t['precompiled app (node lib/src/main.js)'];
  const rows = Object.entries(t).map(([k, v]) => [k, ms(v), ratio(v, pre)]);
  let text = table(['main job (median)', 'time', 'vs precompiled'], rows);
  const npmOwn = t['npm run synth, bundle cached'] - t['the synth command alone (node scripts/run-app.mjs), cached'];
  text += `\n\nnpm's own start-up is the difference between the cached \`npm run synth\` and the command it runs: ${ms(npmOwn)}.`;
  const stock = t['stock: cdk8s synth, app `npx ts-node src/main.ts`'];
  if (stock) {
    text +=
      `\n\nThe stock setup takes ${ratio(stock, t['npm run synth, cold (no bundle cache)'])} the time of a cold \`npm run synth\`` +
      ` and ${ratio(stock, t['npm run synth, bundle cached'])} that of a cached one.`;
  }
  sections.push(['1. Main job: `npm run synth` of the example app', text]);
}

// 2. Library load: requiring the package against requiring cdk8s and cdk8s-plus-28 alone.
{
  const cases = [
    { name: "require('cdk8s-cnpg-i') (lib/src)", cmd: node, args: ['-e', `require(${JSON.stringify(join(built, 'src'))})`], opts },
    { name: "require('cdk8s') + require('cdk8s-plus-28')", cmd: node, args: ['-e', "require('cdk8s');require('cdk8s-plus-28')"], opts },
    { name: 'node alone', cmd: node, args: ['-e', '0'], opts },
  ];
  const t = interleave(cases, quick ? 1 : 15);
  const base = t["require('cdk8s') + require('cdk8s-plus-28')"];
  const bare = t['node alone'];
  const lib = t["require('cdk8s-cnpg-i') (lib/src)"];
  const rows = Object.entries(t).map(([k, v]) => [k, ms(v), ratio(v, base)]);
  const text =
    table(['library load (median, fresh process)', 'time', 'vs cdk8s + cdk8s-plus-28'], rows) +
    `\n\nWithout Node's own start-up: ${ms(lib - bare)} against ${ms(base - bare)}, ${ratio(lib - bare, base - bare)}.` +
    // issue #32: the whole main job against what any cdk8s app pays to load its libraries
    `\n\nThe main job against loading cdk8s and cdk8s-plus-28 (target: at most 2.5x): \`npm run synth\` with its bundle cached ` +
    `${ratio(mainJob['npm run synth, bundle cached'], base)}, cold ${ratio(mainJob['npm run synth, cold (no bundle cache)'], base)}; ` +
    `the synth command alone, cached, ${ratio(mainJob['the synth command alone (node scripts/run-app.mjs), cached'], base)}.`;
  sections.push(['2. Library load', text]);
}

// 6 (printed last). A user's app command: the README's shortest example as a cdk8s app of its
//    own, against the compiled library, run the way `cdk8s init` writes it (ts-node, which
//    type-checks) and the way the README recommends (tsx, transpile only).
{
  const appDir = join(root, 'bench', '.work', 'app');
  const pkgDir = join(appDir, 'node_modules', 'cdk8s-cnpg-i');
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(pkgDir, { recursive: true });
  // The package as installed: its main is the compiled library built above (peers and the
  // runners resolve from this repository's node_modules, above the app folder).
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ name: 'cdk8s-cnpg-i', main: relative(pkgDir, join(built, 'src', 'index.js')) }));
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  writeFileSync(join(appDir, 'main.ts'), readme.match(/```ts\n([\s\S]*?)```/)[1]);
  // A package.json of the app's own: without it, the nearest one is this repository's, and Node
  // resolves 'cdk8s-cnpg-i' to the repository itself (a package's self-reference through its
  // exports map), to a lib/ that may not be built.
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'bench-app', version: '1.0.0', private: true }));
  writeFileSync(
    join(appDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        moduleResolution: 'node',
        lib: ['ES2022'],
        types: ['node'],
        strict: true,
        esModuleInterop: true,
        skipLibCheck: true,
      },
      include: ['main.ts'],
    }),
  );
  const appOpts = { cwd: appDir, env };
  const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
  const cases = [
    { name: 'cdk8s init default: `npx ts-node main.ts`', cmd: npx, args: ['ts-node', 'main.ts'], opts: appOpts },
    { name: '`npx tsx main.ts`', cmd: npx, args: ['tsx', 'main.ts'], opts: appOpts },
    { name: 'recommended: `node --import tsx main.ts`', cmd: node, args: ['--import', 'tsx', 'main.ts'], opts: appOpts },
  ];
  const t = interleave(cases, rounds);
  const stock = t['cdk8s init default: `npx ts-node main.ts`'];
  const rows = Object.entries(t).map(([k, v]) => [k, ms(v), ratio(stock, v)]);
  appSection = ['6. A user\'s app command (README, "Install")', table(['app command, shortest example (median)', 'time', 'ts-node takes'], rows)];
  rmSync(appDir, { recursive: true, force: true });
}

// 3. Fleet scale, 4. doctor throughput and 5. plan throughput run in fresh processes of their own.
sections.push(['3. Fleet scale', fleetBench({ root, built, quick })]);
sections.push(['4. Doctor throughput', doctorBench({ root, built, quick, workdir: out })]);
sections.push(['5. Plan throughput (`cnpg-i-doctor plan`)', planBench({ root, built, quick, workdir: out })]);
sections.push(appSection);
sections.push(['7. Schema layer throughput (src/schema)', schemaBench({ root, built, quick, workdir: out })]);

rmSync(out, { recursive: true, force: true });

const header =
  `# Benchmark results\n\nProduced by \`npm run bench\`${quick ? ' --quick (smoke run, not a result)' : ''} on ` +
  `${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, Node ${process.version}. ` +
  'Medians of interleaved runs after a warm-up; ratios are measured side by side in this one run.\n';
const report = [header, ...sections.map(([title, body]) => `## ${title}\n\n${body}\n`)].join('\n');
console.log(report);
if (!quick) writeFileSync(join(root, 'bench', 'RESULTS.md'), report);
