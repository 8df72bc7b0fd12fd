/*
 * The one rule engine: a registry of rules for one tool (the doctor, the plan), which runs them
 * over the tool's input and turns what they report into findings.
 */
import { Finding, SuppressedFinding } from './finding';
import { FindingTarget, RuleDefinition, RuleSpec, Severity, ruleSpecOf } from './rule';

/** A rule that no longer exists, and where its check went. @internal */
export interface RetiredRule {
  readonly id: string;
  readonly name: string;
  /** The rule that reports the same problem now. */
  readonly replacedBy: string;
  /** Why it was retired. */
  readonly reason: string;
}

/** How findings are silenced in one run. @internal */
export interface RunOptions {
  /** Rule ids switched off for the whole run. */
  readonly disable?: ReadonlySet<string>;
  /** Whether the object of `target` silences `ruleId` for itself (the doctor's ignore annotation). */
  readonly ignored?: (target: FindingTarget, ruleId: string) => boolean;
  /**
   * Runs one rule's check (`run`) and returns which of the findings it reported are withheld: not
   * judged, because the rule read text of the input that is not what will be applied (the doctor's
   * unrendered variables). Withheld findings are neither findings nor suppressed.
   */
  readonly withholding?: (ruleId: string, run: () => void) => (target: FindingTarget, path: string | undefined) => boolean;
}

/** What one run found. @internal */
export interface RunResult {
  /** The findings, in the order the rules reported them (rules in registry order). */
  readonly findings: Finding[];
  /** The findings that `disable` or an ignore annotation silenced. */
  readonly suppressed: SuppressedFinding[];
  /** The findings `withholding` withheld, in report order. */
  readonly withheld: Finding[];
}

const ID = /^CNPGI\d{3}$/;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The rules of one tool, in the order they run (which is the order of their findings on one
 * object), with their frozen public listing sorted by id.
 * @internal
 */
export class RuleRegistry<Input> {
  /** Every rule's listing, sorted by id, frozen. */
  public readonly specs: readonly RuleSpec[];
  /** Every registered id. */
  public readonly ids: ReadonlySet<string>;
  private readonly byId: ReadonlyMap<string, RuleSpec>;
  private readonly retiredById: ReadonlyMap<string, RetiredRule>;

  /**
   * @param rules the rules, in run order
   * @param retired the retired ids of the tool, which no rule may take
   */
  constructor(
    public readonly rules: readonly RuleDefinition<Input>[],
    public readonly retired: readonly RetiredRule[] = [],
  ) {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const r of rules) {
      if (!ID.test(r.id)) problems.push(`${r.id}: an id is CNPGI and three digits`);
      if (!NAME.test(r.name)) problems.push(`${r.id}: the name '${r.name}' is not kebab-case`);
      if (seen.has(r.id)) problems.push(`${r.id}: registered twice`);
      seen.add(r.id);
      if (r.severities.length === 0) problems.push(`${r.id}: declares no severity`);
      if (new Set(r.severities.map((s) => s.severity)).size !== r.severities.length) problems.push(`${r.id}: declares a severity twice`);
    }
    for (const t of retired) if (seen.has(t.id)) problems.push(`${t.id}: retired, but registered again`);
    for (const r of rules) {
      for (const s of r.subsumes ?? [])
        if (!seen.has(s.rule) || s.rule === r.id) problems.push(`${r.id}: subsumes '${s.rule}', which is no other rule of this tool`);
    }
    if (problems.length > 0) throw new Error(`rule registry: ${problems.join('; ')}`);
    this.specs = Object.freeze(rules.map(ruleSpecOf).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    this.ids = new Set(this.specs.map((s) => s.id));
    this.byId = new Map(this.specs.map((s) => [s.id, s]));
    this.retiredById = new Map(retired.map((t) => [t.id, t]));
  }

  /** The listing of a registered rule. */
  public spec(id: string): RuleSpec | undefined {
    return this.byId.get(id);
  }

  /** The retired rule of an id (in any case, with surrounding spaces or not), if the id is retired. */
  public retiredRule(id: string): RetiredRule | undefined {
    return this.retiredById.get(id.trim().toUpperCase());
  }

  /**
   * Runs every rule over `input`: each report is stamped with its rule's id and name (and the
   * rule's fix when the check gives none); a severity the rule does not declare throws (a bug);
   * the same finding reported twice is kept once; findings another finding subsumes are dropped;
   * then `disable` and the ignore annotation move findings to `suppressed`.
   */
  public run(input: Input, options: RunOptions = {}): RunResult {
    const all: Array<{ readonly finding: Finding; readonly target: FindingTarget }> = [];
    const seen = new Set<string>();
    const withheld: Finding[] = [];
    for (const rule of this.rules) {
      const spec = this.byId.get(rule.id)!;
      const reported: Array<{ readonly finding: Finding; readonly target: FindingTarget }> = [];
      const check = () =>
        rule.check(input, (severity: Severity, target, message, fix, path, change) => {
          if (!rule.severities.some((s) => s.severity === severity)) {
            throw new Error(`${rule.id} reported ${severity}, but the rule declares only ${rule.severities.map((s) => s.severity).join(' and ')}`);
          }
          // the same object can be reached twice (through two Services, say)
          const key = `${rule.id}\u0000${target.ref}\u0000${path ?? ''}\u0000${message}`;
          if (seen.has(key)) return;
          seen.add(key);
          const finding: Finding = {
            ruleId: rule.id,
            ruleName: spec.name,
            severity,
            object: target.ref,
            message,
            fix: fix ?? spec.fix,
            ...(path !== undefined ? { path } : {}),
            ...(target.index !== undefined ? { index: target.index } : {}),
            ...(change && 'before' in change ? { before: change.before } : {}),
            ...(change && 'after' in change ? { after: change.after } : {}),
          };
          reported.push({ finding, target });
        });
      const withhold = options.withholding?.(rule.id, check) ?? (check(), undefined);
      for (const r of reported) {
        if (withhold?.(r.target, r.finding.path)) withheld.push(r.finding);
        else all.push(r);
      }
    }
    const subsumed = new Set<string>();
    for (const { finding: f } of all) {
      for (const s of this.byId.get(f.ruleId)!.subsumes ?? []) subsumed.add(`${s.rule}\u0000${f.object}\u0000${s.path ?? f.path ?? ''}`);
    }
    const findings: Finding[] = [];
    const suppressed: SuppressedFinding[] = [];
    for (const { finding: f, target } of all) {
      if (subsumed.size > 0 && subsumed.has(`${f.ruleId}\u0000${f.object}\u0000${f.path ?? ''}`)) continue;
      if (options.disable?.has(f.ruleId)) suppressed.push({ ...f, suppressedBy: 'disable' });
      else if (options.ignored?.(target, f.ruleId)) suppressed.push({ ...f, suppressedBy: 'annotation' });
      else findings.push(f);
    }
    return { findings, suppressed, withheld };
  }
}
