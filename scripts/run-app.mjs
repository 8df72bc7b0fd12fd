#!/usr/bin/env node
// Runs a cdk8s app written in TypeScript, without type-checking it (that is `npm run build`
// and `npm test`): esbuild bundles the app's own sources, with packages left external so
// Node loads cdk8s and cdk8s-plus from node_modules as usual, and Node runs the bundle
// (scripts/app-bundle.mjs says how, and what else it leaves out: the schema layer's data files).
//
// The bundle is cached under node_modules/.cache, keyed by the app's entry; it is reused while
// every input file keeps its size and modification time, so a repeated synth skips the build.
//
// Usage: node scripts/run-app.mjs [entry.ts]   (default src/main.ts)
// The CommonJS modules the synth loads (the bundle, cdk8s, cdk8s-plus...) compile through a V8
// code cache under node_modules/.cache (scripts/compile-cache.mjs); CNPG_I_COMPILE_CACHE=0
// switches it off.
// CNPG_I_SOURCEMAP=1 maps stack traces back to the TypeScript files. It is off by default: it
// roughly doubles the build time of a cold synth, and the bundle is readable, unminified
// JavaScript with a `// <file>` marker before each source file anyway.
// The app writes where cdk8s says: $CDK8S_OUTDIR, else dist/. Old *.k8s.yaml files there that
// the app does not write again are removed after a successful synth, so a chart removed from the
// app does not linger in a GitOps repository. Then it prints each file written, with its number
// of objects, on stderr.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { enableCompileCache } from './compile-cache.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = resolve(process.argv[2] ?? join(root, 'src', 'main.ts'));
const outdir = resolve(process.env.CDK8S_OUTDIR ?? 'dist');
const cacheDir = join(root, 'node_modules', '.cache', 'cdk8s-cnpg-i-synth');
const sourcemap = process.env.CNPG_I_SOURCEMAP === '1';
const key = createHash('sha256').update(`${entry}\0${sourcemap}`).digest('hex').slice(0, 16);
const bundlePath = join(cacheDir, `${key}.cjs`);
const manifestPath = join(cacheDir, `${key}.json`);
// Source maps are Node's own module compilation's business: with them, no code cache.
const compileCache = !sourcemap && process.env.CNPG_I_COMPILE_CACHE !== '0' ? enableCompileCache(join(cacheDir, 'v8')) : undefined;

function stamp(file) {
  const s = statSync(file);
  return `${s.size}:${s.mtimeMs}`;
}

function cached() {
  if (!existsSync(manifestPath) || !existsSync(bundlePath)) return false;
  try {
    const { inputs } = JSON.parse(readFileSync(manifestPath, 'utf8'));
    return Object.entries(inputs).every(([file, st]) => stamp(join(root, file)) === st);
  } catch {
    return false;
  }
}

async function bundle() {
  const { bundleApp } = await import('./app-bundle.mjs');
  const result = await bundleApp(entry, { sourcemap });
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs)) inputs[file] = stamp(join(root, file));
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(bundlePath, result.outputFiles[0].text);
  // whether the bundle calls import(): esbuild lists every import of its output, by kind
  const dynamicImports = Object.values(result.metafile.outputs).some((o) => o.imports.some((i) => i.kind === 'dynamic-import'));
  writeFileSync(manifestPath, JSON.stringify({ inputs, dynamicImports }));
}

if (!cached()) {
  try {
    await bundle();
  } catch (err) {
    const errors = err?.errors ?? [];
    for (const e of errors) {
      const where = e.location ? `${relative(process.cwd(), e.location.file)}:${e.location.line}:${e.location.column}: ` : '';
      console.error(`${where}${e.text}`);
    }
    if (!errors.length) console.error(err);
    process.exit(1);
  }
}

// The previous output stays in place while the app runs, so that a synth check (addPlanValidation)
// can compare with it, and a failed synth leaves it untouched. Its files are marked with an old
// modification time; those the app does not write again are charts it no longer has, removed
// afterwards so they do not linger in a GitOps repository.
const previous = existsSync(outdir)
  ? readdirSync(outdir)
      .filter((f) => f.endsWith('.k8s.yaml'))
      .map((f) => {
        const file = join(outdir, f);
        const { atime, mtime } = statSync(file);
        utimesSync(file, 0, 0);
        return { file, atime, mtime };
      })
  : [];
if (sourcemap) process.setSourceMapsEnabled(true);
try {
  // A bundle without import() is compiled through the code cache, although its text has
  // `import (` in messages.
  if (compileCache && JSON.parse(readFileSync(manifestPath, 'utf8')).dynamicImports === false) compileCache.vouch(bundlePath);
  createRequire(import.meta.url)(bundlePath);
} catch (err) {
  for (const p of previous) if (existsSync(p.file)) utimesSync(p.file, p.atime, p.mtime);
  throw err;
}
for (const p of previous) {
  if (existsSync(p.file) && statSync(p.file).mtimeMs === 0) rmSync(p.file);
}

// One line per file the app wrote (every *.k8s.yaml left there: the others were just removed),
// on stderr, so that `cdk8s synth --stdout` still prints YAML only on stdout.
if (existsSync(outdir)) {
  for (const f of readdirSync(outdir)
    .filter((f) => f.endsWith('.k8s.yaml'))
    .sort()) {
    const text = readFileSync(join(outdir, f), 'utf8');
    // cdk8s writes one object per document, separated by lines holding only '---'
    const objects = text.trim() === '' ? 0 : text.split(/^---$/m).filter((d) => d.trim() !== '').length;
    process.stderr.write(`${relative(process.cwd(), join(outdir, f)) || f}: ${objects} object${objects === 1 ? '' : 's'}\n`);
  }
}
