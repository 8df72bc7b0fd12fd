/*
 * The doctor's command line on hostile input: mutated versions of valid manifests (the example
 * app's output and, when present, the upstream release manifests), truncated and corrupted
 * YAML, binary junk, alias bombs and pathological nesting. Most cases go through the in-process
 * `main(argv, io)`; a few run the real bin script to prove the exit codes end to end.
 *
 * Properties: `main` never throws, the exit code is 0, 1 or 2, a YAML error reads
 * `cnpg-i-doctor: <file>:<line>:<column>: <message>` and names the mutated file, and
 * `--format json` always prints JSON.
 *
 * Runs: 1,000 per property when CI=true or CNPG_I_REQUIRE_SHARED=1, 100 otherwise;
 * FC_SEED=<n> replays a failure (fast-check prints the seed and path when a property fails).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import fc from 'fast-check';
import * as YAML from 'yaml';
import { main } from '../../src/cli/doctor';
import { MAX_NESTING_DEPTH } from '../../src/manifests/load';
import { describeWithShared, haveShared, sharedPath } from '../shared';
import { runCli } from './run-cli';

const ROOT = path.join(__dirname, '..', '..');
const ROBUSTNESS = path.join(__dirname, '..', 'fixtures', 'robustness');

const CI_MODE = process.env.CI === 'true' || process.env.CNPG_I_REQUIRE_SHARED === '1';
const NUM_RUNS = CI_MODE ? 1000 : 100;
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
if (SEED !== undefined && !Number.isSafeInteger(SEED)) throw new Error(`FC_SEED must be an integer, not '${process.env.FC_SEED}'`);
/** fast-check prints the seed and the shrunk counterexample when a property fails. */
const FC: fc.Parameters<unknown> = { numRuns: NUM_RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) };
// a property's 1,000 runs take a few seconds here; the margin is for a busy machine
const PROPERTY_TIMEOUT = 180_000;

/** Mutated or generated manifests handed to the CLI, and their exit codes, per property. */
const tried = new Map<string, number[]>();
function count(property: string, code: number): void {
  const codes = tried.get(property) ?? [0, 0, 0];
  codes[code]++;
  tried.set(property, codes);
}
afterAll(() => {
  if (!CI_MODE) return;
  const lines = [...tried].map(([p, [ok, errors, unusable]]) => `  ${p}: ${ok + errors + unusable} (exit 0: ${ok}, exit 1: ${errors}, exit 2: ${unusable})`);
  const total = [...tried.values()].reduce((n, c) => n + c[0] + c[1] + c[2], 0);
  console.log(
    `cnpg-i-doctor robustness: ${total} mutated or generated manifests through the CLI, ${NUM_RUNS} runs per property${SEED !== undefined ? `, FC_SEED=${SEED}` : ''}\n${lines.join('\n')}`,
  );
});

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** Runs the CLI in-process; a throw from `main` is a failure of the property, not a result. */
async function run(argv: readonly string[], cwd: string, stdin = ''): Promise<Run> {
  return runCli(main, argv, { stdin, cwd });
}

/**
 * What `yaml` (or anything else) would print on the real process's stderr beside the CLI's own
 * output: Node warnings. Recorded for the whole file; every run checks that there is none.
 */
const processWarnings: string[] = [];
const emitWarning = process.emitWarning;
beforeAll(() => {
  process.emitWarning = ((warning: string | Error) => {
    processWarnings.push(String(warning));
  }) as typeof process.emitWarning;
});
afterAll(() => {
  process.emitWarning = emitWarning;
});

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'doctor-robustness-'));
});
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

function write(name: string, content: string | Uint8Array): string {
  fs.writeFileSync(path.join(work, name), content);
  return name;
}

const YAML_ERROR = (file: string) => new RegExp(`^cnpg-i-doctor: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+):(\\d+): [^\\n]+\\n$`);

