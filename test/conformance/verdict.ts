/*
 * How a runner of the conformance table compares what the library found with the verdict of an
 * upstream test (README.md, "How a runner uses it", step 3).
 */
import type { CheckIssue } from '../../src/checks/issue';
import { Verdict } from './case';

const pathOf = (i: CheckIssue) => i.webhookPath ?? i.path;

/** Why the issues disagree with the verdict, or undefined when they agree. */
export function disagreement(verdict: Verdict, issues: readonly CheckIssue[]): string | undefined {
  const errors = issues.filter((i) => i.severity === 'error');
  const warnings = issues.filter((i) => i.severity === 'warning');
  const listed = errors.map((e) => `${pathOf(e)}: ${e.message}`).join(' | ') || 'none';
  if (verdict.errors === 'some' ? errors.length === 0 : errors.length !== verdict.errors)
    return `expected ${verdict.errors} errors, got ${errors.length} (${listed})`;
  for (const p of verdict.paths ?? []) if (!errors.some((e) => pathOf(e) === p)) return `no error at ${p} (${listed})`;
  for (const d of verdict.details ?? []) {
    const candidates = d.index !== undefined ? errors.slice(d.index, d.index + 1) : errors;
    const fits = candidates.some(
      (e) =>
        (d.path === undefined || pathOf(e) === d.path) &&
        (d.pathPrefix === undefined || pathOf(e).startsWith(d.pathPrefix)) &&
        (d.pathContains === undefined || pathOf(e).includes(d.pathContains)) &&
        (d.messageContains ?? []).every((s) => e.message.includes(s)) &&
        (d.message === undefined || e.message.includes(d.message)),
    );
    if (!fits) return `no error fits ${JSON.stringify(d)} (${listed})`;
  }
  if (verdict.warnings !== undefined && (verdict.warnings === 'some' ? warnings.length === 0 : warnings.length !== verdict.warnings)) {
    return `expected ${verdict.warnings} warnings, got ${warnings.length} (${warnings.map((w) => w.message).join(' | ') || 'none'})`;
  }
  for (const w of verdict.warningDetails ?? []) {
    const warning = warnings[w.index];
    if (!warning || !w.contains.every((s) => warning.message.includes(s))) return `warning ${w.index} does not contain ${JSON.stringify(w.contains)}`;
  }
  return undefined;
}
