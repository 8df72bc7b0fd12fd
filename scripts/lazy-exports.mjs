#!/usr/bin/env node
// Part of `npm run build`: makes the compiled entry point (lib/src/index.js) load the doctor and
// the plan on first use. src/index.ts re-exports them plainly (`export * from './doctor'`), which
// jsii and TypeScript read as they are; tsc compiles each into `__exportStar(require("./doctor"),
// exports)`, which would load the rule registries, the checks and the plan (about 30 ms) for an
// app that only builds constructs. This script replaces those two lines with one getter per name
// the module exports, generated from the compiled module itself, so no list is kept by hand.
//
// The getters have the shape Node's ES module loader reads names from in CommonJS
// (cjs-module-lexer: `Object.defineProperty(exports, "x", { enumerable: true, get: function () {
// return id.x; } })`), so `import { checkManifests } from 'cdk8s-cnpg-i'` still works; `id` is a
// proxy that requires the module at the first read of any name.
//
// Usage: node scripts/lazy-exports.mjs [outDir]   (default lib)
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The modules of src/index.ts that load on first use. */
export const LAZY_MODULES = ['./doctor', './plan'];

const STAR = /^__exportStar\(require\("(\.\/[^"]+)"\), exports\);$/;

/**
 * The entry point `text` (tsc's output for src/index.ts, in `dir`) with the re-exports of the
 * lazy modules made lazy. Names an earlier line already exports keep their earlier source, as
 * `__exportStar` does. Throws when a lazy module is not re-exported with `export *`.
 */
export function lazify(text, dir) {
  const require = createRequire(join(dir, 'index.js'));
  const lines = text.split('\n');
  const exported = new Set();
  const out = [];
  const found = new Set();
  for (const line of lines) {
    const star = STAR.exec(line);
    if (star && LAZY_MODULES.includes(star[1])) {
      const spec = star[1];
      found.add(spec);
      const id = `lazy_${spec.replace(/^\.\//, '').replace(/[^A-Za-z0-9_]/g, '_')}`;
      const names = Object.keys(require(spec)).filter((n) => n !== 'default' && n !== '__esModule' && !exported.has(n));
      out.push(`// ${spec} loads on the first read of one of its names (scripts/lazy-exports.mjs).`);
      out.push(`const ${id} = new Proxy({}, { get: (_target, name) => require(${JSON.stringify(spec)})[name] });`);
      for (const n of names.sort()) {
        out.push(`Object.defineProperty(exports, ${JSON.stringify(n)}, { enumerable: true, get: function () { return ${id}.${n}; } });`);
        exported.add(n);
      }
      continue;
    }
    if (star) for (const n of Object.keys(require(star[1]))) if (n !== 'default') exported.add(n);
    const own = /^Object\.defineProperty\(exports, "([^"]+)"/.exec(line) ?? /^exports\.([A-Za-z_$][\w$]*) = /.exec(line);
    if (own) exported.add(own[1]);
    out.push(line);
  }
  const missing = LAZY_MODULES.filter((m) => !found.has(m));
  if (missing.length > 0) throw new Error(`lazy-exports: ${join(dir, 'index.js')} does not re-export ${missing.join(', ')} with export *`);
  return out.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = join(resolve(process.argv[2] ?? join(root, 'lib')), 'src');
  const file = join(dir, 'index.js');
  writeFileSync(file, lazify(readFileSync(file, 'utf8'), dir));
}