describe('pathological nesting', () => {
  const distFiles = ['cnpg-system.k8s.yaml', 'databases.k8s.yaml'];
  beforeAll(() => {
    for (const f of distFiles) write(f, fs.readFileSync(path.join(ROOT, 'dist', f)));
  });

  test.each<[string, string, number]>([
    ['an unterminated flow sequence', '['.repeat(100_000), 1],
    ['closed flow sequences', '['.repeat(5_000) + ']'.repeat(5_000), 1],
    ['flow mappings', '{a: '.repeat(5_000) + '1' + '}'.repeat(5_000), 1],
    ['compact block sequences', '- '.repeat(20_000) + 'x\n', 1],
    ['indented block mappings', Array.from({ length: 1_000 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1\n', MAX_NESTING_DEPTH + 1],
  ])('%s are refused with the file and line, and the process parses on', async (_name, text, line) => {
    write('deep.yaml', text);
    const r = await run(['deep.yaml'], work);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(YAML_ERROR('deep.yaml'));
    expect(r.err).toContain(`deep.yaml:${line}:`);
    expect(r.err).toContain(`collections nested more than ${MAX_NESTING_DEPTH} levels deep`);
    // a stack overflow inside the yaml composer used to leave V8's regexp compiler broken:
    // the next parse in the same process aborted it
    expect((await run(distFiles, work)).code).toBe(0);
  });

  test('megabytes of open brackets are refused without building them, in little memory', async () => {
    // the parser's CST of 1 MB of '[' took about 1 GB: 4 MB aborted the process
    const before = process.memoryUsage().heapUsed;
    const r = await run(['-'], work, '['.repeat(4_000_000));
    expect(r.code).toBe(2);
    expect(r.err).toContain(`<stdin>:1:${MAX_NESTING_DEPTH + 1}: collections nested more than`);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200e6);
  });

  test(`${MAX_NESTING_DEPTH} levels are read, one more is refused`, async () => {
    const nest = (n: number) =>
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  x: "1"\nextra: ' + '['.repeat(n - 1) + ']'.repeat(n - 1) + '\n';
    const ok = await run(['-', '--operator-namespace', 'cnpg-system'], work, nest(MAX_NESTING_DEPTH));
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    const refused = await run(['-'], work, nest(MAX_NESTING_DEPTH + 1));
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(
      `cnpg-i-doctor: <stdin>:7:${7 + MAX_NESTING_DEPTH}: collections nested more than ${MAX_NESTING_DEPTH} levels deep; a Kubernetes manifest is never this deep\n`,
    );
  });

  test('an earlier syntax error is reported before a later deep document', async () => {
    const r = await run(['-'], work, 'a: [1\n---\n' + '['.repeat(1_000));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^cnpg-i-doctor: <stdin>:2:1: /);
  });
});

describe('mapping keys', () => {
  afterEach(() => jest.restoreAllMocks());
  /** What `yaml` would print on the process's stderr, beside the CLI's own output. */
  function spyWarnings(): () => string[] {
    const emitted = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const logged = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    return () => [...emitted.mock.calls, ...logged.mock.calls].map((c) => String(c[0]));
  }
  const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keys\ndata:\n';

  test.each<[string, string, string]>([
    ['a sequence', '  ? [a, b]\n  : "1"\n', '6:5'],
    ['a flow mapping', '  {a: 1}: "1"\n', '6:3'],
    ['an alias of a mapping', '  x: &m {a: 1}\n  *m : "1"\n', '7:3'],
  ])('%s as a key is unusable input, as kubectl finds it, without a Node warning', async (_name, data, position) => {
    const warnings = spyWarnings();
    const r = await run(['-'], work, configMap + data);
    expect(r).toEqual({
      code: 2,
      out: '',
      err: `cnpg-i-doctor: <stdin>:${position}: a mapping key is a sequence or a mapping; Kubernetes accepts only scalar keys\n`,
    });
    expect(warnings()).toEqual([]);
  });

  test.each<[string, string]>([
    ['binary', '  ? !!binary aGVsbG8=\n  : "1"\n'],
    ['YAML 1.1 timestamp', '  2001-12-14: "1"\n'],
  ])('a %s key is read without a Node warning on stderr', async (_name, data) => {
    const warnings = spyWarnings();
    const r = await run(['-', '--operator-namespace', 'cnpg-system'], work, configMap + data);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(warnings()).toEqual([]);
  });

  test('scalar keys of any type are still read, but a null key is refused as kubectl refuses it', async () => {
    const r = await run(['-', '--operator-namespace', 'cnpg-system'], work, configMap + '  1: a\n  true: b\n  1.5: d\n  "x": e\n');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const refused = await run(['-'], work, configMap + '  null: c\n');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/^cnpg-i-doctor: <stdin>:6:3: a null key \(empty, ~ or null\): sigs\.k8s\.io\/yaml refuses it/);
  });
});

