/*
 * `cnpg-i-doctor [files|dirs|-]`: runs the doctor over YAML files and prints a report.
 * Imports only the doctor's core (no cdk8s), so it starts fast and works on anyone's YAML.
 */
import * as fs from 'fs';
import * as path from 'path';
import { analyzeWithNames } from '../doctor/check-manifests';
import { DoctorOptions } from '../doctor/report';
import { CnpgIValidationError } from '../manifests/errors';
import { fluxKustomizationsOf, renderFlux, withKustomizeNamespace } from '../manifests/flux-kustomizations';
import { FLUX_VARIABLE_NAME, fluxValue, variablesFromText } from '../manifests/flux-substitution';
import { gitTopLevel } from '../manifests/git';
import { asObject, asString, dig } from '../manifests/json';
import {
  KUSTOMIZATION_FILE_NAMES,
  asKustomizationDocument,
  collectInputs,
  findKustomize,
  fluxGeneratorIncludes,
  renderKustomization,
  renderedName,
} from '../manifests/kustomize';
import { InputError, LoadedDocument, ReadManifests, readManifestFile, readManifestFiles } from '../manifests/load';
import { UnappliedPatch, patchMayApply } from '../manifests/unapplied-patches';
import { IGNORE_ANNOTATION } from '../rules/suppressions';
import { runCluster } from './cluster';
import { CliFlag, CliIo, parseCommandLine } from './command-line';
import { CLI_OPTION_NAMES, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, formatJson, formatJsonError, formatText } from './doctor-report';
import { runPlan } from './plan';
import { formatSarif, sarifForError } from './sarif';

export type { CliFlag, CliIo } from './command-line';
export { parseCommandLine } from './command-line';

export { CLI_OPTION_NAMES, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, formatJson, formatJsonError, formatText } from './doctor-report';

const USAGE = `usage: cnpg-i-doctor [options] <file|dir|->...
       cnpg-i-doctor plan [options] <old> <new>   (see cnpg-i-doctor plan --help)
       cnpg-i-doctor cluster [options]            (see cnpg-i-doctor cluster --help)

Checks Kubernetes manifests as the CloudNativePG operator reads CNPG-I plugins.
Directories are read recursively (*.yaml, *.yml, *.json); '-' reads stdin.

options:
  --format text|json|sarif    report format (default: text); sarif is SARIF 2.1.0 for CI code scanning
  --operator-namespace <ns>   namespace of the CNPG operator (default: from the operator
                              Deployment in the input, else cnpg-system with a warning)
  --cnpg-version <version>    target CloudNativePG version (default: 1.30.0)
  --known-plugin <name>       a plugin installed outside these manifests (repeatable)
  --sidecar-plugin <container>=<name>
                              the plugin a sidecar container of the operator serves (repeatable;
                              needed only where the Deployment's cnpg-i.dev/sidecar-plugins
                              annotation, written by SidecarPlugin, does not say it)
  --disable <id>              switch a rule off, e.g. CNPGI050 (repeatable, or comma-separated)
  --complete                  the input is everything that is installed (with --known-plugin
                              and --sidecar-plugin): what it lacks is an error, not a warning
  --fail-on-warnings          exit 1 on warnings too
  -v, --verbose               also list the CRD rules that could not be evaluated here
  -n, --namespace <ns>        namespace of objects that have none (default: the operator's)
  --cluster-resource-namespace <ns>
                              where cert-manager reads ClusterIssuer Secrets (default: the
                              cert-manager controller's flag in the input, else cert-manager)
  --var <name>=<value>        a Flux post-build variable for every object (repeatable)
  --vars-from <file>          Flux post-build variables from a ConfigMap or Secret manifest,
                              or a dotenv file of NAME=VALUE lines (repeatable; --var wins)
  -h, --help                  this help

Flux: a Kustomization (kustomize.toolkit.fluxcd.io) in the input substitutes its postBuild
variables into the objects under its spec.path, taken from the git repository's top folder
(else the first folder given). A variable nobody gives stays \${NAME} (its value may be in
the cluster). A folder with a kustomization.yaml is rendered with 'kustomize build', else
'kubectl kustomize' (CNPG_I_KUSTOMIZE names another program, 'none' renders nothing);
without either its files are read one by one, without its patches.

An object silences rules for itself with the annotation ${IGNORE_ANNOTATION}: CNPGI027,CNPGI050.

exit codes: 0 no errors (warnings allowed), 1 errors found, 2 unusable input (a file that
does not parse is listed, the files that do are still reported)`;

