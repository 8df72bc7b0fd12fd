#!/usr/bin/env node
// Part of `npm run build`: puts the kubeconfig reader of the Kubernetes client for Node
// (@kubernetes/client-node, a devDependency: its KubeConfig class and what it needs, not the
// generated API clients) into the compiled tree as one CommonJS file,
// lib/src/live/vendor/kube-client.js, and points the compiled src/live/kube-access.js at it.
// Only `cnpg-i-doctor cluster` requires it. The package then installs no Kubernetes client (58 MB
// with its API models) and jsii needs no bundled dependency for it. The file opens with every
// bundled package's name, version and license.
//
// Usage: node scripts/bundle-kube-client.mjs [outDir]   (default lib)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT = '@kubernetes/client-node';
/** Where the compiled tree keeps the bundle, relative to the compiled src/live/kube-access.js. */
export const VENDORED = './vendor/kube-client';

/** The package folder of a file below node_modules. */
function packageOf(file) {
  let dir = dirname(file);
  while (!existsSync(join(dir, 'package.json')) || !JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name) {
    if (dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}

/** The compiled kube-access.js with its one require of the client pointed at the bundle; throws unless there is exactly one. */
export function pointAtBundle(text) {
  const needle = `require('${CLIENT}')`;
  const found = text.split(needle).length - 1;
  if (found !== 1) throw new Error(`bundle-kube-client: expected one ${needle} in the compiled src/live/kube-access.js, found ${found}`);
  return text.replace(needle, `require('${VENDORED}')`);
}

export function bundleKubeClient(outDir) {
  const main = createRequire(join(root, 'package.json')).resolve(CLIENT);
  const config = join(dirname(main), 'config.js');
  if (!existsSync(config)) throw new Error(`bundle-kube-client: no ${config}; the client's layout changed`);
  const liveDir = join(resolve(outDir), 'src', 'live');
  const outfile = join(liveDir, `${VENDORED}.js`);
  const options = {
    stdin: { contents: `export { KubeConfig } from ${JSON.stringify(config)};`, resolveDir: root, loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minify: true,
    legalComments: 'inline',
    logLevel: 'warning',
    metafile: true,
    write: false,
  };
  const first = buildSync(options);
  const packages = new Map();
  for (const input of Object.keys(first.metafile.inputs)) {
    const pkg = input.includes('node_modules') ? packageOf(resolve(root, input)) : undefined;
    if (pkg) packages.set(pkg.name, `${pkg.name} ${pkg.version} (${pkg.license ?? 'see its package'})`);
  }
  const banner = `/*!\n * The KubeConfig of ${CLIENT}, bundled into CommonJS by cdk8s-cnpg-i's scripts/bundle-kube-client.mjs, with:\n${[...packages.values()]
    .sort()
    .map((p) => ` *   ${p}`)
    .join('\n')}\n */`;
  buildSync({ ...options, write: true, metafile: false, outfile, banner: { js: banner } });
  const compiled = join(liveDir, 'kube-access.js');
  writeFileSync(compiled, pointAtBundle(readFileSync(compiled, 'utf8')));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  bundleKubeClient(process.argv[2] ?? join(root, 'lib'));
}
