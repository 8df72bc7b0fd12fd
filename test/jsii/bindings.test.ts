import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

// scripts/jsii-bindings.mjs compiles a copy of the checkout with jsii, generates the Python, Java,
// Go and .NET sources with jsii-pacmak, parses them with each language's own front end where
// this machine has one, and renders docs/API.python.md with jsii-docgen. It runs once here.
const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'jsii-bindings.mjs');
/** The maintainer's notes on jsii (the reserved-word table) and the user's guide (the Python example). */
const JSII_NOTES = fs.readFileSync(path.join(ROOT, 'docs', 'development', 'jsii.md'), 'utf8');
const LANGUAGES_GUIDE = fs.readFileSync(path.join(ROOT, 'docs', 'guides', 'other-languages.md'), 'utf8');
/** In CI (`.ci/run` installs a JDK, Python 3 and Go) a missing front end fails; elsewhere it skips that language with a message. */
const TOOLS_REQUIRED = process.env.CI === 'true' || process.env.CNPG_I_REQUIRE_SHARED === '1';

interface Warning {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  readonly word?: string;
  readonly languages?: string[];
  readonly message?: string;
}
interface LanguageCheck {
  readonly files: number;
  readonly projects?: number;
  readonly check: string;
  readonly ok?: boolean;
  readonly output?: string;
}
interface Report {
  readonly jsii: { types: number; rootTypes: string[]; submodules: string[]; targets: Record<string, unknown>; warnings: Warning[] };
  readonly languages: Record<'python' | 'java' | 'go' | 'dotnet', LanguageCheck>;
  readonly docs?: string;
}

