/*
 * `cnpg-i-doctor [files|dirs|-]`: runs the doctor over YAML files and prints a report.
 * Imports only the doctor's core (no cdk8s), so it starts fast and works on anyone's YAML.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CnpgIValidationError } from '../common/errors';
import { analyzeManifests } from '../doctor/check-manifests';
import { DoctorOptions, DoctorReport, Finding } from '../doctor/finding';
import { InputError, LoadedDocument, collectFiles, parseManifestText } from './load-manifests';
import { runPlan } from './plan';

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  /** Writes to standard output (text without a trailing newline is completed by the caller). */
  readonly stdout: (text: string) => void;
  /** Writes to standard error. */
  readonly stderr: (text: string) => void;
  /** Reads all of standard input. */
  readonly readStdin: () => Promise<string>;
  /** Directory that relative paths are resolved against. @default process.cwd() */
  readonly cwd?: string;
}

/** Exit codes. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

const USAGE = `usage: cnpg-i-doctor [options] <file|dir|->...
       cnpg-i-doctor plan [options] <old> <new>   (see cnpg-i-doctor plan --help)

Checks Kubernetes manifests as the CloudNativePG operator reads CNPG-I plugins.
Directories are read recursively (*.yaml, *.yml, *.json); '-' reads stdin.

options:
  --format text|json          report format (default: text)
  --operator-namespace <ns>   namespace of the CNPG operator (default: from the operator
                              Deployment in the input, else cnpg-system with a warning)
  --cnpg-version <version>    target CloudNativePG version (default: 1.30.0)
  --known-plugin <name>       a plugin installed outside these manifests (repeatable)
  -n, --namespace <ns>        namespace of objects that have none (default: the operator's)
  -h, --help                  this help

exit codes: 0 no errors (warnings allowed), 1 errors found, 2 unusable input`;

interface ParsedArgs {
  readonly paths: string[];
  readonly format: 'text' | 'json';
  readonly options: DoctorOptions;
  readonly help: boolean;
}

function parseArgs(argv: readonly string[]): ParsedArgs {
  const paths: string[] = [];
  let format: 'text' | 'json' = 'text';
  let operatorNamespace: string | undefined;
  let cnpgVersion: string | undefined;
  let defaultNamespace: string | undefined;
  const knownPlugins: string[] = [];
  let help = false;
  const withValue = new Set(['--format', '--operator-namespace', '--cnpg-version', '--known-plugin', '--namespace', '-n']);
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    if (arg === '--') {
      paths.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-h' || arg === '--help') {
      help = true;
      continue;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      paths.push(arg);
      continue;
    }
    let value: string | undefined;
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) {
      value = arg.slice(eq + 1);
      arg = arg.slice(0, eq);
    }
    if (!withValue.has(arg)) throw new InputError(`unknown option ${arg}`);
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new InputError(`${arg} needs a value`);
      value = argv[++i];
    }
    if (value === '') throw new InputError(`${arg} needs a non-empty value`);
    switch (arg) {
      case '--format':
        if (value !== 'text' && value !== 'json') throw new InputError(`--format must be text or json, not '${value}'`);
        format = value;
        break;
      case '--operator-namespace': operatorNamespace = value; break;
      case '--cnpg-version': cnpgVersion = value; break;
      case '--known-plugin': knownPlugins.push(...value.split(',').map((v) => v.trim()).filter((v) => v)); break;
      default: defaultNamespace = value; break;
    }
  }
  return { paths, format, help, options: { operatorNamespace, cnpgVersion, defaultNamespace, knownPlugins } };
}

async function load(paths: readonly string[], io: CliIo, cwd: string): Promise<LoadedDocument[]> {
  const files = collectFiles(paths, cwd);
  const docs: LoadedDocument[] = [];
  let stdinRead = false;
  for (const file of files) {
    let text: string;
    if (file === '-') {
      if (stdinRead) continue;
      stdinRead = true;
      text = await io.readStdin();
    } else {
      try {
        text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
      } catch (e) {
        throw new InputError(`${file}: ${(e as NodeJS.ErrnoException).code === 'EISDIR' ? 'is a directory' : (e as Error).message}`);
      }
    }
    docs.push(...parseManifestText(text, file === '-' ? '<stdin>' : file));
  }
  return docs;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function sourceOf(docs: readonly LoadedDocument[], f: Finding): string | undefined {
  const d = f.index !== undefined ? docs[f.index] : undefined;
  return d ? `${d.file}:${d.line}` : undefined;
}

/** The human report: plugins, then findings grouped by object, then a summary line. */
export function formatText(report: DoctorReport, docs: readonly LoadedDocument[], fileCount: number): string {
  const lines: string[] = [];
  lines.push(`cnpg-i-doctor: ${plural(report.objectCount, 'object')} in ${plural(fileCount, 'file')}; operator namespace '${report.operatorNamespace}'; CloudNativePG ${report.cnpgVersion}`);
  lines.push('');
  if (report.plugins.length === 0) {
    lines.push('No plugin would be discovered.');
  } else {
    lines.push('Plugins the operator would discover:');
    for (const p of report.plugins) {
      const details: string[] = [];
      if (p.object) details.push(p.object);
      if (p.address) details.push(p.address);
      if (p.clientSecret) details.push(`client Secret ${p.clientSecret}`);
      if (p.serverSecret) details.push(`server Secret ${p.serverSecret}`);
      if (p.serverName) details.push(`verifies ${p.serverName}`);
      if (p.source === 'known') details.push('given with --known-plugin');
      lines.push(`  ${p.name}  (${details.join(', ')})`);
    }
  }
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = groups.get(f.object) ?? [];
    list.push(f);
    groups.set(f.object, list);
  }
  for (const [object, findings] of groups) {
    lines.push('');
    const src = sourceOf(docs, findings[0]);
    lines.push(src ? `${object}  (${src})` : object);
    for (const f of findings) {
      lines.push(`  ${f.severity === 'error' ? 'error  ' : 'warning'} ${f.ruleId}  ${f.message}`);
      if (f.path) lines.push(`          at ${f.path}`);
      lines.push(`          fix: ${f.fix}`);
    }
  }
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  const warnings = report.findings.length - errors;
  lines.push('');
  lines.push(errors + warnings === 0 ? 'No problems found.' : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`);
  return lines.join('\n') + '\n';
}

/** The machine report. */
export function formatJson(report: DoctorReport, docs: readonly LoadedDocument[]): string {
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  return JSON.stringify({
    operatorNamespace: report.operatorNamespace,
    cnpgVersion: report.cnpgVersion,
    objectCount: report.objectCount,
    plugins: report.plugins,
    findings: report.findings.map((f) => {
      const d = f.index !== undefined ? docs[f.index] : undefined;
      const { index: _index, ...rest } = f;
      return d ? { ...rest, source: { file: d.file, document: d.document, line: d.line } } : rest;
    }),
    summary: { errors, warnings: report.findings.length - errors },
  }, null, 2) + '\n';
}

/**
 * Runs the command line `argv` (without `node` and the script) and returns the exit code:
 * 0 no errors (warnings allowed), 1 errors found, 2 unusable input.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'plan') return runPlan(argv.slice(1), io);
  const cwd = io.cwd ?? process.cwd();
  try {
    const args = parseArgs(argv);
    if (args.help) {
      io.stdout(USAGE + '\n');
      return EXIT_OK;
    }
    if (args.paths.length === 0) {
      io.stderr(USAGE + '\n');
      return EXIT_USAGE;
    }
    const docs = await load(args.paths, io, cwd);
    const report = analyzeManifests(docs.map((d) => d.value), args.options);
    const fileCount = new Set(docs.map((d) => d.file)).size;
    io.stdout(args.format === 'json' ? formatJson(report, docs) : formatText(report, docs, fileCount));
    return report.findings.some((f) => f.severity === 'error') ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    if (e instanceof InputError || e instanceof CnpgIValidationError) {
      io.stderr(`cnpg-i-doctor: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}

/** The process entry: real stdin/stdout, and the exit code on the process. */
export function runCli(): void {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: () => new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      process.stdin.on('data', (c: Buffer) => chunks.push(c));
      process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      process.stdin.on('error', reject);
    }),
  };
  main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  }, (e: unknown) => {
    process.stderr.write(`cnpg-i-doctor: internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
    process.exitCode = 3;
  });
}

if (require.main === module) runCli();
