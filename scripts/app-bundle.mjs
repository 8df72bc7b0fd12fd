// How `npm run synth` (scripts/run-app.mjs) bundles a cdk8s app written in TypeScript: esbuild
// bundles the app's own sources, with packages left external so Node loads cdk8s and cdk8s-plus
// from node_modules as usual.
//
// The generated files of imports/ stay out of the bundle too, so that a cold synth neither parses
// nor prints them; the bundle requires each by its path, and Node reads only those a run uses:
// - the schema layer's generated validators (imports/schemas/validators/*.js, plain CommonJS,
//   about 1.4 MB) and the CRD schemas (imports/schemas/*.json, about 0.5 MB), on first use;
// - the cdk8s bindings (imports/*.ts, about 1 MB of TypeScript), as the CommonJS that
//   scripts/compile-bindings.mjs made of them (imports/compiled/*.js).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const schemaDir = join(root, 'imports', 'schemas');
const dataDirs = new Set([schemaDir, join(schemaDir, 'validators')]);

/** An esbuild plugin: the schema layer's generated modules and schema files are required from where they are. */
export const schemaFilesExternal = {
  name: 'schema-files-external',
  setup(b) {
    b.onResolve({ filter: /\.(js|json)$/ }, (args) => {
      const file = resolve(args.resolveDir, args.path);
      return dataDirs.has(dirname(file)) ? { path: file, external: true } : undefined;
    });
  },
};

/** An esbuild plugin: an import of a cdk8s binding module (imports/NAME) requires imports/compiled/NAME.js. */
export const compiledBindingsExternal = {
  name: 'compiled-bindings-external',
  setup(b) {
    const importsDir = join(root, 'imports');
    b.onResolve({ filter: /(^|[\\/])imports[\\/][^\\/]+$/ }, (args) => {
      const file = resolve(args.resolveDir, args.path);
      if (dirname(file) !== importsDir) return undefined;
      const compiled = join(importsDir, 'compiled', `${basename(file).replace(/\.ts$/, '')}.js`);
      return existsSync(compiled) ? { path: compiled, external: true } : undefined;
    });
  },
};

/**
 * Bundles the app at `entry` (CommonJS, for Node 20), without writing it: esbuild's result, with
 * its metafile (the inputs read) and the bundle's text in `outputFiles[0]`.
 */
export async function bundleApp(entry, { sourcemap = false } = {}) {
  // Loaded only when a build is needed: a cached synth never loads esbuild. Required, not
  // imported: esbuild is CommonJS, and an ESM import of it first scans its 100 KB main module for
  // export names, which took about 15 ms of a cold synth.
  const { build } = createRequire(import.meta.url)('esbuild');
  return build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    metafile: true,
    write: false,
    logLevel: 'silent',
    sourcemap: sourcemap ? 'inline' : false,
    sourcesContent: false,
    plugins: [schemaFilesExternal, compiledBindingsExternal],
  });
}
