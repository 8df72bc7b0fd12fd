import { invalid, typeName } from '../manifests/errors';
import { refuseUnknownKeys } from '../manifests/option-keys';
import type { Finding } from '../rules/finding';
import { RuleRegistry } from '../rules/registry';
import type { RuleSpec } from '../rules/rule';
import { PlanAcknowledgement, applyAcknowledgements, readAcknowledgements } from './acknowledgements';
import { PlanContext, PlanIndex, PlanOptions, PlanReport, canonical } from './plan-model';
import { PLAN_RULE_DEFINITIONS } from './rules/index';

/** The plan's rules, one file each under src/plan/rules/, run in id order. */
const PLAN_REGISTRY = new RuleRegistry<PlanContext>(PLAN_RULE_DEFINITIONS);

/**
 * Every rule of `planChanges`, ids `CNPGI2xx`, sorted by id. Ids are stable: a retired rule keeps
 * its id unused.
 *
 * Frozen, each rule and its lists too: `Plan.PLAN_RULES` is this array under the mutable array
 * type jsii needs, and no caller may change the rules through either name.
 */
export const PLAN_RULES: readonly RuleSpec[] = PLAN_REGISTRY.specs;

const RULE_ORDER = new Map(PLAN_REGISTRY.rules.map((r, i) => [r.id, i]));

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Errors first, then by object, rule and path. */
function reportOrder(a: Finding, b: Finding): number {
  return (
    (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
    compare(a.object, b.object) ||
    RULE_ORDER.get(a.ruleId)! - RULE_ORDER.get(b.ruleId)! ||
    compare(a.path ?? '', b.path ?? '')
  );
}

/** The keys of `PlanOptions`. @internal */
export const PLAN_OPTION_KEYS: readonly string[] = ['acknowledge', 'defaultNamespace'];

/**
 * What a user may expect of the plan's options from the doctor's: the plan has no `disable`,
 * since a destructive change is accepted per object, in review.
 * @internal
 */
export const PLAN_OPTION_HINTS: Readonly<Record<string, string>> = {
  disable:
    "the plan switches no rule off: accept a deliberate change per object with acknowledge: [{ rule: 'CNPGI201', object: 'Cluster/payments/ledger', reason: '...' }]",
};

/**
 * Checks the plan's options (`keys`: those of the interface the caller was given, a superset of
 * `PlanOptions`) and reads the ones the plan uses.
 * @internal
 */
export function readPlanOptions(
  scope: string,
  options: unknown,
  keys: readonly string[] = PLAN_OPTION_KEYS,
): { readonly defaultNamespace: string; readonly acknowledgements: PlanAcknowledgement[] } {
  refuseUnknownKeys(scope, 'options', options, keys, { optional: true, hints: PLAN_OPTION_HINTS });
  const o = (options ?? {}) as PlanOptions;
  if (o.defaultNamespace !== undefined && (typeof o.defaultNamespace !== 'string' || o.defaultNamespace === '')) {
    invalid(scope, 'options.defaultNamespace', o.defaultNamespace, 'must be a non-empty string', "pass a namespace, e.g. 'default', or leave it out");
  }
  return {
    defaultNamespace: o.defaultNamespace ?? 'default',
    acknowledgements: readAcknowledgements(scope, 'options.acknowledge', o.acknowledge, PLAN_REGISTRY.ids),
  };
}

/**
 * Compares two manifest sets (plain objects, as parsed from YAML: a committed `dist/` and a new
 * synth, or `kubectl get -o yaml` and the repository) and reports per object the changes that
 * lose data, that the operator's webhook or the CRD refuses on update, that are accepted but do
 * nothing, that break the backup chain, or that interrupt a plugin.
 *
 * Objects are matched by API group, kind, namespace and name (an apiVersion bump is not a new
 * object); `kind: List` is expanded. Planning is linear in the number of objects.
 */
export function planChanges(previous: readonly unknown[], next: readonly unknown[], options: PlanOptions = {}): PlanReport {
  for (const [prop, value] of [
    ['previous', previous],
    ['next', next],
  ] as const) {
    if (!Array.isArray(value)) {
      invalid(
        'planChanges',
        prop,
        value,
        `must be an array of manifest objects, not ${typeName(value)}`,
        'pass the parsed documents, e.g. YAML.parseAllDocuments(text).map((d) => d.toJSON())',
      );
    }
  }
  const { defaultNamespace, acknowledgements } = readPlanOptions('planChanges', options);
  const prev = new PlanIndex(previous, defaultNamespace);
  const nxt = new PlanIndex(next, defaultNamespace);
  const { findings, acknowledged, stale } = applyAcknowledgements(PLAN_REGISTRY.run(new PlanContext(prev, nxt)).findings, acknowledgements);

  let removed = 0;
  let changed = 0;
  for (const o of prev.byKey.values()) {
    const n = nxt.get(o);
    if (!n) removed++;
    else if (n.body !== o.body && canonical(n.body) !== canonical(o.body)) changed++;
  }
  const common = prev.byKey.size - removed;
  findings.sort(reportOrder);
  acknowledged.sort(reportOrder);
  return {
    findings,
    acknowledged,
    staleAcknowledgements: stale,
    previousCount: prev.count,
    nextCount: nxt.count,
    added: nxt.byKey.size - common,
    removed,
    changed,
  };
}
