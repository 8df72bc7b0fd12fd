/*
 * The shape of a doctor rule: metadata that documents it (and from which the docs, the README
 * table and the SARIF rule list are generated) and a check that reads the model and reports.
 */
import type { Severity } from '../finding';
import type { DoctorModel, FindingTarget } from '../model';

/** One severity a rule can report, and what decides it. */
export interface SeverityCase {
  readonly severity: Severity;
  /** When the rule reports this severity. */
  readonly when: string;
}

/** The documented metadata of one rule. */
export interface RuleSpec<Id extends string = string> {
  /** Stable id, `CNPGI` and three digits; a retired rule keeps its id unused. */
  readonly id: Id;
  /** Short kebab-case name. */
  readonly name: string;
  /** Every severity the check can report, with what decides it. */
  readonly severities: readonly SeverityCase[];
  /** What the rule checks. */
  readonly what: string;
  /**
   * Why it matters, citing the deciding upstream code as `repository tag file function`.
   */
  readonly why: string;
  /** The usual fix; a finding may carry a more precise one. */
  readonly fix: string;
  /** The object kinds the rule reads (`Kind` or `group/Kind`). */
  readonly kinds: readonly string[];
}

/** How a check reports: the runner stamps the rule's name and fix, and applies suppressions. */
export type Report<Id extends string> = (ruleId: Id, severity: Severity, target: FindingTarget, message: string, fix?: string, path?: string) => void;

/** A rule, or a small family of rules that read the same part of the model. */
export interface RuleFamily<Id extends string = string> {
  /** The family's rules. */
  readonly rules: readonly RuleSpec<Id>[];
  /** Reads the model (never another family's findings) and reports. */
  readonly check: (model: DoctorModel, report: Report<Id>) => void;
}

/**
 * Declares a family; the `const` type parameter keeps each id a literal, so that `RuleId` is
 * the union of the registered ids and a check cannot report another family's id.
 */
export function defineFamily<const Specs extends readonly RuleSpec[]>(family: {
  readonly rules: Specs;
  readonly check: (model: DoctorModel, report: Report<Specs[number]['id']>) => void;
}): RuleFamily<Specs[number]['id']> {
  return family as unknown as RuleFamily<Specs[number]['id']>;
}