describe('file system oddities', () => {
  afterEach(() => jest.restoreAllMocks());

  test('an unreadable directory is unusable input, not an internal error', async () => {
    fs.mkdirSync(path.join(work, 'tree', 'locked'), { recursive: true });
    write(path.join('tree', 'a.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
    write(path.join('tree', 'locked', 'b.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n');
    // the tests run as root here, where chmod 000 does not stop a read: fail it as the kernel would
    // the CommonJS module itself: `import * as fs` gives a frozen namespace copy
    const nodeFs: typeof fs = require('fs');
    const readdirSync = nodeFs.readdirSync;
    jest.spyOn(nodeFs, 'readdirSync').mockImplementation(((dir: fs.PathLike, options?: any) => {
      if (String(dir).endsWith(`${path.sep}locked`)) {
        throw Object.assign(new Error(`EACCES: permission denied, scandir '${String(dir)}'`), { code: 'EACCES', errno: -13, syscall: 'scandir' });
      }
      return readdirSync(dir, options);
    }) as typeof fs.readdirSync);
    const r = await run(['tree'], work);
    expect(r).toEqual({ code: 2, out: '', err: `cnpg-i-doctor: ${path.join('tree', 'locked')}: cannot read this directory (EACCES)\n` });
  });
});

// ---------------------------------------------------------------------------------------------
// Valid manifests to start from

interface BaseFile {
  readonly name: string;
  readonly text: string;
  readonly docs: unknown[];
}
/** Files that are checked together (a plugin's Service needs its Deployment and Certificates). */
interface BaseSet {
  readonly id: string;
  readonly files: readonly BaseFile[];
  readonly args: readonly string[];
}

function baseFile(name: string, text: string): BaseFile {
  return { name, text, docs: YAML.parseAllDocuments(text).map((d) => d.toJS()) };
}

function loadBases(): BaseSet[] {
  const dist = path.join(ROOT, 'dist');
  const sets: BaseSet[] = [
    {
      id: 'example',
      files: ['cnpg-system.k8s.yaml', 'databases.k8s.yaml'].map((f) => baseFile(f, fs.readFileSync(path.join(dist, f), 'utf8'))),
      args: [],
    },
  ];
  if (haveShared()) {
    const ref = sharedPath('reference');
    const barman = 'plugin-barman-cloud-v0.14.0-manifest.yaml';
    sets.push({
      id: 'barman-cloud',
      files: [baseFile(barman, fs.readFileSync(path.join(ref, barman), 'utf8'))],
      args: ['--operator-namespace', 'cnpg-system'],
    });
    const hello = path.join(ref, 'cnpg-i-hello-world-kubernetes');
    sets.push({
      id: 'hello-world',
      files: fs
        .readdirSync(hello)
        .sort()
        .map((f) => baseFile(f, fs.readFileSync(path.join(hello, f), 'utf8'))),
      args: ['--operator-namespace', 'cnpg-system'],
    });
    // the operator release without its CRDs (1.2 MB of schemas that the doctor does not read)
    const operator = fs
      .readFileSync(path.join(ref, 'cnpg-1.30.0.yaml'), 'utf8')
      .split(/^---[ \t]*$/m)
      .filter((chunk) => !/^kind: CustomResourceDefinition$/m.test(chunk))
      .join('---');
    sets.push({ id: 'cnpg-operator', files: [baseFile('cnpg-1.30.0-without-crds.yaml', operator)], args: [] });
  }
  return sets;
}

const BASES = loadBases();

beforeAll(() => {
  for (const set of BASES) {
    fs.mkdirSync(path.join(work, 'base', set.id), { recursive: true });
    fs.mkdirSync(path.join(work, 'mutated', set.id), { recursive: true });
    for (const f of set.files) fs.writeFileSync(path.join(work, 'base', set.id, f.name), f.text);
  }
});

/**
 * The command line for a base set whose file `mutated` was replaced: the mutated file is read
 * from its own directory, so an error message must name it and not its clean siblings.
 */
function argvFor(set: BaseSet, mutated: number, format: 'text' | 'json'): { argv: string[]; file: string } {
  const file = path.join('mutated', set.id, set.files[mutated].name);
  const files = set.files.map((f, i) => (i === mutated ? file : path.join('base', set.id, f.name)));
  return { argv: [...files, ...set.args, ...(format === 'json' ? ['--format', 'json'] : [])], file };
}

// ---------------------------------------------------------------------------------------------
// What every run must satisfy

const STACK_FRAME = /\n\s+at .+[(\s]\S+:\d+:\d+\)?/;

/**
 * The documented contract: exit 0 (no errors) or 1 (errors) with a well-formed report and
 * nothing on stderr, or exit 2 with one `cnpg-i-doctor: <file>:<line>:<column>: <message>`
 * line naming the mutated file and a line that exists in it. On exit 2 the other files of the
 * set, which parse, are still reported, with the mutated file listed as not read; a set of one
 * file has nothing to report, and prints the error alone (a JSON error object with `--format json`).
 */
function expectContract(r: Run, format: 'text' | 'json', allowed: readonly number[], file: string, text: string): void {
  expect(STACK_FRAME.test(r.err) || STACK_FRAME.test(r.out)).toBe(false);
  expect(processWarnings).toEqual([]);
  if (!allowed.includes(r.code)) throw new Error(`exit ${r.code}, expected one of ${allowed.join(', ')}; stderr: ${r.err.slice(0, 500)}`);
  if (r.code === 2) {
    const m = YAML_ERROR(file).exec(r.err);
    if (!m) throw new Error(`stderr does not read '${file}:line:column: message': ${JSON.stringify(r.err.slice(0, 500))}`);
    const line = Number(m[1]);
    const column = Number(m[2]);
    expect(line).toBeGreaterThanOrEqual(1);
    expect(line).toBeLessThanOrEqual(text.split('\n').length);
    expect(column).toBeGreaterThanOrEqual(1);
    const message = r.err.slice('cnpg-i-doctor: '.length, -1);
    if (format === 'json') {
      const out = JSON.parse(r.out);
      if (out.error !== undefined) {
        // nothing else to report: a JSON error object, with the message of stderr
        expect(out.error.message).toBe(message);
        expect(out.error.exitCode).toBe(2);
      } else {
        expect(out.notRead).toEqual([{ message, file, line, column }]);
        expectReport(r, format, 2);
      }
    } else if (r.out !== '') {
      expect(r.out).toContain(`\nNot read (exit code 2; the findings above are of the other `);
      expect(r.out).toContain(`\n  ${message}\n`);
      expectReport(r, format, 2);
    }
    return;
  }
  expect(r.err).toBe('');
  expectReport(r, format, r.code);
}

/** A well-formed report, whose error count agrees with the exit code (2: any count). */
function expectReport(r: Run, format: 'text' | 'json', code: number): void {
  if (format === 'json') {
    const report = JSON.parse(r.out);
    expect(typeof report.objectCount).toBe('number');
    expect(Array.isArray(report.plugins)).toBe(true);
    for (const f of report.findings) {
      expect(typeof f.ruleId).toBe('string');
      expect(typeof f.message).toBe('string');
      expect(typeof f.fix).toBe('string');
    }
    if (code !== 2) expect(report.summary.errors > 0).toBe(code === 1);
  } else {
    const summary = /\n(?:No problems found\.|(\d+) errors?, \d+ warnings?\.)\n$/.exec(r.out);
    if (!summary) throw new Error(`the text report does not end with its summary: ${JSON.stringify(r.out.slice(-300))}`);
    if (code !== 2) expect(Number(summary[1] ?? 0) > 0).toBe(code === 1);
  }
}

/** Writes the mutated file, runs the CLI in-process and checks the contract. */
async function runMutated(
  property: string,
  set: BaseSet,
  mutated: number,
  content: string | Uint8Array,
  format: 'text' | 'json',
  allowed: readonly number[],
): Promise<Run> {
  const { argv, file } = argvFor(set, mutated, format);
  fs.writeFileSync(path.join(work, file), content);
  const r = await run(argv, work);
  if (r.code >= 0 && r.code <= 2) count(property, r.code);
  expectContract(r, format, allowed, file, typeof content === 'string' ? content : Buffer.from(content).toString('utf8'));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Mutations of the parsed documents, written back as YAML: the text is always valid YAML, so
// exit 2 is never acceptable

type Path = Array<string | number>;
type Mutation =
  | { readonly op: 'remove'; readonly at: number }
  | { readonly op: 'retype'; readonly at: number; readonly value: unknown }
  | { readonly op: 'rename'; readonly at: number; readonly to: string }
  | { readonly op: 'flipCase'; readonly at: number }
  | { readonly op: 'alias'; readonly at: number; readonly target: number }
  | { readonly op: 'duplicateDocument'; readonly at: number }
  | { readonly op: 'dropDocument'; readonly at: number }
  | { readonly op: 'wrapInList'; readonly at: number; readonly length: number };

/** Whether `goal` is `from` or inside it. */
function reaches(from: unknown, goal: unknown): boolean {
  const seen = new Set<unknown>();
  const stack = [from];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === goal) return true;
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    stack.push(...Object.values(v));
  }
  return false;
}

/** Every path in the documents, breadth first; shared and cyclic nodes are walked once. */
function pathsOf(docs: unknown[]): Path[] {
  const out: Path[] = [];
  const seen = new Set<unknown>();
  const queue: Array<[unknown, Path]> = docs.map((d, i) => [d, [i]]);
  for (let q = 0; q < queue.length; q++) {
    const [v, p] = queue[q];
    out.push(p);
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) v.forEach((x, i) => queue.push([x, [...p, i]]));
    else for (const [k, x] of Object.entries(v)) queue.push([x, [...p, k]]);
  }
  return out;
}

function parentOf(docs: unknown[], p: Path): any {
  let v: any = docs;
  for (const k of p.slice(0, -1)) v = v[k];
  return v;
}

function applyMutation(docs: unknown[], m: Mutation): void {
  if (docs.length === 0) return;
  const doc = m.at % docs.length;
  switch (m.op) {
    case 'duplicateDocument':
      docs.splice(doc, 0, structuredClone(docs[doc]));
      return;
    case 'dropDocument':
      docs.splice(doc, 1);
      return;
    case 'wrapInList':
      docs.splice(doc, 0, { apiVersion: 'v1', kind: 'List', items: docs.splice(doc, 1 + (m.length % 4)) });
      return;
  }
  const paths = pathsOf(docs).filter((p) => p.length > 1);
  if (paths.length === 0) return;
  const p = paths[m.at % paths.length];
  const parent = parentOf(docs, p);
  const key = p[p.length - 1];
  switch (m.op) {
    case 'remove':
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      return;
    case 'retype':
      parent[key] = m.value;
      return;
    case 'alias': {
      // a reference to another node: YAML.stringify writes an anchor and an alias; a reference
      // to an ancestor would make a cycle, which kubectl (go-yaml) refuses ("value contains
      // itself"), so it is left out here: odd inputs test it
      const target = pathsOf(docs)[m.target % paths.length] ?? p;
      let node: any = docs;
      for (const k of target) node = node[k];
      if (reaches(node, parent)) return;
      parent[key] = node;
      return;
    }
    case 'rename':
    case 'flipCase': {
      if (Array.isArray(parent) || typeof key !== 'string') return;
      const to = m.op === 'rename' ? m.to : key.replace(/./g, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()));
      const entries = Object.entries(parent).map(([k, v]) => [k === key ? to : k, v]);
      for (const k of Object.keys(parent)) delete parent[k];
      for (const [k, v] of entries) Object.defineProperty(parent, k as string, { value: v, enumerable: true, writable: true, configurable: true });
      return;
    }
  }
}

