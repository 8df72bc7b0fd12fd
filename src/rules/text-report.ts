/*
 * The pieces the tools' text reports (the doctor's, the plan's) share: findings grouped by
 * object, each finding printed the same way, and the counts.
 */
import type { Finding } from './finding';

/** `1 error`, `2 errors`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** How many findings are errors and how many warnings. */
export function severityCounts(findings: readonly Finding[]): { readonly errors: number; readonly warnings: number } {
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { errors, warnings: findings.length - errors };
}

/** A value before or after a change, shortened to one readable piece. */
function show(value: unknown): string {
  if (value === null || value === undefined) return '(none)';
  if (typeof value === 'string') return value;
  const json = JSON.stringify(value);
  return json.length > 100 ? `${json.slice(0, 97)}...` : json;
}

/**
 * The findings grouped by object (objects in the order of their first finding): for each, an
 * empty line, the heading, then each finding as severity, rule id and message; the field path,
 * with the value before and after when the finding is about a change (the plan's); the fix.
 *
 * @param heading the object's heading line; the object itself unless given
 */
export function findingSections<F extends Finding>(findings: readonly F[], heading: (object: string, first: F) => string = (object) => object): string[] {
  const groups = new Map<string, F[]>();
  for (const f of findings) {
    const list = groups.get(f.object);
    if (list) list.push(f);
    else groups.set(f.object, [f]);
  }
  const lines: string[] = [];
  for (const [object, group] of groups) {
    lines.push('', heading(object, group[0]));
    for (const f of group) {
      lines.push(`  ${f.severity === 'error' ? 'error  ' : 'warning'} ${f.ruleId}  ${f.message}`);
      if (f.path) lines.push(`          at ${f.path}${'before' in f || 'after' in f ? `: ${show(f.before)} -> ${show(f.after)}` : ''}`);
      lines.push(`          fix: ${f.fix}`);
    }
  }
  return lines;
}
