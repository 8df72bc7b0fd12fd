/*
 * Acknowledgements: a destructive change made on purpose, written where review sees it. Each
 * one names a plan rule, one object and why; the finding of that rule on that object is then
 * reported as acknowledged and fails nothing. An acknowledgement that matched no finding is
 * stale and reported as a warning, so that one left behind after the change is noticed.
 */
import { ErrorScope, invalid, typeName } from '../manifests/errors';
import { CLUSTER_SCOPED_KINDS } from '../manifests/kinds';
import { refuseUnknownKeys } from '../manifests/option-keys';
import type { Finding } from '../rules/finding';
import { nearestRuleId } from '../rules/suppressions';

/**
 * A plan finding accepted on purpose: the rule, the one object it is about, and why. Given to
 * `addPlanValidation(app, { acknowledge: [...] })`, `planChanges` or `cnpg-i-doctor plan
 * --acknowledge FILE` (a YAML list of the same entries).
 */
export interface PlanAcknowledgement {
  /** The plan rule's id, e.g. `CNPGI201`. */
  readonly rule: string;
  /**
   * The object, as findings name it: `Kind/namespace/name` (`Cluster/payments/ledger`), or
   * `Kind/name` for a cluster-scoped kind. One object: a wildcard is refused.
   */
  readonly object: string;
  /** Why the change is made on purpose, shown beside the finding (in review, in CI logs). */
  readonly reason: string;
}

/** A finding that an acknowledgement accepted: it is reported, and fails nothing. */
export interface AcknowledgedFinding extends Finding {
  /** The reason of the acknowledgement that accepted it. */
  readonly reason: string;
}

const ENTRY_KEYS = ['object', 'reason', 'rule'];
const EXAMPLE = "{ rule: 'CNPGI201', object: 'Cluster/payments/ledger', reason: 'ledger moved to the new cluster' }";
const KIND = /^[A-Za-z][A-Za-z0-9]*$/;

/** What an object reference of an acknowledgement is missing, if it is not one object. */
function objectProblem(object: string): { problem: string; fix: string } | undefined {
  if (/[*?[\]{}]/.test(object)) {
    return {
      problem: 'is a wildcard: an acknowledgement accepts the change of one object',
      fix: `name the object, e.g. 'Cluster/payments/ledger', with one entry per object`,
    };
  }
  const parts = object.split('/');
  const [kind] = parts;
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => p.trim() === '' || p !== p.trim()) || !KIND.test(kind)) {
    return { problem: 'is not an object reference', fix: `write Kind/namespace/name as the finding names it, e.g. 'Cluster/payments/ledger'` };
  }
  if (CLUSTER_SCOPED_KINDS.has(kind) && parts.length === 3) {
    return { problem: `names a namespace, but ${kind} is cluster-scoped`, fix: `write '${kind}/${parts[2]}'` };
  }
  if (!CLUSTER_SCOPED_KINDS.has(kind) && parts.length === 2) {
    return { problem: 'lacks the namespace', fix: `write '${kind}/<namespace>/${parts[1]}', as the finding names it` };
  }
  return undefined;
}

/**
 * Reads and checks the acknowledgements of an options object (`prop` is how the user wrote it,
 * `options.acknowledge` or a file): each entry an object with exactly `rule`, `object` and
 * `reason`; `rule` a rule of the plan (`ruleIds`); `object` one object; `reason` not empty; no
 * entry twice.
 * @internal
 */
export function readAcknowledgements(scope: ErrorScope, prop: string, value: unknown, ruleIds: ReadonlySet<string>): PlanAcknowledgement[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) invalid(scope, prop, value, `must be a list of acknowledgements, not ${typeName(value)}`, `pass [${EXAMPLE}]`);
  const seen = new Set<string>();
  return value.map((entry: unknown, i) => {
    const at = `${prop}[${i}]`;
    refuseUnknownKeys(scope, at, entry, ENTRY_KEYS, { required: ENTRY_KEYS });
    const { rule, object, reason } = entry as Record<string, unknown>;
    if (typeof rule !== 'string' || !ruleIds.has(rule)) {
      // a doctor id (CNPGI0xx, 1xx, 3xx) is another tool's rule, not a misspelt plan rule
      const nearest = typeof rule === 'string' && !/^CNPGI[013-9]\d\d$/i.test(rule.trim()) ? nearestRuleId(rule, [...ruleIds]) : undefined;
      invalid(
        scope,
        `${at}.rule`,
        rule,
        rule === undefined ? 'is missing' : 'is not a rule of the plan',
        nearest !== undefined
          ? `did you mean ${nearest}? (the plan's rules are CNPGI2xx, listed in docs/doctor-rules.md)`
          : "name the plan rule of the finding, e.g. 'CNPGI201' (the doctor's findings are silenced with its disable option or the cnpg-i.dev/doctor-ignore annotation)",
      );
    }
    if (typeof object !== 'string') {
      invalid(
        scope,
        `${at}.object`,
        object,
        object === undefined ? 'is missing' : 'must be a string',
        "name the object as the finding does, e.g. 'Cluster/payments/ledger'",
      );
    }
    const wrong = objectProblem(object);
    if (wrong) invalid(scope, `${at}.object`, object, wrong.problem, wrong.fix);
    if (typeof reason !== 'string' || reason.trim() === '') {
      invalid(
        scope,
        `${at}.reason`,
        reason,
        reason === undefined ? 'is missing' : 'must be a non-empty string',
        'say why the change is deliberate, e.g. "ledger moved to the new cluster (ticket 123)": review reads it',
      );
    }
    const key = `${rule}\u0000${object}`;
    if (seen.has(key)) invalid(scope, `${at}`, `${rule} ${object}`, 'acknowledges the same finding as an earlier entry', 'keep one entry per rule and object');
    seen.add(key);
    return { rule, object, reason: reason.trim() };
  });
}

/** The findings left to report, those acknowledged, and the acknowledgements that matched none. @internal */
export interface AcknowledgementOutcome {
  readonly findings: Finding[];
  readonly acknowledged: AcknowledgedFinding[];
  readonly stale: PlanAcknowledgement[];
}

/**
 * Sets apart the findings that an acknowledgement names exactly (the same rule, the same object:
 * one naming another object does not help), in their order.
 * @internal
 */
export function applyAcknowledgements(findings: readonly Finding[], acknowledgements: readonly PlanAcknowledgement[]): AcknowledgementOutcome {
  if (acknowledgements.length === 0) return { findings: [...findings], acknowledged: [], stale: [] };
  const byKey = new Map(acknowledgements.map((a) => [`${a.rule}\u0000${a.object}`, a]));
  const used = new Set<PlanAcknowledgement>();
  const kept: Finding[] = [];
  const acknowledged: AcknowledgedFinding[] = [];
  for (const f of findings) {
    const a = byKey.get(`${f.ruleId}\u0000${f.object}`);
    if (a === undefined) {
      kept.push(f);
    } else {
      used.add(a);
      acknowledged.push({ ...f, reason: a.reason });
    }
  }
  return { findings: kept, acknowledged, stale: acknowledgements.filter((a) => !used.has(a)) };
}

/** An acknowledgement as one line: `CNPGI201 Cluster/payments/ledger`. @internal */
export function describeAcknowledgement(a: PlanAcknowledgement): string {
  return `${a.rule} ${a.object}`;
}

/** The warning about a stale acknowledgement. @internal */
export function staleAcknowledgementLine(a: PlanAcknowledgement): string {
  return `acknowledgement ${describeAcknowledgement(a)} matched no finding (stale): remove it, or correct its rule or object`;
}
