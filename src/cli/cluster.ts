/*
 * `cnpg-i-doctor cluster`: the doctor on a running cluster. Reads the live objects (one LIST per
 * kind, read-only), drops what the API server sets, and runs every doctor rule on them plus the
 * live-state rules (CNPGI4xx). The Kubernetes client is loaded only when this command runs.
 */
import * as YAML from 'yaml';
import { analyzeWithNames } from '../doctor/check-manifests';
import { KubeAccess, KubeAccessOptions, LiveAccessError, resolveKubeAccess } from '../live/kube-access';
import { LiveRead, readLiveCluster } from '../live/read-cluster';
import { CnpgIValidationError } from '../manifests/errors';
import { doctorClusterRole } from '../manifests/live-kinds';
import { InputError } from '../manifests/load';
import { CliFlag, CliIo, parseCommandLine } from './command-line';
import { CLI_OPTION_NAMES, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, formatJson, formatText } from './doctor-report';
import { formatSarif } from './sarif';

const USAGE = `usage: cnpg-i-doctor cluster [options]

Reads a running cluster (read-only: LIST calls only, one per kind and namespace) and checks it
as the CloudNativePG operator and its plugins see it: every rule of the manifest doctor, plus
the live state (pods without the sidecar their plugins inject, old sidecar images, plugin
Services without a ready endpoint, Certificates not Ready, plugin certificates expired or
without the verified name, failing WAL archiving, failed Backups with a known cause).

Secrets: only the values of tls.crt, ca.crt and tls.key are kept, to check the plugin
certificates; every other value is dropped as it is read. Nothing of a Secret is printed.

options:
  --kubeconfig <file>         kubeconfig (default: $KUBECONFIG, else ~/.kube/config, else in-cluster)
  --context <name>            kubeconfig context (default: its current context)
  -n, --namespace <ns>        read only this namespace (repeatable; the operator's is read too);
                              default: every namespace
  --format text|json|sarif    report format (default: text)
  --operator-namespace <ns>   namespace of the CNPG operator (default: from its Deployment)
  --cnpg-version <version>    the operator's version (default: 1.30.0)
  --disable <id>              switch a rule off (repeatable, or comma-separated)
  --fail-on-warnings          exit 1 on warnings too
  --print-cluster-role        print the ClusterRole this command needs (YAML) and exit
  -h, --help                  this help

exit codes: 0 no errors (warnings allowed), 1 errors found, 2 the cluster could not be read`;

type Format = 'text' | 'json' | 'sarif';

interface ClusterArgsState {
  format: Format;
  kubeconfig?: string;
  context?: string;
  namespaces: string[];
  printClusterRole: boolean;
  operatorNamespace?: string;
  cnpgVersion?: string;
  disable: string[];
  failOnWarnings: boolean;
}

const CLUSTER_FLAGS: readonly CliFlag<ClusterArgsState>[] = [
  {
    names: ['--format'],
    takesValue: true,
    apply: (s, v) => {
      if (v !== 'text' && v !== 'json' && v !== 'sarif') throw new InputError(`--format must be text, json or sarif, not '${v}'`);
      s.format = v;
    },
  },
  { names: ['--kubeconfig'], takesValue: true, apply: (s, v) => void (s.kubeconfig = v) },
  { names: ['--context'], takesValue: true, apply: (s, v) => void (s.context = v) },
  { names: ['--namespace', '-n'], takesValue: true, apply: (s, v) => void (s.namespaces.includes(v) || s.namespaces.push(v)) },
  { names: ['--print-cluster-role'], takesValue: false, apply: (s) => void (s.printClusterRole = true) },
  { names: ['--operator-namespace'], takesValue: true, apply: (s, v) => void (s.operatorNamespace = v) },
  { names: ['--cnpg-version'], takesValue: true, apply: (s, v) => void (s.cnpgVersion = v) },
  {
    names: ['--disable'],
    takesValue: true,
    apply: (s, v) =>
      void s.disable.push(
        ...v
          .split(',')
          .map((x) => x.trim())
          .filter((x) => x),
      ),
  },
  { names: ['--fail-on-warnings'], takesValue: false, apply: (s) => void (s.failOnWarnings = true) },
];

/** What the command needs from outside, replaceable in tests. */
export interface ClusterDeps {
  /** Resolves the kubeconfig. @default resolveKubeAccess (the Kubernetes client) */
  readonly resolve?: (options: KubeAccessOptions) => KubeAccess;
  /** The time certificates are judged at. @default - now */
  readonly now?: () => Date;
}

