#!/usr/bin/env node
/*
 * Generates the API reference, docs/API.md, from the public exports of src/index.ts with
 * TypeDoc and typedoc-plugin-markdown (options in typedoc.json).
 *
 *   node scripts/api-docs.mjs             write docs/API.md (`npm run docs:api`)
 *   node scripts/api-docs.mjs --out DIR   write DIR/API.md instead (test/scripts/api-docs.test.ts
 *                                         regenerates into a temp folder and compares)
 *
 * The output holds no dates, versions, source links or machine paths, so it changes only when
 * the public API or its documentation does. Exits 1 when TypeDoc reports an error.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application } from 'typedoc';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILE = 'API.md';
const NOTICE = '<!-- generated from the exports of src/index.ts by `npm run docs:api` (TypeDoc); do not edit -->';

function parseArgs(argv) {
  if (argv.length === 0) return { out: path.join(ROOT, 'docs') };
  if (argv.length === 2 && argv[0] === '--out' && argv[1] !== '') return { out: path.resolve(argv[1]) };
  throw new Error(`usage: node scripts/api-docs.mjs [--out DIR] (got: ${argv.join(' ')})`);
}

/** Runs TypeDoc into a fresh temp folder and returns the text of the one page it writes. */
async function render() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-api-docs-'));
  try {
    const app = await Application.bootstrapWithPlugins({ options: path.join(ROOT, 'typedoc.json'), out: tmp });
    const project = await app.convert();
    if (!project || app.logger.hasErrors()) throw new Error('TypeDoc reported errors (above)');
    // What the CLI also checks: broken {@link}s, and types the API uses but does not export
    // (warnings: they are reported, the page is still written).
    app.validate(project);
    await app.generateOutputs(project);
    if (app.logger.hasErrors()) throw new Error('TypeDoc reported errors (above)');
    const written = fs.readdirSync(tmp, { recursive: true }).map(String).sort();
    if (written.length !== 1 || written[0] !== FILE) {
      throw new Error(`TypeDoc wrote ${written.join(', ') || 'nothing'}; expected only ${FILE} (outputFileStrategy "modules", one entry point)`);
    }
    return fs.readFileSync(path.join(tmp, FILE), 'utf8');
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The committed form: the generation notice first, LF line ends, one final newline. */
function finish(markdown) {
  return `${NOTICE}\n\n${markdown.replace(/\r\n/g, '\n').trimEnd()}\n`;
}

try {
  const { out } = parseArgs(process.argv.slice(2));
  process.chdir(ROOT);
  const text = finish(await render());
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, FILE), text);
  console.log(`wrote ${path.relative(ROOT, path.join(out, FILE)) || FILE}`);
} catch (e) {
  console.error(`api-docs: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
