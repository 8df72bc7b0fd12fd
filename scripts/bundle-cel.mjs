#!/usr/bin/env node
// Part of `npm run build`: puts the CEL evaluator the schema layer uses (@marcbachmann/cel-js, a
// devDependency with no dependencies of its own) into the compiled tree as one CommonJS file,
// lib/src/schema/vendor/cel-js.js, and points the compiled src/schema/cel.js at it. The package
// then has no CEL dependency to install, and a consumer's CommonJS code and tests (jest included)
// load it on any Node.js version the package supports; the evaluator itself is an ES module only.
// The file opens with the evaluator's name, version and MIT license text.
//
// Usage: node scripts/bundle-cel.mjs [outDir]   (default lib)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const EVALUATOR = '@marcbachmann/cel-js';
/** Where the compiled tree keeps the bundle, relative to the compiled src/schema/cel.js. */
export const VENDORED = './vendor/cel-js';

/** The evaluator's package folder (its package.json does not export itself, so found from the entry). */
function packageDir() {
  const entry = createRequire(join(root, 'package.json')).resolve(EVALUATOR);
  let dir = dirname(entry);
  const isPackage = (d) => existsSync(join(d, 'package.json')) && JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')).name === EVALUATOR;
  while (!isPackage(dir)) {
    if (dirname(dir) === dir) throw new Error(`bundle-cel: no package.json of ${EVALUATOR} above ${entry}`);
    dir = dirname(dir);
  }
  return { dir, entry };
}

/** The compiled cel.js with its one require of the evaluator pointed at the bundle; throws unless there is exactly one. */
export function pointAtBundle(text) {
  const needle = `require('${EVALUATOR}')`;
  const found = text.split(needle).length - 1;
  if (found !== 1) throw new Error(`bundle-cel: expected one ${needle} in the compiled src/schema/cel.js, found ${found}`);
  return text.replace(needle, `require('${VENDORED}')`);
}

export function bundleCel(outDir) {
  const { dir, entry } = packageDir();
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const license = readFileSync(join(dir, 'LICENSE'), 'utf8').trim();
  const banner = `/*!\n * ${pkg.name} ${pkg.version} (${pkg.license}), bundled into CommonJS by cdk8s-cnpg-i's scripts/bundle-cel.mjs.\n *\n${license
    .split('\n')
    .map((l) => ` * ${l}`.trimEnd())
    .join('\n')}\n */`;
  const schemaDir = join(resolve(outDir), 'src', 'schema');
  buildSync({
    entryPoints: [entry],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outfile: join(schemaDir, `${VENDORED}.js`),
    banner: { js: banner },
    legalComments: 'inline',
    logLevel: 'warning',
  });
  const compiled = join(schemaDir, 'cel.js');
  writeFileSync(compiled, pointAtBundle(readFileSync(compiled, 'utf8')));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleCel(process.argv[2] ?? join(root, 'lib'));
}
