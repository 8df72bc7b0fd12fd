/*
 * `cnpg-i-doctor plan OLD NEW`: compares two manifest sets and reports the changes that lose
 * data, are refused on update, do nothing, break the backup chain or interrupt a plugin.
 * Imports no cdk8s, like the doctor's CLI.
 */
import { CnpgIValidationError } from '../manifests/errors';
import { readGitManifests } from '../manifests/git';
import { InputError, LoadedDocument, collectFiles, parseManifestText, readManifestFile } from '../manifests/load';
import { PlanAcknowledgement, readAcknowledgements } from '../plan/acknowledgements';
import { PLAN_RULES, planChanges } from '../plan/plan';
import { formatPlanJson, formatPlanText, planSarif, planSarifError } from '../plan/plan-format';
import { PlanIndex } from '../plan/plan-model';
import type { Finding } from '../rules/finding';
import { SarifFileLocation, artifactUri } from '../rules/sarif';
import { CliFlag, CliIo, parseCommandLine } from './command-line';

// The doctor's exit codes (src/cli/doctor.ts), repeated to keep the two modules free of a cycle.
const EXIT_OK = 0;
const EXIT_FINDINGS = 1;
const EXIT_USAGE = 2;

const USAGE = `usage: cnpg-i-doctor plan [options] <old> <new>
       cnpg-i-doctor plan [options] --base <git ref> <path> [<new>]

Compares two manifest sets (a file, a directory read recursively, or '-' for stdin, each),
typically the committed dist/ against a new synth, or 'kubectl get -o yaml' against the
repository, and reports the changes that destroy data, that CloudNativePG refuses on update,
that silently do nothing, that break the backup chain, or that interrupt a plugin.

With --base, the old set is <path> as the git revision holds it (a pull request's base branch,
e.g. origin/main) and the new set is <path> as it is on disk (or <new>); it says on standard
error what it compared, and when the revision has no manifests under <path> (a first output).

options:
  --base <git ref>            read the old set from this git revision of the working directory's repository
  --acknowledge <file>        a YAML list of deliberate changes, each { rule, object, reason }
                              (e.g. rule: CNPGI201, object: Cluster/payments/ledger): the finding
                              is reported as acknowledged and fails nothing; an entry that matches
                              no finding is a warning (stale); repeatable
  --format text|json|sarif    report format (default: text); SARIF results point at the file and
                              line of the object in the new set (else in the old one)
  -n, --namespace <ns>        namespace of objects that have none (default: default)
  -h, --help                  this help

exit codes: 0 no errors (warnings allowed), 1 errors found, 2 unusable input`;

type Format = 'text' | 'json' | 'sarif';

interface PlanArgs {
  readonly paths: string[];
  readonly acknowledge: string[];
  readonly format: Format;
  readonly namespace?: string;
  readonly base?: string;
  readonly help: boolean;
}

