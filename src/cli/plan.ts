/*
 * `cnpg-i-doctor plan OLD NEW`: compares two manifest sets and reports the changes that lose
 * data, are refused on update, do nothing, break the backup chain or interrupt a plugin.
 * Imports no cdk8s, like the doctor's CLI.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CnpgIValidationError } from '../manifests/errors';
import { InputError, collectFiles, parseManifestText } from '../manifests/load';
import { planChanges } from '../plan/plan';
import { formatPlanJson, formatPlanSarif, formatPlanText } from '../plan/plan-format';
import { CliFlag, CliIo, parseCommandLine } from './command-line';

// The doctor's exit codes (src/cli/doctor.ts), repeated to keep the two modules free of a cycle.
const EXIT_OK = 0;
const EXIT_FINDINGS = 1;
const EXIT_USAGE = 2;

const USAGE = `usage: cnpg-i-doctor plan [options] <old> <new>

Compares two manifest sets (a file, a directory read recursively, or '-' for stdin, each),
typically the committed dist/ against a new synth, or 'kubectl get -o yaml' against the
repository, and reports the changes that destroy data, that CloudNativePG refuses on update,
that silently do nothing, that break the backup chain, or that interrupt a plugin.

options:
  --format text|json|sarif    report format (default: text)
  -n, --namespace <ns>        namespace of objects that have none (default: default)
  -h, --help                  this help

exit codes: 0 no errors (warnings allowed), 1 errors found, 2 unusable input`;

type Format = 'text' | 'json' | 'sarif';

interface PlanArgs {
  readonly paths: string[];
  readonly format: Format;
  readonly namespace?: string;
  readonly help: boolean;
}

interface PlanArgsState {
  format: Format;
  namespace?: string;
}

/** The plan's options, parsed by the doctor's own command-line parser. */
const PLAN_FLAGS: readonly CliFlag<PlanArgsState>[] = [
  {
    names: ['--format'],
    takesValue: true,
    apply: (s, v) => {
      if (v !== 'text' && v !== 'json' && v !== 'sarif') throw new InputError(`--format must be text, json or sarif, not '${v}'`);
      s.format = v;
    },
  },
  {
    names: ['--namespace', '-n'],
    takesValue: true,
    apply: (s, v) => {
      s.namespace = v;
    },
  },
];

function parseArgs(argv: readonly string[]): PlanArgs {
  const state: PlanArgsState = { format: 'text' };
  const { paths, help } = parseCommandLine(argv, PLAN_FLAGS, state);
  return { paths, format: state.format, namespace: state.namespace, help };
}

async function loadSet(p: string, io: CliIo, cwd: string): Promise<unknown[]> {
  if (p === '-') return parseManifestText(await io.readStdin(), '<stdin>').map((d) => d.value);
  const out: unknown[] = [];
  for (const file of collectFiles([p], cwd)) {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
    } catch (e) {
      throw new InputError(`${file}: ${(e as Error).message}`, { reason: 'unreadable' });
    }
    out.push(...parseManifestText(text, file).map((d) => d.value));
  }
  return out;
}

/**
 * Runs `cnpg-i-doctor plan` with `argv` (the arguments after `plan`) and returns the exit code:
 * 0 no errors (warnings allowed), 1 errors found, 2 unusable input.
 */
export async function runPlan(argv: readonly string[], io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  try {
    const args = parseArgs(argv);
    if (args.help) {
      io.stdout(USAGE + '\n');
      return EXIT_OK;
    }
    if (args.paths.length !== 2) {
      io.stderr(`cnpg-i-doctor plan: expected two manifest sets (old and new), got ${args.paths.length}\n${USAGE}\n`);
      return EXIT_USAGE;
    }
    if (args.paths[0] === '-' && args.paths[1] === '-') {
      throw new InputError("only one of the two sets can be read from stdin ('-')");
    }
    const previous = await loadSet(args.paths[0], io, cwd);
    const next = await loadSet(args.paths[1], io, cwd);
    const report = planChanges(previous, next, { defaultNamespace: args.namespace });
    const out = args.format === 'json' ? formatPlanJson(report) : args.format === 'sarif' ? formatPlanSarif(report) : formatPlanText(report);
    io.stdout(out);
    return report.findings.some((f) => f.severity === 'error') ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    if (e instanceof InputError || e instanceof CnpgIValidationError) {
      io.stderr(`cnpg-i-doctor plan: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}
