/*
 * The doctor's reports as the CLI prints them (text, JSON), its exit codes and option names:
 * shared by the manifest doctor (doctor.ts) and the live one (cluster.ts), which do not import
 * each other.
 */
import type { OptionNames } from '../doctor/check-manifests';
import type { DoctorReport } from '../doctor/report';
import { InputError, LoadedDocument } from '../manifests/load';
import type { Finding } from '../rules/finding';
import { findingSections, plural, severityCounts } from '../rules/text-report';

/** Exit codes. */
export const EXIT_OK = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_USAGE = 2;

/** How the CLI names the options in its messages: by its flags. */
export const CLI_OPTION_NAMES: OptionNames = {
  scope: 'cnpg-i-doctor',
  options: 'options',
  operatorNamespace: '--operator-namespace',
  defaultNamespace: '--namespace',
  cnpgVersion: '--cnpg-version',
  knownPlugins: '--known-plugin',
  disable: '--disable',
  sidecarPlugins: '--sidecar-plugin',
  verbose: '--verbose',
  clusterResourceNamespace: '--cluster-resource-namespace',
  complete: '--complete',
};

function sourceOf(docs: readonly LoadedDocument[], f: Finding): string | undefined {
  const d = f.index !== undefined ? docs[f.index] : undefined;
  return d ? `${d.file}:${d.line}` : undefined;
}

/**
 * The human report: plugins, then findings grouped by object, then the files that could not be
 * read (`notRead`), then a summary line.
 */
export function formatText(report: DoctorReport, docs: readonly LoadedDocument[], fileCount: number, notRead: readonly InputError[] = []): string {
  const lines: string[] = [];
  lines.push(
    `cnpg-i-doctor: ${plural(report.objectCount, 'object')} in ${plural(fileCount, 'file')}; operator namespace '${report.operatorNamespace}'; CloudNativePG ${report.cnpgVersion}`,
  );
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
      if (p.source === 'sidecar') details.push('sidecar socket');
      if (p.source === 'known') details.push('given with --known-plugin');
      lines.push(`  ${p.name}  (${details.join(', ')})`);
    }
  }
  lines.push(
    ...findingSections(report.findings, (object, first) => {
      const src = sourceOf(docs, first);
      return src ? `${object}  (${src})` : object;
    }),
  );
  if (report.notEvaluated !== undefined) {
    lines.push('');
    if (report.notEvaluated.length === 0) lines.push('Every CRD rule the objects reach was evaluated.');
    else lines.push('Not evaluated here (check with kubectl apply --dry-run=server):');
    for (const n of report.notEvaluated) lines.push(`  ${n.object} at ${n.path}: ${n.reason}`);
  }
  if (notRead.length > 0) {
    lines.push('');
    lines.push(`Not read (exit code 2; the findings above are of the other ${plural(fileCount, 'file')}):`);
    for (const e of notRead) lines.push(`  ${e.message}`);
  }
  const { errors, warnings } = severityCounts(report.findings);
  const suppressed = report.suppressed.length;
  lines.push('');
  const counts = errors + warnings === 0 ? 'No problems found' : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
  const notes: string[] = [];
  if (suppressed > 0) notes.push(`${suppressed} suppressed: ${suppressedSummary(report)}`);
  if (report.withheld.length > 0) notes.push(`${plural(report.withheld.length, 'finding')} withheld: they rest on unrendered variables, CNPGI092`);
  lines.push(`${counts}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.`);
  return lines.join('\n') + '\n';
}

/** `CNPGI050 x2 by --disable, CNPGI027 by annotation`. */
function suppressedSummary(report: DoctorReport): string {
  const counts = new Map<string, number>();
  for (const f of report.suppressed) {
    const key = `${f.ruleId} by ${f.suppressedBy === 'disable' ? '--disable' : 'annotation'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => (n > 1 ? k.replace(' by ', ` x${n} by `) : k)).join(', ');
}

/** Where a file could not be read, for the JSON reports: the message, and the file, line and column when known. */
function inputErrorJson(message: string, e?: unknown) {
  const location = e instanceof InputError ? e.location : undefined;
  return { message, ...(location ? { file: location.file, line: location.line, column: location.column } : {}) };
}

/** A finding as the JSON report writes it: its place in the input is its `source`, not an index. */
function withoutIndex<F extends Finding>(f: F): Omit<F, 'index'> {
  const { index: _index, ...rest } = f;
  return rest;
}

/** The machine report; `notRead` (the files that could not be read) is written only when there are some. */
export function formatJson(report: DoctorReport, docs: readonly LoadedDocument[], notRead: readonly InputError[] = []): string {
  return (
    JSON.stringify(
      {
        operatorNamespace: report.operatorNamespace,
        cnpgVersion: report.cnpgVersion,
        objectCount: report.objectCount,
        plugins: report.plugins,
        findings: report.findings.map((f) => {
          const d = f.index !== undefined ? docs[f.index] : undefined;
          const { index: _index, ...rest } = f;
          return d ? { ...rest, source: { file: d.file, document: d.document, line: d.line, column: d.column } } : rest;
        }),
        suppressed: report.suppressed.map(withoutIndex),
        withheld: report.withheld.map(withoutIndex),
        ...(report.notEvaluated !== undefined ? { notEvaluated: report.notEvaluated } : {}),
        ...(notRead.length > 0 ? { notRead: notRead.map((e) => inputErrorJson(e.message, e)) } : {}),
        summary: { ...severityCounts(report.findings), suppressed: report.suppressed.length, withheld: report.withheld.length },
      },
      null,
      2,
    ) + '\n'
  );
}

/** The error report of `--format json`: `{"error": {...}}`. */
export function formatJsonError(message: string, e?: unknown): string {
  return JSON.stringify({ error: { ...inputErrorJson(message, e), exitCode: EXIT_USAGE } }, null, 2) + '\n';
}
