/*
 * The plan's reports: text for people, JSON for programs, SARIF 2.1.0 for code-scanning UIs.
 * The finding lines and the SARIF log are the rule engine's (src/rules), shared with the doctor.
 */
import type { Finding, SuppressedFinding } from '../rules/finding';
import { SarifFileLocation, SarifTool, sarifErrorLog, sarifLog } from '../rules/sarif';
import { findingSections, plural, severityCounts } from '../rules/text-report';
import { staleAcknowledgementLine } from './acknowledgements';
import { PLAN_RULES } from './plan';
import { PlanReport } from './plan-model';

/**
 * The acknowledged findings (each with the reason, under the heading `acknowledged`) and the
 * stale acknowledgements, as lines of the text report.
 */
function acknowledgementLines(report: PlanReport): string[] {
  const lines: string[] = [];
  if (report.acknowledged.length > 0) {
    lines.push('', 'Acknowledged (deliberate, not failing):');
    for (const f of report.acknowledged) {
      lines.push(`  acknowledged ${f.ruleId}  ${f.object}${f.path ? ` (${f.path})` : ''}: ${f.message}`, `          reason: ${f.reason}`);
    }
  }
  for (const a of report.staleAcknowledgements) lines.push('', `warning ${staleAcknowledgementLine(a)}`);
  return lines;
}

/** The human report: findings grouped by object, the acknowledged findings, then a summary line. */
export function formatPlanText(report: PlanReport): string {
  const { errors, warnings } = severityCounts(report.findings);
  const stale = report.staleAcknowledgements.length;
  const acknowledged = report.acknowledged.length;
  const extra = [...(acknowledged > 0 ? [`${acknowledged} acknowledged`] : []), ...(stale > 0 ? [plural(stale, 'stale acknowledgement')] : [])];
  return (
    [
      `cnpg-i-doctor plan: ${plural(report.previousCount, 'object')} before, ${plural(report.nextCount, 'object')} after; ` +
        `${report.added} added, ${report.removed} removed, ${report.changed} changed`,
      ...findingSections(report.findings),
      ...acknowledgementLines(report),
      '',
      report.findings.length === 0 && extra.length === 0
        ? 'No destructive or refused change.'
        : `${[plural(errors, 'error'), plural(warnings, 'warning'), ...extra].join(', ')}.`,
    ].join('\n') + '\n'
  );
}

function findingJson(f: Finding) {
  return {
    ruleId: f.ruleId,
    ruleName: f.ruleName,
    severity: f.severity,
    object: f.object,
    ...(f.path !== undefined ? { path: f.path } : {}),
    before: f.before ?? null,
    after: f.after ?? null,
    message: f.message,
    fix: f.fix,
  };
}

/** The machine report. */
export function formatPlanJson(report: PlanReport): string {
  return (
    JSON.stringify(
      {
        previousCount: report.previousCount,
        nextCount: report.nextCount,
        added: report.added,
        removed: report.removed,
        changed: report.changed,
        findings: report.findings.map(findingJson),
        acknowledged: report.acknowledged.map((f) => ({ ...findingJson(f), reason: f.reason })),
        staleAcknowledgements: report.staleAcknowledgements.map((a) => ({ rule: a.rule, object: a.object, reason: a.reason })),
        summary: severityCounts(report.findings),
      },
      null,
      2,
    ) + '\n'
  );
}

/**
 * A SARIF 2.1.0 log with one run, every plan rule in the driver (so viewers show `what`, `why`
 * and `fix`), and one result per finding, located by the object and the field it is about, with
 * the value before and after as its properties.
 *
 * @param toolVersion the driver's version
 * @default - the version of this package
 */
export function formatPlanSarif(report: PlanReport, toolVersion?: string): string {
  return planSarif(report, () => undefined, toolVersion);
}

function planTool(toolVersion?: string): SarifTool {
  return { name: 'cnpg-i-doctor plan', rules: PLAN_RULES, ...(toolVersion !== undefined ? { version: toolVersion } : {}) };
}

/** The SARIF log of a plan that could not read its input: no results, one error notification, exit code 2. @internal */
export function planSarifError(message: string): string {
  return sarifErrorLog(planTool(), message);
}

/**
 * `formatPlanSarif`, with each result also at the file and line `locate` gives for its finding
 * (the CLI's: where the object is written), which code-scanning annotations need.
 * @internal
 */
export function planSarif(report: PlanReport, locate: (finding: Finding) => SarifFileLocation | undefined, toolVersion?: string): string {
  return sarifLog(
    planTool(toolVersion),
    [...report.findings, ...report.acknowledged.map((f): SuppressedFinding => ({ ...f, suppressedBy: 'acknowledgement' }))].map((finding) => {
      const location = locate(finding);
      return location ? { finding, location } : { finding };
    }),
    { previousCount: report.previousCount, nextCount: report.nextCount, added: report.added, removed: report.removed, changed: report.changed },
  );
}
