#!/usr/bin/env node
// Copies the generated schema validators (imports/schemas/validators/*.js, plain CommonJS written
// by `npm run import`) into a compiled tree, byte for byte, beside the index.js tsc compiled
// there. Part of `npm run build`; tsc itself would reprint them (allowJs) at twice the size.
//
// Usage: node scripts/copy-validators.mjs [outDir]   (default lib)
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Copies every generated validator module into `outDir`/imports/schemas/validators/; returns their names. */
export function copyValidators(outDir) {
  const from = join(root, 'imports', 'schemas', 'validators');
  const to = join(resolve(outDir), 'imports', 'schemas', 'validators');
  mkdirSync(to, { recursive: true });
  const names = readdirSync(from)
    .filter((f) => f.endsWith('.js'))
    .sort();
  for (const name of names) copyFileSync(join(from, name), join(to, name));
  return names;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  copyValidators(process.argv[2] ?? join(root, 'lib'));
}
