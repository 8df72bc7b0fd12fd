#!/usr/bin/env node
/*
 * Compiles the library with jsii in a temporary copy of the checkout, generates the Python, Java,
 * Go and .NET sources with `jsii-pacmak --code-only`, checks what this machine can check of them
 * without any registry but npm (see docs/development/jsii.md), and renders the Python API
 * reference with jsii-docgen.
 *
 *   node scripts/jsii-bindings.mjs               print the report (JSON) on standard output
 *   node scripts/jsii-bindings.mjs --docs DIR    also write DIR/API.python.md
 *                                                (`npm run docs:api` writes docs/)
 *
 * The copy holds what git tracks plus new files it does not ignore, with this checkout's
 * node_modules linked in, so this checkout's lib/ and .jsii are never touched while other
 * tests read them. Exits 1 when jsii reports an error, a generator fails, or a language check
 * that could run finds a problem; a check whose tool is missing is reported as not run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BIN, ROOT, run, stage, which } from './jsii/stage.mjs';

const LANGUAGES = ['python', 'java', 'go', 'dotnet'];
const DOCS_FILE = 'API.python.md';
const DOCS_NOTICE = '<!-- generated from the jsii assembly by `npm run docs:api` (jsii-docgen, Python); do not edit -->';

function parseArgs(argv) {
  if (argv.length === 0) return {};
  if (argv.length === 2 && argv[0] === '--docs' && argv[1] !== '') return { docs: path.resolve(argv[1]) };
  throw new Error(`usage: node scripts/jsii-bindings.mjs [--docs DIR] (got: ${argv.join(' ')})`);
}

// `src/rules/finding.ts:22:12 - warning JSII5018: "object" is a reserved word in C#. ...`
const DIAGNOSTIC = /^(\S+?):(\d+):(\d+) - (error|warning) (JSII\d+|TS\d+): (.*)$/;
// `warning JSII6: A "peerDependency" on ...` (about package.json: no file position)
const PACKAGE_DIAGNOSTIC = /^(error|warning) (JSII\d+): (.*)$/;
const RESERVED = /^"([^"]+)" is a reserved word in ([^.]+)\./;

/** jsii's diagnostics, as objects; reserved-word warnings also carry the word and languages. */
function diagnostics(output) {
  const out = [];
  // eslint-disable-next-line no-control-regex -- ANSI colour codes, in case a tool ignores NO_COLOR
  for (const line of output.replace(/\x1b\[[0-9;]*m/g, '').split('\n')) {
    const m = DIAGNOSTIC.exec(line.trim());
    const p = m ? undefined : PACKAGE_DIAGNOSTIC.exec(line.trim());
    if (!m && !p) continue;
    const d = m
      ? { file: m[1], line: Number(m[2]), severity: m[4], code: m[5], message: m[6] }
      : { file: 'package.json', line: 0, severity: p[1], code: p[2], message: p[3] };
    const r = RESERVED.exec(d.message);
    if (r) Object.assign(d, { word: r[1], languages: r[2].split(/,\s*/) });
    out.push(d);
  }
  return out;
}

/** Every file under `dir` whose name ends in `ext`, relative to `dir`, sorted. */
function filesOf(dir, ext) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(ext))
    .sort();
}

/** Python: every generated module parses (ast); importing needs the jsii runtime from PyPI. */
function checkPython(dir) {
  const files = filesOf(dir, '.py');
  const python = which('python3');
  if (!python) return { files: files.length, check: 'not run: no python3 on PATH' };
  const code =
    'import ast,sys\nbad=0\nfor f in sys.argv[1:]:\n  try: ast.parse(open(f,encoding="utf-8").read(),f)\n  except SyntaxError as e:\n    bad+=1; print(f"{f}:{e.lineno}: {e.msg}")\nprint(f"parsed {len(sys.argv)-1} files"); sys.exit(1 if bad else 0)\n';
  const r = run(python, ['-c', code, ...files.map((f) => path.join(dir, f))], dir, { allowFail: true });
  return { files: files.length, check: 'python3 ast.parse of every module', ok: r.status === 0, output: r.stdout.trim() };
}

/** Java: every generated source parses with the JDK's compiler front end (no symbol resolved). */
function checkJava(dir) {
  const files = filesOf(dir, '.java');
  const java = which('java');
  if (!java) return { files: files.length, check: 'not run: no java on PATH' };
  const r = run(java, [path.join(ROOT, 'scripts', 'jsii', 'JavaSyntax.java'), ...files.map((f) => path.join(dir, f))], dir, { allowFail: true });
  return { files: files.length, check: 'JDK javac front end (JavacTask.parse) of every source', ok: r.status === 0, output: r.stdout.trim() };
}