/** Values that confuse a reader that trusts types: numbers as strings, huge numbers, prototype keys. */
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    65535,
    65536,
    9090,
    2 ** 53,
    -0,
    // (NaN and the infinities are written .nan and .inf, which kubectl refuses: exit 2, in
    // test/manifests/yaml-kubernetes.test.ts)
    '',
    ' ',
    '9090',
    '0x2382',
    'cnpg-system',
    'barman-cloud.cloudnative-pg.io',
    'plugin',
    '*',
    'x'.repeat(300),
    [],
    {},
    [null],
    [[]],
    { a: 1 },
    { name: 'x' },
    ['plugin'],
    { __proto__: null, toString: 1 },
  ),
  fc.string({ maxLength: 16 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 2 }),
);

const keyName: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'toString',
    'valueOf',
    'length',
    '0',
    '',
    'cnpg.io/plugin',
    'cnpg.io/pluginname',
    'cnpg.io/pluginName',
    'cnpg.io/pluginPort',
    'name',
    'kind',
    'items',
    'spec',
  ),
  fc.string({ maxLength: 12 }),
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('remove' as const), at: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('retype' as const), at: fc.nat(), value: weirdValue }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('rename' as const), at: fc.nat(), to: keyName }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('flipCase' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('alias' as const), at: fc.nat(), target: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('duplicateDocument' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('dropDocument' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wrapInList' as const), at: fc.nat(), length: fc.nat() }) },
);

const format = fc.constantFrom<'text' | 'json'>('text', 'json');
const baseChoice = fc.record({ set: fc.nat(), file: fc.nat() }).map(({ set, file }) => {
  const s = BASES[set % BASES.length];
  return { set: s, file: file % s.files.length };
});

describe('mutated manifests through main()', () => {
  test(
    'structural mutations (fields removed, retyped, renamed, aliased; documents duplicated, dropped, wrapped in a List): exit 0 or 1 with a well-formed report',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          baseChoice,
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          fc.boolean(),
          format,
          async ({ set, file }, mutations, topLevelList, fmt) => {
            const docs = structuredClone(set.files[file].docs);
            for (const m of mutations) applyMutation(docs, m);
            // a top-level YAML sequence of manifests, which kubectl refuses and the doctor skips
            const text = topLevelList ? YAML.stringify(docs) : docs.map((d) => YAML.stringify(d ?? null)).join('---\n');
            await runMutated('structural', set, file, text, fmt, [0, 1]);
          },
        ),
        FC,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// Mutations of the bytes: truncation, junk, YAML punctuation, duplicated lines (duplicate keys)

/** A billion-laughs document: nine levels of nine aliases. */
const ALIAS_BOMB =
  [
    'lol: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ...'bcdefghi'.split('').map((c, i) => {
      const prev = 'abcdefghi'[i];
      return `${c}: &${c} [${Array(9).fill(`*${prev}`).join(',')}]`;
    }),
  ].join('\n') + '\n';

const TOKENS = [
  '\0',
  '\uFEFF',
  '\t',
  '\r',
  '\r\n',
  '\n',
  ':',
  ': ',
  '- ',
  '-',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a ',
  '*a',
  '*nowhere',
  '!!binary ',
  '!!int ',
  '!!map ',
  '!custom ',
  '|',
  '>-',
  '"',
  "'",
  '#',
  '%YAML 1.2\n',
  '%TAG !e! tag:example.com,2000:\n',
  '---\n',
  '...\n',
  '? ',
  '@',
  '`',
  '\\',
  '\uFFFD',
  '\u2028',
  '\u0085',
  '<<: *a\n',
  '&a [*a]',
  '{a: &b {c: *b}}',
  'x'.repeat(100_000),
  '['.repeat(2_000),
  '{a: '.repeat(500),
  '- '.repeat(1_000),
  ALIAS_BOMB,
  'key: value\nkey: other\n',
];

type ByteOp =
  | { readonly op: 'truncate'; readonly at: number }
  | { readonly op: 'insertBytes'; readonly at: number; readonly bytes: Uint8Array }
  | { readonly op: 'insertToken'; readonly at: number; readonly token: string; readonly atLineStart: boolean }
  | { readonly op: 'delete'; readonly at: number; readonly length: number }
  | { readonly op: 'overwrite'; readonly at: number; readonly byte: number }
  | { readonly op: 'duplicateLines'; readonly at: number; readonly lines: number }
  | { readonly op: 'swapLines'; readonly at: number; readonly other: number };

function lineStarts(b: Buffer): number[] {
  const starts = [0];
  for (let i = 0; i < b.length; i++) if (b[i] === 0x0a && i + 1 < b.length) starts.push(i + 1);
  return starts;
}

function applyByteOp(b: Buffer, m: ByteOp): Buffer {
  const at = m.at % (b.length + 1);
  switch (m.op) {
    case 'truncate':
      return b.subarray(0, at);
    case 'insertBytes':
      return Buffer.concat([b.subarray(0, at), m.bytes, b.subarray(at)]);
    case 'insertToken': {
      const starts = lineStarts(b);
      const pos = m.atLineStart ? starts[m.at % starts.length] : at;
      return Buffer.concat([b.subarray(0, pos), Buffer.from(m.token, 'utf8'), b.subarray(pos)]);
    }
    case 'delete':
      return Buffer.concat([b.subarray(0, at), b.subarray(at + m.length)]);
    case 'overwrite': {
      if (b.length === 0) return b;
      const copy = Buffer.from(b);
      copy[m.at % b.length] = m.byte;
      return copy;
    }
    case 'duplicateLines': {
      // a repeated `key: value` line is a duplicate key; a repeated `- item` a longer list
      const starts = [...lineStarts(b), b.length];
      const i = m.at % (starts.length - 1 || 1);
      const chunk = b.subarray(starts[i], starts[Math.min(i + 1 + m.lines, starts.length - 1)]);
      return Buffer.concat([b.subarray(0, starts[i]), chunk, b.subarray(starts[i])]);
    }
    case 'swapLines': {
      const lines = b.toString('latin1').split('\n');
      const i = m.at % lines.length;
      const j = m.other % lines.length;
      [lines[i], lines[j]] = [lines[j], lines[i]];
      return Buffer.from(lines.join('\n'), 'latin1');
    }
  }
}

const byteOp: fc.Arbitrary<ByteOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('insertBytes' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 32 }) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('insertToken' as const), at: fc.nat(), token: fc.constantFrom(...TOKENS), atLineStart: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('overwrite' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('duplicateLines' as const), at: fc.nat(), lines: fc.nat({ max: 5 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('swapLines' as const), at: fc.nat(), other: fc.nat() }) },
);

