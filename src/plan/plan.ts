import { invalid, typeName } from '../manifests/errors';
import { BACKUP_CHAIN_RULES, checkBackupChain } from './backup-chain-rules';
import { DATA_LOSS_RULES, checkDataLoss } from './data-loss-rules';
import { PlanContext, PlanFinding, PlanIndex, PlanOptions, PlanReport, PlanRule, canonical } from './plan-model';
import { PLUGIN_OUTAGE_RULES, checkPluginOutage } from './plugin-outage-rules';
import { UPDATE_RULES, checkUpdates } from './update-rules';

/**
 * Every rule of `planChanges`, ids `CNPGI2xx`. Ids are stable: a retired rule keeps its id unused.
 *
 * Frozen, each rule and its lists too: `Plan.PLAN_RULES` is this array under the mutable array
 * type jsii needs, and no caller may change the rules through either name.
 */
export const PLAN_RULES: readonly PlanRule[] = Object.freeze(
  [...DATA_LOSS_RULES, ...UPDATE_RULES, ...BACKUP_CHAIN_RULES, ...PLUGIN_OUTAGE_RULES].map((r) => {
    Object.freeze(r.severities);
    Object.freeze(r.kinds);
    return Object.freeze(r);
  }),
);

const RULE_ORDER = new Map(PLAN_RULES.map((r, i) => [r.id, i]));

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
  const defaultNamespace = typeof options?.defaultNamespace === 'string' && options.defaultNamespace !== '' ? options.defaultNamespace : 'default';
  const prev = new PlanIndex(previous, defaultNamespace);
  const nxt = new PlanIndex(next, defaultNamespace);
  const findings: PlanFinding[] = [];
  const ctx: PlanContext = { previous: prev, next: nxt, emit: (f) => findings.push(f) };
  checkDataLoss(ctx);
  checkUpdates(ctx);
  checkBackupChain(ctx);
  checkPluginOutage(ctx);

  let removed = 0;
  let changed = 0;
  for (const o of prev.byKey.values()) {
    const n = nxt.get(o);
    if (!n) removed++;
    else if (n.body !== o.body && canonical(n.body) !== canonical(o.body)) changed++;
  }
  const common = prev.byKey.size - removed;
  findings.sort(
    (a, b) =>
      (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1) ||
      (a.object < b.object ? -1 : a.object > b.object ? 1 : 0) ||
      RULE_ORDER.get(a.ruleId)! - RULE_ORDER.get(b.ruleId)! ||
      ((a.path ?? '') < (b.path ?? '') ? -1 : (a.path ?? '') > (b.path ?? '') ? 1 : 0),
  );
  return {
    findings,
    previousCount: prev.count,
    nextCount: nxt.count,
    added: nxt.byKey.size - common,
    removed,
    changed,
  };
}