interface PlanArgsState {
  format: Format;
  acknowledge: string[];
  namespace?: string;
  base?: string;
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
    names: ['--acknowledge'],
    takesValue: true,
    apply: (s, v) => {
      s.acknowledge.push(v);
    },
  },
  {
    names: ['--base'],
    takesValue: true,
    apply: (s, v) => {
      if (v.startsWith('-')) throw new InputError(`--base must name a git revision, not '${v}'`);
      s.base = v;
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
  const state: PlanArgsState = { format: 'text', acknowledge: [] };
  const { paths, help } = parseCommandLine(argv, PLAN_FLAGS, state);
  return { paths, acknowledge: state.acknowledge, format: state.format, namespace: state.namespace, base: state.base, help };
}

/**
 * The acknowledgements of the `--acknowledge` files: each a YAML list of `{ rule, object,
 * reason }`, checked as `addPlanValidation`'s `acknowledge` is (an empty file is an empty list).
 */
function readAcknowledgementFiles(files: readonly string[], cwd: string): PlanAcknowledgement[] {
  const ids = new Set(PLAN_RULES.map((r) => r.id));
  const out: PlanAcknowledgement[] = [];
  for (const file of files) {
    const docs = parseManifestText(readManifestFile(file, cwd), file).filter((d) => d.value !== null && d.value !== undefined);
    if (docs.length === 0) continue;
    if (docs.length > 1 || !Array.isArray(docs[0].value)) {
      throw new InputError(
        `--acknowledge ${file}: must be one YAML list of { rule, object, reason } entries, e.g. [{ rule: CNPGI201, object: Cluster/payments/ledger, reason: moved to ledger-v2 }]`,
      );
    }
    out.push(...readAcknowledgements('--acknowledge', file, docs[0].value, ids));
  }
  return out;
}

/** One manifest set: its documents, where each file is in the working tree (for SARIF), and how many files. */
interface LoadedSet {
  readonly docs: LoadedDocument[];
  /** The working-tree path of each file as the documents name it (a git file `origin/main:dist/a.yaml` is `dist/a.yaml`). */
  readonly treePath: ReadonlyMap<string, string>;
  readonly files: number;
}

async function loadSet(p: string, io: CliIo, cwd: string): Promise<LoadedSet> {
  if (p === '-') return { docs: parseManifestText(await io.readStdin(), '<stdin>'), treePath: new Map(), files: 1 };
  const docs: LoadedDocument[] = [];
  const treePath = new Map<string, string>();
  const files = collectFiles([p], cwd);
  for (const file of files) {
    docs.push(...parseManifestText(readManifestFile(file, cwd), file));
    treePath.set(file, file);
  }
  return { docs, treePath, files: files.length };
}

function loadRevision(ref: string, p: string, cwd: string): LoadedSet {
  const read = readGitManifests(ref, p, cwd);
  const docs: LoadedDocument[] = [];
  const treePath = new Map<string, string>();
  for (const f of read.files) {
    docs.push(...parseManifestText(f.text, f.shown));
    treePath.set(f.shown, f.file);
  }
  return { docs, treePath, files: read.files.length };
}

function files(n: number): string {
  return `${n} file${n === 1 ? '' : 's'}`;
}

/**
 * Where each object of a set is written, by the reference findings use (`Kind/namespace/name`):
 * the plan's own index of the set, so that namespaces default and `kind: List` items resolve as
 * the plan reads them.
 */
function objectPlaces(set: LoadedSet, namespace: string | undefined, cwd: string): Map<string, SarifFileLocation> {
  const docOf = new Map<unknown, LoadedDocument>();
  for (const d of set.docs) {
    docOf.set(d.value, d);
    const items = (d.value as { items?: unknown } | null)?.items;
    if (Array.isArray(items)) for (const item of items) docOf.set(item, d);
  }
  const out = new Map<string, SarifFileLocation>();
  const index = new PlanIndex(
    set.docs.map((d) => d.value),
    namespace || 'default',
  );
  for (const o of index.byKey.values()) {
    const d = docOf.get(o.body);
    const file = d && set.treePath.get(d.file);
    if (d && file !== undefined) out.set(o.ref, { uri: artifactUri(file, cwd), line: d.line, column: d.column });
  }
  return out;
}

/**
 * Runs `cnpg-i-doctor plan` with `argv` (the arguments after `plan`) and returns the exit code:
 * 0 no errors (warnings allowed), 1 errors found, 2 unusable input.
 */
export async function runPlan(argv: readonly string[], io: CliIo): Promise<number> {
  const cwd = io.cwd ?? process.cwd();
  let format: Format | undefined;
  try {
    const args = parseArgs(argv);
    format = args.format;
    if (args.help) {
      io.stdout(USAGE + '\n');
      return EXIT_OK;
    }
    let previous: LoadedSet;
    let next: LoadedSet;
    if (args.base !== undefined) {
      if (args.paths.length !== 1 && args.paths.length !== 2) {
        io.stderr(`cnpg-i-doctor plan: --base ${args.base} takes the path to compare (and optionally the new set), got ${args.paths.length} paths\n${USAGE}\n`);
        return EXIT_USAGE;
      }
      const [at, now = args.paths[0]] = args.paths;
      if (at === '-') throw new InputError("--base reads the old set from git: give the path in the repository, not '-'");
      previous = loadRevision(args.base, at, cwd);
      next = await loadSet(now, io, cwd);
      io.stderr(
        previous.files === 0
          ? `cnpg-i-doctor plan: ${args.base} has no manifests under ${at}: compared ${now} with nothing (a first output), so every object is new\n`
          : `cnpg-i-doctor plan: compared ${args.base}:${at} (${files(previous.files)}) with ${now === '-' ? '<stdin>' : now} (${files(next.files)})\n`,
      );
    } else {
      if (args.paths.length !== 2) {
        io.stderr(`cnpg-i-doctor plan: expected two manifest sets (old and new), got ${args.paths.length}\n${USAGE}\n`);
        return EXIT_USAGE;
      }
      if (args.paths[0] === '-' && args.paths[1] === '-') {
        throw new InputError("only one of the two sets can be read from stdin ('-')");
      }
      previous = await loadSet(args.paths[0], io, cwd);
      next = await loadSet(args.paths[1], io, cwd);
    }
    const acknowledge = readAcknowledgementFiles(args.acknowledge, cwd);
    const report = planChanges(
      previous.docs.map((d) => d.value),
      next.docs.map((d) => d.value),
      { defaultNamespace: args.namespace, acknowledge },
    );
    let out: string;
    if (args.format === 'sarif') {
      // a finding is shown where its object is written now, else where it was (a removed object)
      const nextPlaces = objectPlaces(next, args.namespace, cwd);
      const previousPlaces = objectPlaces(previous, args.namespace, cwd);
      out = planSarif(report, (f: Finding) => nextPlaces.get(f.object) ?? previousPlaces.get(f.object));
    } else {
      out = args.format === 'json' ? formatPlanJson(report) : formatPlanText(report);
    }
    io.stdout(out);
    return report.findings.some((f) => f.severity === 'error') ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    if (e instanceof InputError || e instanceof CnpgIValidationError) {
      io.stderr(`cnpg-i-doctor plan: ${e.message}\n`);
      // a pipeline that uploads the log gets a valid one, saying why the run failed
      if (format === 'sarif') io.stdout(planSarifError(e.message));
      return EXIT_USAGE;
    }
    throw e;
  }
}