describe('corrupted YAML through main()', () => {
  test(
    'byte mutations (truncated, junk and invalid UTF-8 inserted, YAML punctuation, duplicate keys, alias bombs, deep nesting): exit 0, 1 or 2, and exit 2 names the file, line and column',
    async () => {
      await fc.assert(
        fc.asyncProperty(baseChoice, fc.array(byteOp, { minLength: 1, maxLength: 3 }), format, async ({ set, file }, ops, fmt) => {
          let bytes: Buffer = Buffer.from(set.files[file].text, 'utf8');
          for (const op of ops) bytes = applyByteOp(bytes, op);
          await runMutated('bytes', set, file, bytes, fmt, [0, 1, 2]);
        }),
        FC,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// Generated documents and junk files

const CNPG_KEYS = [
  'cnpg.io/pluginName',
  'cnpg.io/pluginPort',
  'cnpg.io/pluginClientSecret',
  'cnpg.io/pluginServerSecret',
  'cnpg.io/pluginServerName',
  'cnpg.io/plugin',
];
const TYPES: ReadonlyArray<[string, string]> = [
  ['v1', 'Service'],
  ['apps/v1', 'Deployment'],
  ['postgresql.cnpg.io/v1', 'Cluster'],
  ['postgresql.cnpg.io/v1', 'Backup'],
  ['postgresql.cnpg.io/v1', 'ScheduledBackup'],
  ['postgresql.cnpg.io/v1', 'Pooler'],
  ['cert-manager.io/v1', 'Certificate'],
  ['cert-manager.io/v1', 'Issuer'],
  ['v1', 'Secret'],
  ['v1', 'ConfigMap'],
  ['barmancloud.cnpg.io/v1', 'ObjectStore'],
  ['rbac.authorization.k8s.io/v1', 'Role'],
  ['apps/v1', 'DaemonSet'],
  ['v1', 'Pod'],
];
const kubernetesish: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  doc: fc.oneof({ weight: 4, arbitrary: tie('object') }, { weight: 1, arbitrary: tie('list') }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }),
  list: fc.record(
    {
      apiVersion: fc.constantFrom('v1', 1, null),
      kind: fc.constantFrom('List', 'list', 'ServiceList'),
      items: fc.oneof(fc.array(tie('doc'), { maxLength: 4 }), weirdValue),
    },
    { requiredKeys: ['kind'] },
  ),
  object: fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...TYPES).map(([apiVersion, kind]) => ({ apiVersion, kind })) },
        { weight: 1, arbitrary: fc.record({ apiVersion: weirdValue, kind: weirdValue }, { requiredKeys: [] }) },
      ),
      fc.record(
        {
          metadata: fc.oneof(
            fc.record(
              {
                name: fc.oneof(fc.constantFrom('backup', 'cnpg-controller-manager', 'pg'), weirdValue),
                namespace: fc.oneof(fc.constantFrom('cnpg-system', 'app'), weirdValue),
                labels: fc.oneof(
                  fc.dictionary(fc.oneof(fc.constantFrom(...CNPG_KEYS), keyName), fc.oneof(fc.string({ maxLength: 12 }), weirdValue), { maxKeys: 4 }),
                  weirdValue,
                ),
                annotations: fc.oneof(
                  fc.dictionary(fc.oneof(fc.constantFrom(...CNPG_KEYS), keyName), fc.oneof(fc.constantFrom('9090', 'backup-server-tls', 'x'), weirdValue), {
                    maxKeys: 5,
                  }),
                  weirdValue,
                ),
              },
              { requiredKeys: [] },
            ),
            weirdValue,
          ),
          spec: fc.oneof(
            fc.jsonValue({ maxDepth: 3 }),
            fc.record(
              {
                selector: weirdValue,
                ports: fc.array(fc.record({ port: weirdValue, targetPort: weirdValue, name: weirdValue }, { requiredKeys: [] }), { maxLength: 2 }),
                plugins: fc.array(
                  fc.record({ name: weirdValue, isWALArchiver: weirdValue, parameters: weirdValue, enabled: weirdValue }, { requiredKeys: [] }),
                  { maxLength: 3 },
                ),
                template: fc.record(
                  {
                    metadata: weirdValue,
                    spec: fc.record(
                      {
                        containers: fc.array(
                          fc.record(
                            { name: weirdValue, args: weirdValue, ports: weirdValue, volumeMounts: weirdValue, securityContext: weirdValue },
                            { requiredKeys: [] },
                          ),
                          { maxLength: 2 },
                        ),
                        volumes: weirdValue,
                      },
                      { requiredKeys: [] },
                    ),
                  },
                  { requiredKeys: [] },
                ),
                dnsNames: weirdValue,
                usages: weirdValue,
                secretName: weirdValue,
                issuerRef: weirdValue,
                method: weirdValue,
                pluginConfiguration: weirdValue,
                cluster: weirdValue,
              },
              { requiredKeys: [] },
            ),
          ),
        },
        { requiredKeys: [] },
      ),
    )
    .map(([type, rest]) => ({ ...type, ...rest })),
})).doc;