/** The reserved-word table of docs/development/jsii.md: `word` -> the languages it is reserved in. */
function documentedReservedWords(): Map<string, string> {
  const start = JSII_NOTES.indexOf('<!-- jsii-reserved-words -->');
  if (start < 0) throw new Error('docs/development/jsii.md has no <!-- jsii-reserved-words --> table');
  const rows = JSII_NOTES.slice(start).split('\n').slice(1);
  const table = new Map<string, string>();
  for (const row of rows.slice(2)) {
    if (!row.startsWith('|')) break;
    const cells = row
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    table.set(cells[0].replace(/`/g, ''), cells[1]);
  }
  return table;
}

describe('the jsii build and the four language bindings', () => {
  let outdir: string;
  let status: number | null;
  let stderr: string;
  let report: Report;

  beforeAll(() => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-jsii-test-'));
    const r = spawnSync(process.execPath, [SCRIPT, '--docs', outdir], { cwd: ROOT, encoding: 'utf8', timeout: 540_000, maxBuffer: 64 * 1024 * 1024 });
    status = r.status;
    stderr = r.stderr;
    report = r.status === 0 ? (JSON.parse(r.stdout) as Report) : (undefined as unknown as Report);
  }, 600_000);
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

  test('jsii compiles the library with no error, and the generators and checks succeed', () => {
    if (status !== 0) throw new Error(`scripts/jsii-bindings.mjs exited ${status}:\n${stderr}`);
    expect(report.jsii.types).toBeGreaterThan(50);
  });

  test('the only jsii warnings are reserved words, each listed in docs/development/jsii.md with what it becomes', () => {
    expect(report.jsii.warnings.filter((w) => w.code !== 'JSII5018')).toEqual([]);
    const seen = new Map<string, string>();
    for (const w of report.jsii.warnings) seen.set(w.word!, w.languages!.join(', '));
    expect(new Map([...documentedReservedWords()].sort())).toEqual(new Map([...seen].sort()));
  });

  test('scripts/jsii/expected-warnings.txt lists exactly the warnings jsii gives', () => {
    // Fed back to the build's filter, jsii's warnings all match the list, and the list has no
    // entry left over (a stale entry would let a new warning of that name pass unseen).
    const message = (w: Warning): string => (w.word ? `"${w.word}" is a reserved word in ${w.languages!.join(', ')}.` : w.message!);
    const output = report.jsii.warnings.map((w) => `${w.file}:${w.line}:1 - warning ${w.code}: ${message(w)}`).join('\n');
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'jsii-build.mjs'), '--filter'], { cwd: ROOT, input: output, encoding: 'utf8' });
    const listed = fs
      .readFileSync(path.join(ROOT, 'scripts', 'jsii', 'expected-warnings.txt'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(r.stdout).toBe(`jsii: ${listed.length} expected warnings left out (scripts/jsii/expected-warnings.txt)\n`);
    expect(report.jsii.warnings).toHaveLength(listed.length);
  });

  test('the assembly holds the API other languages need, and leaves out what is Node.js-only', () => {
    for (const name of [
      'Doctor',
      'Plan',
      'StandalonePlugin',
      'SidecarPlugin',
      'CnpgOperator',
      'PostgresCluster',
      'BarmanCloudPlugin',
      'ObjectStore',
      'HelloWorldPlugin',
      'PluginTls',
      'IssuerRef',
      'Finding',
      'DoctorOptions',
      'DoctorReport',
      'PlanReport',
    ]) {
      expect(report.jsii.rootTypes).toContain(name);
    }
    // a subclass of Error and the cdk8s-cli validation plugin (Node.js only) are @jsii ignore
    for (const name of ['CnpgIValidationError', 'DoctorValidationPlugin', 'DoctorValidationContext']) expect(report.jsii.rootTypes).not.toContain(name);
    expect(Object.keys(report.jsii.targets).sort()).toEqual(['dotnet', 'go', 'java', 'js', 'python']);
  });

  test('Python, Java and Go sources parse with their own front ends; .NET sources are generated', () => {
    for (const lang of ['python', 'java', 'go'] as const) {
      const l = report.languages[lang];
      expect(l.files).toBeGreaterThan(0);
      if (l.check.startsWith('not run') && !TOOLS_REQUIRED) {
        // A developer machine without the language's front end: say so; CI installs them all (.ci/run).
        console.warn(`skipping the ${lang} parse check: ${l.check}`);
        continue;
      }
      expect([lang, l.ok, l.check.startsWith('not run')]).toEqual([lang, true, false]);
      if (lang !== 'go') expect(l.output).toBe(`parsed ${l.files} files`);
    }
    expect(report.languages.dotnet.files).toBeGreaterThan(50);
    expect(report.languages.dotnet.projects).toBe(1);
  });

  test("the other-languages guide's Python example parses, and imports only names the bindings have", () => {
    const m = LANGUAGES_GUIDE.match(/<!-- python-example -->\n```python\n([\s\S]*?)```/);
    if (!m) throw new Error('docs/guides/other-languages.md has no ```python block after <!-- python-example -->');
    const parsed = spawnSync('python3', ['-c', 'import ast,sys; ast.parse(sys.stdin.read(), "other-languages.md")'], { input: m[1], encoding: 'utf8' });
    expect({ status: parsed.status, stderr: parsed.stderr }).toEqual({ status: 0, stderr: '' });
    const imported = [...m[1].matchAll(/^from cdk8s_cnpg_i import (.+)$/gm)].flatMap((i) => i[1].split(',').map((n) => n.trim()));
    expect(imported.length).toBeGreaterThan(2);
    expect(imported.filter((name) => !report.jsii.rootTypes.includes(name))).toEqual([]);
  });

  test('docs/API.python.md is what jsii-docgen renders from the assembly', () => {
    const generated = fs.readFileSync(path.join(outdir, 'API.python.md'), 'utf8');
    const committed = fs.readFileSync(path.join(ROOT, 'docs', 'API.python.md'), 'utf8');
    if (generated !== committed) {
      const a = generated.split('\n');
      const b = committed.split('\n');
      const i = a.findIndex((line, n) => line !== b[n]);
      throw new Error(
        `docs/API.python.md is stale (line ${i + 1}: generated ${JSON.stringify(a[i])}, committed ${JSON.stringify(b[i])}): run \`npm run docs:api\``,
      );
    }
    expect(generated).toContain('Doctor.check_manifests(');
    for (const local of [ROOT, outdir, os.tmpdir(), os.homedir()]) expect(generated).not.toContain(local);
  });

  test('the script refuses arguments it does not know, before compiling anything', () => {
    const bad = spawnSync(process.execPath, [SCRIPT, '--docs'], { cwd: ROOT, encoding: 'utf8' });
    expect({ status: bad.status, stderr: bad.stderr }).toEqual({
      status: 1,
      stderr: 'jsii-bindings: usage: node scripts/jsii-bindings.mjs [--docs DIR] (got: --docs)\n',
    });
  });
});