/** Go: every generated file is well-formed Go (gofmt -e); go vet needs modules from the Go proxy. */
function checkGo(dir) {
  const files = filesOf(dir, '.go');
  const gofmt = which('gofmt', ['/usr/lib/go-1.23/bin']);
  if (!gofmt) return { files: files.length, check: 'not run: no gofmt (Go 1.23: /usr/lib/go-1.23/bin)' };
  const r = run(gofmt, ['-l', '-e', ...files.map((f) => path.join(dir, f))], dir, { allowFail: true });
  return { files: files.length, check: 'gofmt -e (parse) of every file', ok: r.status === 0 && r.stderr.trim() === '', output: r.stderr.trim() };
}

/** .NET: no C# compiler in Debian's packages; the sources and the project file are generated. */
function checkDotnet(dir) {
  const files = filesOf(dir, '.cs');
  const projects = filesOf(dir, '.csproj');
  return { files: files.length, projects: projects.length, check: 'not run: no .NET SDK from npm or Debian; sources generated only' };
}

function main() {
  const { docs } = parseArgs(process.argv.slice(2));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-jsii-'));
  try {
    const copy = path.join(work, 'repo');
    stage(copy);

    // 1. jsii: the assembly (.jsii), the JavaScript and the declarations, in the copy.
    const compiled = run(path.join(BIN, 'jsii'), [], copy, { allowFail: true });
    const found = diagnostics(`${compiled.stdout}\n${compiled.stderr}`);
    const errors = found.filter((d) => d.severity === 'error');
    const warnings = found.filter((d) => d.severity === 'warning');
    if (compiled.status !== 0 || errors.length > 0) {
      const shown = errors.map((d) => `${d.file}:${d.line} ${d.code} ${d.message}`).join('\n') || compiled.stderr;
      throw new Error(`jsii failed (exit ${compiled.status}, ${errors.length} errors):\n${shown}`);
    }
    const assembly = JSON.parse(fs.readFileSync(path.join(copy, '.jsii'), 'utf8'));

    // 2. The four bindings' sources.
    const out = path.join(work, 'bindings');
    run(path.join(BIN, 'jsii-pacmak'), ['--code-only', '--no-fingerprint', '--no-npmignore', '--outdir', out, '--targets', ...LANGUAGES], copy);

    // 3. What can be checked offline.
    const languages = {
      python: checkPython(path.join(out, 'python')),
      java: checkJava(path.join(out, 'java')),
      go: checkGo(path.join(out, 'go')),
      dotnet: checkDotnet(path.join(out, 'dotnet')),
    };

    // 4. The Python API reference, from the same assembly (the root module; the generated L1
    //    submodules are the imports of the CRDs, documented by their schemas).
    let docsWritten;
    if (docs) {
      const page = path.join(work, 'API.python');
      run(path.join(BIN, 'jsii-docgen'), ['--language', 'python', '--submodule', 'root', '--output', page], copy);
      const text = fs.readFileSync(`${page}.md`, 'utf8').replace(/\r\n/g, '\n').trimEnd();
      fs.mkdirSync(docs, { recursive: true });
      fs.writeFileSync(path.join(docs, DOCS_FILE), `${DOCS_NOTICE}\n\n${text}\n`);
      docsWritten = path.relative(ROOT, path.join(docs, DOCS_FILE)) || DOCS_FILE;
    }

    const report = {
      jsii: {
        types: Object.keys(assembly.types ?? {}).length,
        // the root module's types (submodules' types are `<name>.<submodule>.<Type>`)
        rootTypes: Object.keys(assembly.types ?? {})
          .filter((fqn) => fqn.split('.').length === 2)
          .map((fqn) => fqn.split('.')[1])
          .sort(),
        submodules: Object.keys(assembly.submodules ?? {}).sort(),
        targets: assembly.targets,
        warnings: warnings.map(({ file, line, code, word, languages: langs, message }) =>
          word ? { file, line, code, word, languages: langs } : { file, line, code, message },
        ),
      },
      languages,
      ...(docsWritten ? { docs: docsWritten } : {}),
    };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const failed = Object.entries(languages).filter(([, l]) => l.ok === false);
    if (failed.length > 0) {
      throw new Error(`generated sources that do not parse: ${failed.map(([name, l]) => `${name}\n${l.output}`).join('\n')}`);
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  main();
} catch (e) {
  console.error(`jsii-bindings: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