describe('generated and junk input through main()', () => {
  test(
    'generated documents (Kubernetes-like objects with wrong types, Lists, top-level lists, scalars, prototype keys): exit 0 or 1 with a well-formed report',
    async () => {
      const example = BASES[0].files.map((f) => path.join('base', BASES[0].id, f.name));
      await fc.assert(
        fc.asyncProperty(fc.array(kubernetesish, { maxLength: 4 }), fc.boolean(), fc.boolean(), format, async (docs, topLevelList, besideExample, fmt) => {
          const text = topLevelList ? YAML.stringify(docs) : docs.map((d) => YAML.stringify(d ?? null)).join('---\n');
          const file = write('generated.yaml', text);
          // beside the example app, generated Services and Clusters meet real plugins
          const r = await run([...(besideExample ? example : []), file, ...(fmt === 'json' ? ['--format', 'json'] : [])], work);
          if (r.code >= 0 && r.code <= 2) count('generated', r.code);
          expectContract(r, fmt, [0, 1], file, text);
        }),
        FC,
      );
    },
    PROPERTY_TIMEOUT,
  );

  const junkChars = fc.constantFrom(...'abc:-[]{},&*!|>"\'#%@`?\\ \t\r\n\0\uFEFF\uFFFD\u2028\u0085é字😀'.split(''), '---', '...', '<<');
  test(
    'junk files (random bytes, random Unicode, YAML punctuation): exit 0, 1 or 2, and exit 2 names the file, line and column',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(fc.uint8Array({ maxLength: 2048 }), fc.string({ unit: 'binary', maxLength: 512 }), fc.string({ unit: junkChars, maxLength: 400 })),
          format,
          async (junk, fmt) => {
            const file = write('junk.yaml', junk);
            const r = await run([file, ...(fmt === 'json' ? ['--format', 'json'] : [])], work);
            if (r.code >= 0 && r.code <= 2) count('junk', r.code);
            expectContract(r, fmt, [0, 1, 2], file, typeof junk === 'string' ? junk : Buffer.from(junk).toString('utf8'));
          },
        ),
        FC,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// Odd inputs, one by one

describe('odd inputs through main()', () => {
  const example = () => BASES[0].files.map((f) => path.join('base', BASES[0].id, f.name));
  const fixture = (name: string) => path.relative(work, path.join(ROBUSTNESS, name));

  test.each<[string, string | Uint8Array]>([
    ['an empty file', ''],
    ['--- only', '---\n'],
    ['empty documents and an end marker', '---\n---\n...\n'],
    ['only a comment', '# nothing here\n'],
    ['a byte order mark only', '\uFEFF'],
    ['a BOM before a manifest', '\uFEFFapiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bom\n'],
    ['10,000 empty mappings', '---\n{}\n'.repeat(10_000)],
  ])('%s: exit 0', async (_name, content) => {
    const r = await run([write('odd.yaml', content), '--operator-namespace', 'cnpg-system'], work);
    expectContract(r, 'text', [0], 'odd.yaml', String(content));
  });

  test.each<[string, string | Uint8Array]>([
    ['NUL bytes', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\0b\ndata:\n  "\0": "\0"\n'],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: '),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
        Buffer.from('\n'),
      ]),
    ],
    ['UTF-16 with its BOM', Buffer.from('\uFEFFapiVersion: v1\nkind: ConfigMap\n', 'utf16le')],
    ['a 1 MB line', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: long\ndata:\n  x: ${'x'.repeat(1_000_000)}\n`],
    ['a 400 kB flow sequence on one line', `[${'1,'.repeat(200_000)}1]\n`],
    ['a lone carriage return as line break', 'apiVersion: v1\rkind: ConfigMap\r'],
    ['tabs as indentation', 'metadata:\n\tname: x\n'],
    [
      'a YAML 1.1 directive (yes/no booleans, octal, sexagesimal)',
      '%YAML 1.1\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: y}\ndata: {a: yes, b: 0777, c: 1:30}\n',
    ],
    ['an unknown directive and tags', '%FOO bar\n---\napiVersion: !v1 v1\nkind: !!str ConfigMap\nmetadata: !!map {name: !!binary eA==}\n'],
    ['duplicate keys', 'apiVersion: v1\nkind: ConfigMap\nkind: Secret\nmetadata:\n  name: dup\n'],
    ['an undefined alias', 'apiVersion: v1\nkind: *kind\n'],
    ['a merge key', 'base: &b {apiVersion: v1, kind: ConfigMap}\n---\n<<: {apiVersion: v1, kind: ConfigMap}\nmetadata: {name: m}\n'],
  ])('%s: the contract holds', async (_name, content) => {
    const file = write('odd.yaml', content);
    const text = Buffer.from(content).toString('utf8');
    expectContract(await run([file], work), 'text', [0, 1, 2], file, text);
    expectContract(await run([file, '--format', 'json'], work), 'json', [0, 1, 2], file, text);
  });

  test('duplicate keys: the last one wins, as kubectl reads them (sigs.k8s.io/yaml YAMLToJSON is not strict)', async () => {
    const r = await run(
      [write('dup.yaml', 'apiVersion: v1\nkind: ConfigMap\nkind: Secret\nmetadata:\n  name: dup\n'), '--format', 'json', '--operator-namespace', 'cnpg-system'],
      work,
    );
    expect(r.err).toBe('');
    expect(JSON.stringify(JSON.parse(r.out))).not.toContain('ConfigMap');
  });

  test('an alias bomb is refused by its alias count, wherever it sits', async () => {
    for (const f of ['billion-laughs.yaml', 'bomb-in-a-deployment.yaml']) {
      const r = await run([fixture(f)], work);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(YAML_ERROR(fixture(f)));
      expect(r.err).toContain('document contains excessive aliasing');
    }
  });

  test('many aliases of one large string stay cheap (strings are shared, not copied)', async () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  annotations:\n    a: &big ${'y'.repeat(1_000_000)}\ndata:\n${Array.from({ length: 500 }, (_, i) => `  k${i}: *big\n`).join('')}`;
    const r = await run([write('big.yaml', text), '--operator-namespace', 'cnpg-system'], work);
    expectContract(r, 'text', [0, 1], 'big.yaml', text);
  });

  test('objects that contain themselves (aliases of an ancestor) are refused, as go-yaml refuses them', async () => {
    const r = await run([fixture('cyclic-aliases.yaml'), '--format', 'json'], work);
    expectContract(r, 'json', [2], fixture('cyclic-aliases.yaml'), fs.readFileSync(path.join(ROBUSTNESS, 'cyclic-aliases.yaml'), 'utf8'));
    expect(r.err).toContain("anchor 'labels' value contains itself");
  });

  test('YAML that is not Kubernetes: warnings, exit 0', async () => {
    const r = await run([fixture('not-kubernetes.yaml'), '--operator-namespace', 'cnpg-system'], work);
    expect(r.code).toBe(0);
    expect(r.out.match(/CNPGI090 {2}not a Kubernetes object/g)).toHaveLength(5);
  });

  test('the example app as a kind: List, with CRLF line ends, or twice in one stream', async () => {
    const docs = BASES[0].files.flatMap((f) => f.docs);
    const findings = async (argv: string[]) => {
      const r = await run([...argv, '--format', 'json'], work);
      expect(r.err).toBe('');
      return {
        code: r.code,
        rules: JSON.parse(r.out)
          .findings.map((f: { ruleId: string }) => f.ruleId)
          .sort(),
      };
    };
    const plain = await findings(example());
    expect(plain.code).toBe(0);
    expect(await findings([write('list.yaml', YAML.stringify({ apiVersion: 'v1', kind: 'List', items: docs }))])).toEqual(plain);
    expect(await findings(BASES[0].files.map((f, i) => write(`crlf-${i}.yaml`, f.text.replace(/\n/g, '\r\n'))))).toEqual(plain);
    // the top-level list that kubectl refuses: one document, skipped with a warning
    const top = await findings([write('top-level-list.yaml', YAML.stringify(docs)), '--operator-namespace', 'cnpg-system']);
    expect(top).toEqual({ code: 0, rules: ['CNPGI090'] });
    // every object twice: the duplicated plugin Services are warnings (they work until one is deleted), not a crash
    const twice = await run([...example(), ...example()], work);
    expect(twice.code).toBe(0);
    expect(twice.err).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// The upstream manifests, unmutated

describeWithShared('upstream manifests as bases', () => {
  test('each base set passes through the CLI with exit 0 or 1, so mutations start from a known state', async () => {
    expect(BASES.map((b) => b.id)).toEqual(['example', 'barman-cloud', 'hello-world', 'cnpg-operator']);
    for (const set of BASES) {
      const r = await run([...set.files.map((f) => path.join('base', set.id, f.name)), ...set.args], work);
      expect({ set: set.id, err: r.err }).toEqual({ set: set.id, err: '' });
      expect([0, 1]).toContain(r.code);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// End to end: the real bin script in its own process

// The bin runs lib/ only when it is newer than every source file, else the sources through
// tsx, so these tests always check the current code.
describe('the cnpg-i-doctor process', () => {
  const BIN = path.join(ROOT, 'bin', 'cnpg-i-doctor.js');
  function bin(args: string[], input?: string | Uint8Array, nodeArgs: string[] = []) {
    const r = spawnSync(process.execPath, [...nodeArgs, BIN, ...args], { cwd: work, input, timeout: 30_000, maxBuffer: 64 * 1024 * 1024 });
    const err = r.stderr.toString('utf8');
    expect(STACK_FRAME.test(err)).toBe(false);
    expect(err).not.toContain('Warning');
    return { code: r.status, out: r.stdout.toString('utf8'), err };
  }

  test('exit 0 on the example app, 1 with errors, 2 on truncated YAML', () => {
    const example = BASES[0].files.map((f) => path.join('base', BASES[0].id, f.name));
    expect(bin(example)).toMatchObject({ code: 0, err: '' });
    // the Clusters alone, said to be everything installed: their plugins are missing
    expect(bin([example[1], '--operator-namespace', 'cnpg-system', '--complete'])).toMatchObject({ code: 1, err: '' });
    // cut inside a double-quoted scalar: an unterminated string
    const text = BASES[0].files[0].text;
    const cut = text.indexOf('"', text.length / 2) + 1;
    const file = write('truncated.yaml', text.slice(0, cut));
    const r = bin([file]);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(YAML_ERROR(file));
  });

  test('alias bombs and deep nesting in 64 MB of heap: exit 2, no out-of-memory abort', () => {
    const small = ['--max-old-space-size=64'];
    for (const f of ['billion-laughs.yaml', 'bomb-in-a-deployment.yaml']) {
      const r = bin([path.join(ROBUSTNESS, f)], undefined, small);
      expect(r.code).toBe(2);
      expect(r.err).toContain('document contains excessive aliasing');
    }
    expect(bin(['-'], '['.repeat(200_000), small)).toEqual({
      code: 2,
      out: '',
      err: `cnpg-i-doctor: <stdin>:1:${MAX_NESTING_DEPTH + 1}: collections nested more than ${MAX_NESTING_DEPTH} levels deep; a Kubernetes manifest is never this deep\n`,
    });
  });

  test('a collection key: exit 2 with one line on stderr; junk bytes: a JSON report or a YAML error', () => {
    expect(bin(['-'], 'apiVersion: v1\nkind: ConfigMap\ndata:\n  ? [a]\n  : b\n')).toEqual({
      code: 2,
      out: '',
      err: 'cnpg-i-doctor: <stdin>:4:5: a mapping key is a sequence or a mapping; Kubernetes accepts only scalar keys\n',
    });
    // a fixed pseudo-random stream, so that the case is the same on every run
    let x = 0x2545f491;
    const junk = Uint8Array.from({ length: 4096 }, () => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return x & 0xff;
    });
    const r = bin(['-', '--format', 'json'], junk);
    if (r.code === 2) expect(r.err).toMatch(YAML_ERROR('<stdin>'));
    else expect(JSON.parse(r.out).summary).toBeDefined();
    expect([0, 1, 2]).toContain(r.code);
  });
});
