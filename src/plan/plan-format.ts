/*
 * The plan's reports: text for people, JSON for programs, SARIF 2.1.0 for code-scanning UIs.
 * Self-contained: the doctor's formats may fold these in later.
 */
import { PLAN_RULES } from './plan';
import { PlanFinding, PlanReport } from './plan-model';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  const json = JSON.stringify(value);
  return json.length > 100 ? `${json.slice(0, 97)}...` : json;
}

/** The human report: findings grouped by object, then a summary line. */
export function formatPlanText(report: PlanReport): string {
  const lines: string[] = [];
  lines.push(
    `cnpg-i-doctor plan: ${plural(report.previousCount, 'object')} before, ${plural(report.nextCount, 'object')} after; ` +
      `${report.added} added, ${report.removed} removed, ${report.changed} changed`,
  );
  const groups = new Map<string, PlanFinding[]>();
  for (const f of report.findings) groups.set(f.object, [...(groups.get(f.object) ?? []), f]);
  for (const [object, findings] of groups) {
    lines.push('');
    lines.push(object);
    for (const f of findings) {
      lines.push(`  ${f.severity === 'error' ? 'error  ' : 'warning'} ${f.ruleId}  ${f.message}`);
      if (f.path) lines.push(`          at ${f.path}: ${show(f.before)} -> ${show(f.after)}`);
      lines.push(`          fix: ${f.fix}`);
    }
  }
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  lines.push('');
  lines.push(
    report.findings.length === 0 ? 'No destructive or refused change.' : `${plural(errors, 'error')}, ${plural(report.findings.length - errors, 'warning')}.`,
  );
  return lines.join('\n') + '\n';
}

/** The machine report. */
export function formatPlanJson(report: PlanReport): string {
  const errors = report.findings.filter((f) => f.severity === 'error').length;
  return (
    JSON.stringify(
      {
        previousCount: report.previousCount,
        nextCount: report.nextCount,
        added: report.added,
        removed: report.removed,
        changed: report.changed,
        findings: report.findings.map((f) => ({ ...f, before: f.before ?? null, after: f.after ?? null })),
        summary: { errors, warnings: report.findings.length - errors },
      },
      null,
      2,
    ) + '\n'
  );
}

/**
 * A SARIF 2.1.0 log with one run, every plan rule in the driver (so viewers show `what`, `why`
 * and `fix`), and one result per finding, located by the object it is about.
 */
export function formatPlanSarif(report: PlanReport, toolVersion = '0.1.0'): string {
  const index = new Map(PLAN_RULES.map((r, i) => [r.id, i]));
  return (
    JSON.stringify(
      {
        $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
        version: '2.1.0',
        runs: [
          {
            tool: {
              driver: {
                name: 'cnpg-i-doctor plan',
                version: toolVersion,
                informationUri: 'https://github.com/cloudnative-pg/cnpg-i',
                rules: PLAN_RULES.map((r) => ({
                  id: r.id,
                  name: r.name,
                  shortDescription: { text: r.what },
                  fullDescription: { text: r.why },
                  help: { text: r.fix },
                  defaultConfiguration: { level: r.severities.error ? 'error' : 'warning' },
                  properties: { kinds: [...r.kinds] },
                })),
              },
            },
            results: report.findings.map((f) => ({
              ruleId: f.ruleId,
              ruleIndex: index.get(f.ruleId),
              level: f.severity,
              message: { text: `${f.object}: ${f.message}; fix: ${f.fix}` },
              locations: [{ logicalLocations: [{ fullyQualifiedName: f.path ? `${f.object}#${f.path}` : f.object, kind: 'object' }] }],
              properties: { object: f.object, path: f.path ?? null, before: f.before ?? null, after: f.after ?? null, fix: f.fix },
            })),
          },
        ],
      },
      null,
      2,
    ) + '\n'
  );
}