/** The report formats. */
export type ReportFormat = 'text' | 'json' | 'sarif';

/** The command line, parsed. */
export interface ParsedArgs {
  readonly paths: string[];
  readonly format: ReportFormat;
  readonly options: DoctorOptions;
  readonly failOnWarnings: boolean;
  readonly help: boolean;
  /** `--var` values. */
  readonly vars: ReadonlyMap<string, string>;
  /** `--vars-from` files, as given. */
  readonly varsFrom: readonly string[];
}

interface DoctorArgsState {
  format: ReportFormat;
  operatorNamespace?: string;
  cnpgVersion?: string;
  defaultNamespace?: string;
  clusterResourceNamespace?: string;
  knownPlugins: string[];
  disable: string[];
  sidecarPlugins: Record<string, string>;
  failOnWarnings: boolean;
  verbose: boolean;
  complete: boolean;
  /** `--var`, in order. */
  vars: Map<string, string>;
  /** `--vars-from`, in order. */
  varsFrom: string[];
}

const list = (value: string) =>
  value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v);

/** The doctor's flags, for subcommands that take the same ones. */
export const DOCTOR_FLAGS: readonly CliFlag<DoctorArgsState>[] = [
  {
    names: ['--format'],
    takesValue: true,
    apply: (s, v) => {
      if (v !== 'text' && v !== 'json' && v !== 'sarif') throw new InputError(`--format must be text, json or sarif, not '${v}'`);
      s.format = v;
    },
  },
  {
    names: ['--operator-namespace'],
    takesValue: true,
    apply: (s, v) => {
      s.operatorNamespace = v;
    },
  },
  {
    names: ['--cnpg-version'],
    takesValue: true,
    apply: (s, v) => {
      s.cnpgVersion = v;
    },
  },
  {
    names: ['--namespace', '-n'],
    takesValue: true,
    apply: (s, v) => {
      s.defaultNamespace = v;
    },
  },
  {
    names: ['--cluster-resource-namespace'],
    takesValue: true,
    apply: (s, v) => {
      s.clusterResourceNamespace = v;
    },
  },
  {
    names: ['--known-plugin'],
    takesValue: true,
    apply: (s, v) => {
      s.knownPlugins.push(...list(v));
    },
  },
  {
    names: ['--disable'],
    takesValue: true,
    apply: (s, v) => {
      s.disable.push(...list(v));
    },
  },
  {
    names: ['--sidecar-plugin'],
    takesValue: true,
    apply: (s, v) => {
      const eq = v.indexOf('=');
      const container = eq > 0 ? v.slice(0, eq).trim() : '';
      const name = eq > 0 ? v.slice(eq + 1).trim() : '';
      if (!container || !name)
        throw new InputError(`--sidecar-plugin '${v}' must be CONTAINER=NAME, e.g. --sidecar-plugin barman-cloud=barman-cloud.cloudnative-pg.io`);
      if (s.sidecarPlugins[container] !== undefined && s.sidecarPlugins[container] !== name) {
        throw new InputError(
          `--sidecar-plugin gives container '${container}' two plugin names ('${s.sidecarPlugins[container]}' and '${name}'); a socket has one name`,
        );
      }
      s.sidecarPlugins[container] = name;
    },
  },
  {
    names: ['--var'],
    takesValue: true,
    apply: (s, v) => {
      const eq = v.indexOf('=');
      if (eq < 0) throw new InputError(`--var '${v}' must be NAME=VALUE, e.g. --var APP=orders`);
      const name = v.slice(0, eq);
      if (!FLUX_VARIABLE_NAME.test(name)) {
        throw new InputError(
          `--var '${v}': '${name}' is not a variable name Flux accepts (letters, digits and _, not starting with a digit), e.g. --var APP=orders`,
        );
      }
      s.vars.set(name, fluxValue(v.slice(eq + 1)));
    },
  },
  {
    names: ['--vars-from'],
    takesValue: true,
    apply: (s, v) => {
      s.varsFrom.push(v);
    },
  },
  {
    names: ['--complete'],
    takesValue: false,
    apply: (s) => {
      s.complete = true;
    },
  },
  {
    names: ['--fail-on-warnings'],
    takesValue: false,
    apply: (s) => {
      s.failOnWarnings = true;
    },
  },
  {
    names: ['--verbose', '-v'],
    takesValue: false,
    apply: (s) => {
      s.verbose = true;
    },
  },
];

