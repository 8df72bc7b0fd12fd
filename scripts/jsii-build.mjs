// Runs jsii for `npm run build` and prints what is new: the warnings jsii is expected to give (the
// reserved words of scripts/jsii/expected-warnings.txt) are counted and left out; any other
// diagnostic, and any expected one beyond its count, is printed as jsii wrote it.
//
//   node scripts/jsii-build.mjs                   run jsii (the build)
//   node scripts/jsii-build.mjs --filter          filter jsii output read from stdin (for tests)
//   node scripts/jsii-build.mjs --write-expected  run jsii and rewrite the list from its warnings
//   CNPG_I_JSII_ALL_WARNINGS=1                    print every warning, expected or not
//
// The assembly is written compressed (`--compress-assembly`: `.jsii` is a redirect to
// `.jsii.gz`, which @jsii/spec `loadAssemblyFromFile` and so jsii-pacmak and jsii itself follow),
// 2.2 MB less in the package.
//
// A warning is known by its code, file, enclosing declaration and word
// (`JSII5018 imports/k8s.ts ObjectMeta namespace`), not by its line, so regenerating imports/
// does not make old warnings look new. The list is a multiset: a second `namespace` in the same
// declaration is new until the list says two.
//
// jsii (through @jsii/check-node 1.x `checkNode`, lib/index.js) prints a banner when Node.js is
// past its end of life unless JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION lists the major
// version. Node 20 is the oldest release this package supports (`engines`), so that one version
// is silenced; any other end-of-life version still shows the banner.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const LIST = path.join(ROOT, 'scripts', 'jsii', 'expected-warnings.txt');
const SILENCED_EOL_NODE = '20';

// `imports/k8s.ts:259:12 - warning JSII5018: "type" is a reserved word in Go. ...`
const DIAGNOSTIC = /^(\S+?):(\d+):(\d+) - (error|warning) (JSII\d+|TS\d+): (.*)$/;
const RESERVED = /^"([^"]+)" is a reserved word in /;
// the code frame jsii prints under a diagnostic: blank lines, `259   readonly type: ...`, `~~~~`
const FRAME = /^(\s*|\d+ .*|\s*~+\s*)$/;
const DECLARATION = /^\s*export\s+(?:declare\s+)?(?:abstract\s+)?(?:class|interface|enum|function|const|type)\s+([A-Za-z_$][\w$]*)/;
// eslint-disable-next-line no-control-regex -- ANSI colour codes
const ANSI = /\x1b\[[0-9;]*m/g;

/** The declaration that holds line `line` (1-based) of `file`, or `<module>`. */
function enclosing(file, line, sources) {
  if (!sources.has(file)) {
    const full = path.join(ROOT, file);
    sources.set(file, fs.existsSync(full) ? fs.readFileSync(full, 'utf8').split('\n') : []);
  }
  const lines = sources.get(file);
  for (let i = Math.min(line, lines.length) - 1; i >= 0; i--) {
    const m = DECLARATION.exec(lines[i]);
    if (m) return m[1];
  }
  return '<module>';
}

/** The key a diagnostic header line is listed under, or undefined for one that is never expected. */
function keyOf(header, sources) {
  const m = DIAGNOSTIC.exec(header.replace(ANSI, '').trim());
  if (!m || m[4] !== 'warning') return undefined;
  const word = RESERVED.exec(m[6]);
  if (!word) return undefined;
  return `${m[5]} ${m[1]} ${enclosing(m[1], Number(m[2]), sources)} ${word[1]}`;
}

/** The expected keys and how many times each may occur. */
function readList() {
  const counts = new Map();
  for (const raw of fs.readFileSync(LIST, 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return counts;
}

/**
 * Splits jsii's output into lines to print and the keys of every reserved-word warning; drops
 * each expected warning (its header and its code frame) while the list has a count left for it.
 */
function filter(output, expected, showAll) {
  const left = new Map(expected);
  const sources = new Map();
  const printed = [];
  const keys = [];
  let hidden = 0;
  let dropping = false;
  for (const line of output.split('\n')) {
    const plain = line.replace(ANSI, '');
    if (DIAGNOSTIC.test(plain.trim())) {
      const key = keyOf(plain, sources);
      if (key !== undefined) keys.push(key);
      dropping = !showAll && key !== undefined && (left.get(key) ?? 0) > 0;
      if (dropping) {
        left.set(key, left.get(key) - 1);
        hidden++;
        continue;
      }
    } else if (dropping && FRAME.test(plain)) {
      continue;
    } else {
      dropping = false;
    }
    printed.push(line);
  }
  while (printed.length > 0 && printed[printed.length - 1].trim() === '') printed.pop();
  return { printed, keys, hidden };
}

function runJsii() {
  const silenced = (process.env.JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION ?? '').split(',').filter((v) => v.trim() !== '');
  const env = { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: [...new Set([...silenced, SILENCED_EOL_NODE])].join(',') };
  const jsii = path.join(ROOT, 'node_modules', 'jsii', 'bin', 'jsii');
  const r = spawnSync(process.execPath, [jsii, '--compress-assembly'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { status: r.status ?? 1, output: `${r.stdout}${r.stderr}` };
}

function writeList(keys) {
  const header = [
    '# The warnings `npm run build` expects from jsii, one per occurrence, each as',
    '# `<code> <file> <enclosing declaration> <word>`; scripts/jsii-build.mjs leaves these out and',
    '# prints any other. All are reserved words (JSII5018): names that are keywords in a target',
    '# language, which the generators rename or case (the reserved-word table of the docs on other',
    '# languages says how). Rewrite with `node scripts/jsii-build.mjs --write-expected` after',
    '# regenerating imports/, and read the diff: a line that appears is a new name to judge.',
  ];
  fs.writeFileSync(LIST, `${[...header, ...[...keys].sort()].join('\n')}\n`);
}

const args = process.argv.slice(2);
const showAll = process.env.CNPG_I_JSII_ALL_WARNINGS === '1';
if (args.includes('--filter')) {
  const { printed, hidden } = filter(fs.readFileSync(0, 'utf8'), readList(), showAll);
  if (printed.length > 0) process.stdout.write(`${printed.join('\n')}\n`);
  process.stdout.write(`jsii: ${hidden} expected warnings left out (scripts/jsii/expected-warnings.txt)\n`);
} else {
  const { status, output } = runJsii();
  if (args.includes('--write-expected')) {
    const { keys } = filter(output, new Map(), true);
    writeList(keys);
    process.stdout.write(`wrote ${keys.length} expected warnings to scripts/jsii/expected-warnings.txt\n`);
  } else {
    const { printed, hidden } = filter(output, readList(), showAll);
    if (printed.length > 0) process.stdout.write(`${printed.join('\n')}\n`);
    if (hidden > 0)
      process.stdout.write(`jsii: ${hidden} expected warnings left out (scripts/jsii/expected-warnings.txt; CNPG_I_JSII_ALL_WARNINGS=1 shows them)\n`);
  }
  process.exitCode = status;
}