/** The text report: where it read, the doctor's report, then what could not be read. */
function clusterText(access: KubeAccess, read: LiveRead, body: string): string {
  const lines = body.split('\n');
  lines[0] = `cnpg-i-doctor cluster: ${read.objects.length} objects read from ${access.server} (context '${access.context}') in ${read.requests} list requests; ${lines[0].replace(/^.*?; /, '')}`;
  if (read.gaps.length > 0) {
    const end = lines.length - 1; // the trailing empty line
    lines.splice(end - 1, 0, 'Not read (the results above are partial for these kinds):', ...read.gaps.map((g) => `  ${g.message}`), '');
  }
  return lines.join('\n');
}

/** Two reads as one. */
function mergeReads(a: LiveRead, b: LiveRead): LiveRead {
  const requestsByKind = new Map(a.requestsByKind);
  for (const [k, n] of b.requestsByKind) requestsByKind.set(k, (requestsByKind.get(k) ?? 0) + n);
  return { objects: [...a.objects, ...b.objects], gaps: [...a.gaps, ...b.gaps], requests: a.requests + b.requests, requestsByKind };
}

/** Runs `cnpg-i-doctor cluster` (`argv` without the subcommand) and returns the exit code. */
export async function runCluster(argv: readonly string[], io: CliIo, deps: ClusterDeps = {}): Promise<number> {
  const state: ClusterArgsState = {
    format: 'text',
    namespaces: [],
    printClusterRole: false,
    disable: [],
    failOnWarnings: false,
  };
  const fail = (message: string): number => {
    if (state.format === 'json') io.stdout(JSON.stringify({ error: { message, exitCode: EXIT_USAGE } }, null, 2) + '\n');
    io.stderr(`cnpg-i-doctor cluster: ${message}\n`);
    return EXIT_USAGE;
  };
  try {
    const { paths, help } = parseCommandLine(argv, CLUSTER_FLAGS, state);
    if (help) {
      io.stdout(USAGE + '\n');
      return EXIT_OK;
    }
    if (paths.length > 0) return fail(`takes no files (got '${paths[0]}'); it reads the cluster of the kubeconfig context`);
    if (state.printClusterRole) {
      io.stdout(YAML.stringify(doctorClusterRole()));
      return EXIT_OK;
    }
    const access = (deps.resolve ?? resolveKubeAccess)({ kubeconfig: state.kubeconfig, context: state.context });
    let read = await readLiveCluster(access, { namespaces: state.namespaces });
    const now = (deps.now ?? (() => new Date()))();
    const analyze = (r: LiveRead) =>
      analyzeWithNames(r.objects, { operatorNamespace: state.operatorNamespace, cnpgVersion: state.cnpgVersion, disable: state.disable }, CLI_OPTION_NAMES, {
        now,
        unread: new Set(r.gaps.map((g) => g.kind)),
      });
    let report = analyze(read);
    // The operator reads plugin Services and their Secrets in its own namespace only: with
    // --namespace, that namespace is read too, or every plugin would look missing.
    if (state.namespaces.length > 0 && !state.namespaces.includes(report.operatorNamespace)) {
      const extra = await readLiveCluster(access, { namespaces: [report.operatorNamespace], namespacedOnly: true });
      read = mergeReads(read, extra);
      io.stderr(`cnpg-i-doctor cluster: notice: also read the operator namespace '${report.operatorNamespace}', where the operator finds plugins\n`);
      report = analyze(read);
    }
    if (state.format === 'json') {
      const json = JSON.parse(formatJson(report, [])) as Record<string, unknown>;
      const live = { server: access.server, context: access.context, requests: read.requests, notRead: read.gaps };
      io.stdout(JSON.stringify({ live, ...json }, null, 2) + '\n');
    } else if (state.format === 'sarif') {
      io.stdout(formatSarif(report, [], io.cwd ?? process.cwd()));
    } else {
      io.stdout(clusterText(access, read, formatText(report, [], 0)));
    }
    for (const g of read.gaps) io.stderr(`cnpg-i-doctor cluster: partial: ${g.message}\n`);
    const failing = report.findings.some((f) => f.severity === 'error' || state.failOnWarnings);
    return failing ? EXIT_FINDINGS : EXIT_OK;
  } catch (e) {
    if (e instanceof LiveAccessError || e instanceof InputError) return fail(e.message);
    if (e instanceof CnpgIValidationError) return fail(e.constructPath === CLI_OPTION_NAMES.scope ? e.message.slice(e.constructPath.length + 2) : e.message);
    throw e;
  }
}