/** Parses the doctor's command line. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const state: DoctorArgsState = {
    format: 'text',
    knownPlugins: [],
    disable: [],
    sidecarPlugins: {},
    failOnWarnings: false,
    verbose: false,
    complete: false,
    vars: new Map(),
    varsFrom: [],
  };
  const { paths, help } = parseCommandLine(argv, DOCTOR_FLAGS, state);
  const { operatorNamespace, cnpgVersion, defaultNamespace, clusterResourceNamespace, knownPlugins, disable, sidecarPlugins, verbose, complete } = state;
  return {
    paths,
    format: state.format,
    help,
    vars: state.vars,
    varsFrom: state.varsFrom,
    failOnWarnings: state.failOnWarnings,
    options: {
      operatorNamespace,
      cnpgVersion,
      defaultNamespace,
      knownPlugins,
      disable,
      sidecarPlugins,
      ...(verbose ? { verbose } : {}),
      ...(complete ? { complete } : {}),
      ...(clusterResourceNamespace !== undefined ? { clusterResourceNamespace } : {}),
    },
  };
}

/** The format asked for, read leniently so that an error can be printed in it. */
function formatAsked(argv: readonly string[]): ReportFormat {
  let format: ReportFormat = 'text';
  argv.forEach((a, i) => {
    const v = a === '--format' ? argv[i + 1] : a.startsWith('--format=') ? a.slice('--format='.length) : undefined;
    if (v === 'json' || v === 'sarif' || v === 'text') format = v;
  });
  return format;
}

/** The documents of a kustomize Component folder of the input, read for the Flux Kustomizations that include it. */
interface ComponentDocuments {
  /** The folder, as a real path. */
  readonly dir: string;
  readonly documents: readonly LoadedDocument[];
}

/**
 * Reads the input: files, and kustomize folders rendered by the program `findKustomize` gives
 * (shown as `DIR (kustomize build)`); a kustomization file read as a file gets kustomize's
 * `apiVersion`/`kind` defaults, so that CNPGI093 names it. The resource files of kustomize
 * Component folders are read apart (`components`): they are objects only where something
 * includes them.
 */
async function load(
  paths: readonly string[],
  io: CliIo,
  cwd: string,
  root: string | undefined,
): Promise<
  ReadManifests & { locations: Map<string, string>; components: ComponentDocuments[]; patches: ReadonlyMap<LoadedDocument, readonly UnappliedPatch[]> }
> {
  const program = findKustomize();
  const inputs = collectInputs(paths, cwd, program);
  const rendered = new Map<string, { dir: string; shown: string }>();
  const locations = new Map<string, string>();
  const namespaces = new Map<string, string>();
  const patches = new Map<string, readonly UnappliedPatch[]>();
  const conditional: Array<{ readonly file: string; readonly why: 'template' | 'unlisted' }> = [];
  const files = inputs.flatMap((i) => {
    if (i.kind === 'component') return [];
    if (i.kind === 'conditional') {
      conditional.push(i);
      return [];
    }
    if (i.kind === 'file') {
      if (i.file !== '-') locations.set(i.file, realPath(path.resolve(cwd, i.file)));
      if (i.namespace !== undefined) namespaces.set(i.file, i.namespace);
      if (i.patches !== undefined) patches.set(i.file, i.patches);
      return [i.file];
    }
    const name = renderedName(i.shown, program!);
    rendered.set(name, { dir: i.dir, shown: i.shown });
    locations.set(name, realPath(i.dir));
    return [name];
  });
  const read = await readManifestFiles(files, (file) => {
    if (file === '-') return io.readStdin();
    const r = rendered.get(file);
    return r ? renderKustomization(program!, r.dir, file) : readManifestFile(file, cwd);
  });
  // the patches that may apply to a document, judged on it as written (kustomize patches before it sets the namespace)
  const patchesOf = new Map<LoadedDocument, readonly UnappliedPatch[]>();
  const documents = read.documents.map((d) => {
    if (KUSTOMIZATION_FILE_NAMES.includes(path.basename(d.file)) && !rendered.has(d.file)) return { ...d, value: asKustomizationDocument(d.value) };
    const namespace = namespaces.get(d.file);
    const out = namespace !== undefined ? { ...d, value: withKustomizeNamespace(d.value, namespace) } : d;
    const listed = patches.get(d.file);
    const o = asObject(d.value);
    if (listed && o) {
      const written = (k: string) => asString(dig(o, 'metadata', k));
      const applying = listed.filter((p) => patchMayApply(p, asString(o.kind) ?? '', written('name') ?? '', written('namespace') || undefined));
      if (applying.length > 0) patchesOf.set(out, applying);
    }
    return out;
  });
  const components: ComponentDocuments[] = [];
  for (const c of inputs) {
    if (c.kind !== 'component') continue;
    const r = await readManifestFiles(c.resources, (file) => readManifestFile(file, cwd));
    read.failures.push(...r.failures);
    components.push({ dir: c.dir, documents: r.documents });
  }
  if (conditional.length > 0) {
    // such a file is applied only where the kustomization a Flux Kustomization generates takes it
    const fluxDirs = fluxKustomizationsOf(
      documents.map((d) => ({ value: d.value, shown: d.file, ...(locations.has(d.file) ? { location: locations.get(d.file)! } : {}) })),
      root,
    ).flatMap((k) => (k.dir === undefined ? [] : [realPath(k.dir)]));
    const applied = conditional.filter((c) => fluxDirs.some((dir) => fluxGeneratorIncludes(dir, realPath(path.resolve(cwd, c.file)))));
    if (applied.length > 0) {
      const r = await readManifestFiles(
        applied.map((c) => c.file),
        (file) => readManifestFile(file, cwd),
      );
      read.failures.push(...r.failures);
      for (const c of applied) locations.set(c.file, realPath(path.resolve(cwd, c.file)));
      documents.push(...r.documents);
      read.parsed.push(...r.parsed);
    }
    for (const why of ['template', 'unlisted'] as const) {
      const left = conditional.filter((c) => c.why === why && !applied.includes(c)).map((c) => c.file);
      if (left.length === 0) continue;
      const named = left.slice(0, 3).join(', ') + (left.length > 3 ? `, and ${left.length - 3} more` : '');
      const what =
        why === 'template'
          ? `named as ${left.length === 1 ? 'a template' : 'templates'}`
          : `left out where a kustomization above lists its folder's files by name`;
      io.stderr(
        `cnpg-i-doctor: notice: ${left.length} file${left.length === 1 ? '' : 's'} not read, ${what}: ${named}; ` +
          'no kustomization builds them and no Flux Kustomization applies their folder (pass one as a file to check it)\n',
      );
    }
  }
  return { ...read, documents, locations, components, patches: patchesOf };
}

/**
 * The documents of the input with the resources of the Component folders each Flux
 * Kustomization names in `spec.components` (Flux adds them to the kustomization it builds from
 * `spec.path`: fluxcd/pkg kustomize/v1.35.4 kustomize/kustomize_generator.go `Generate`), once
 * per such Kustomization and placed in its `spec.path`, so that its `targetNamespace` and
 * `postBuild` apply to them; each with the place the Flux rendering matches against `spec.path`.
 */
function withFluxComponents(
  docs: readonly LoadedDocument[],
  locationOf: (d: LoadedDocument) => string | undefined,
  root: string | undefined,
  components: readonly ComponentDocuments[],
): Array<{ readonly doc: LoadedDocument; readonly location?: string }> {
  const out = docs.map((doc) => {
    const location = locationOf(doc);
    return location !== undefined ? { doc, location } : { doc };
  });
  if (components.length === 0) return out;
  const byDir = new Map(components.map((c) => [c.dir, c]));
  const kustomizations = fluxKustomizationsOf(
    out.map((d) => ({ value: d.doc.value, shown: d.doc.file, ...(d.location !== undefined ? { location: d.location } : {}) })),
    root,
  );
  for (const k of kustomizations) {
    for (const dir of k.components) {
      const c = byDir.get(realPath(dir));
      if (!c || k.dir === undefined) continue;
      for (const doc of c.documents) out.push({ doc: { ...doc, file: `${doc.file} (component of ${k.ref})` }, location: k.dir });
    }
  }
  return out;
}

/** The variables of the command line: each `--vars-from` file in order, then `--var` over them. */
function commandLineVars(args: ParsedArgs, cwd: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const file of args.varsFrom) {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
    } catch (e) {
      throw new InputError(
        `--vars-from ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); pass a ConfigMap or Secret manifest, or a NAME=VALUE file`,
      );
    }
    try {
      for (const [k, v] of variablesFromText(text, file)) vars.set(k, v);
    } catch (e) {
      throw new InputError(`--vars-from ${file} ${(e as Error).message}; pass a ConfigMap or Secret manifest, or a NAME=VALUE file`);
    }
  }
  for (const [k, v] of args.vars) vars.set(k, v);
  return vars;
}

/**
 * The folder Flux Kustomizations' `spec.path` is read from: the git top folder of the first
 * folder given (of the first file's folder), else that folder; undefined for stdin alone.
 */
function repositoryRoot(paths: readonly string[], cwd: string): string | undefined {
  const first = paths.find((p) => p !== '-');
  if (first === undefined) return undefined;
  const full = path.resolve(cwd, first);
  let dir = full;
  try {
    if (!fs.statSync(full).isDirectory()) dir = path.dirname(full);
  } catch {
    return undefined;
  }
  return gitTopLevel(dir) ?? realPath(dir);
}

/** A path with its symbolic links resolved, as git gives its top folder; the path itself where that fails. */
function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * Runs the command line `argv` (without `node` and the script) and returns the exit code:
 * 0 no errors (warnings allowed unless `--fail-on-warnings`), 1 errors found, 2 unusable input.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === 'plan') return runPlan(argv.slice(1), io);
  if (argv[0] === 'cluster') return runCluster(argv.slice(1), io);
  const cwd = io.cwd ?? process.cwd();
  const usageError = (message: string, e?: unknown): number => {
    const format = formatAsked(argv);
    if (format === 'json') io.stdout(formatJsonError(message, e));
    if (format === 'sarif') io.stdout(sarifForError(message, e instanceof InputError ? e.location : undefined, cwd));
    io.stderr(`cnpg-i-doctor: ${message}\n`);
    return EXIT_USAGE;
  };
  try {
    const args = parseArgs(argv);
    if (args.help) {
      io.stdout(USAGE + '\n');
      return EXIT_OK;
    }
    if (args.paths.length === 0) {
      if (formatAsked(argv) === 'text') {
        io.stderr(USAGE + '\n');
        return EXIT_USAGE;
      }
      return usageError('no input: pass files, directories or - for stdin');
    }
    const root = repositoryRoot(args.paths, cwd);
    const loaded = await load(args.paths, io, cwd, root);
    const { parsed, failures } = loaded;
    if (parsed.length === 0 && failures.length > 0) {
      // nothing to report on: the first file's error, as for any unusable input
      const code = usageError(failures[0].message, failures[0]);
      for (const f of failures.slice(1)) io.stderr(`cnpg-i-doctor: ${f.message}\n`);
      return code;
    }
    const input = withFluxComponents(loaded.documents, (d) => loaded.locations.get(d.file), root, loaded.components);
    const docs = input.map((d) => d.doc);
    const flux = renderFlux(
      input.map((d) => ({ value: d.doc.value, shown: `${d.doc.file}:${d.doc.line}`, ...(d.location !== undefined ? { location: d.location } : {}) })),
      { vars: commandLineVars(args, cwd), root },
    );
    for (const n of flux.notices) io.stderr(`cnpg-i-doctor: notice: ${n}\n`);
    const unapplied = new Map<number, readonly UnappliedPatch[]>();
    docs.forEach((d, i) => {
      const p = loaded.patches.get(d);
      if (p !== undefined) unapplied.set(i, p);
    });
    const report = analyzeWithNames(flux.values, args.options, CLI_OPTION_NAMES, undefined, unapplied);
    const fileCount = new Set(docs.map((d) => d.file)).size;
    io.stdout(
      args.format === 'json'
        ? formatJson(report, docs, failures)
        : args.format === 'sarif'
          ? formatSarif(report, docs, cwd, failures)
          : formatText(report, docs, fileCount, failures),
    );
    // the files that did not parse are named on stderr too, and make the run unusable: exit 2
    for (const f of failures) io.stderr(`cnpg-i-doctor: ${f.message}\n`);
    if (failures.length > 0) return EXIT_USAGE;
    const failing = report.findings.some((f) => f.severity === 'error' || args.failOnWarnings);
    return failing ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    if (e instanceof CnpgIValidationError) {
      // the CLI's own scope is the program name, already in front of the message
      return usageError(e.constructPath === CLI_OPTION_NAMES.scope ? e.message.slice(e.constructPath.length + 2) : e.message, e);
    }
    if (e instanceof InputError) return usageError(e.message, e);
    throw e;
  }
}

/** The process entry: real stdin/stdout, and the exit code on the process. */
export function runCli(): void {
  const io: CliIo = {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    readStdin: () =>
      new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        process.stdin.on('data', (c: Buffer) => chunks.push(c));
        process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        process.stdin.on('error', reject);
      }),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`cnpg-i-doctor: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 3;
    },
  );
}

if (require.main === module) runCli();
