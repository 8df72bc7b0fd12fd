import { RULE_SPECS, RuleId, SeverityCase } from './rules/index';

/**
 * One rule of the doctor, as documented in `docs/doctor-rules.md` (generated from the registry
 * in `src/doctor/rules/`).
 */
export interface DoctorRule {
  /** Stable id used in findings, e.g. `CNPGI014`. */
  readonly id: RuleId;
  /** Short kebab-case name. */
  readonly name: string;
  /** The severity (or severities) the rule reports. */
  readonly severity: 'error' | 'warning' | 'error or warning';
  /** Each severity the rule can report, and what decides it. */
  readonly severities: SeverityCase[];
  /** What the rule checks. */
  readonly what: string;
  /** Why it matters, in the operator's terms, citing the deciding upstream code. */
  readonly why: string;
  /** The usual fix. */
  readonly fix: string;
  /** The object kinds the rule reads. */
  readonly kinds: string[];
}

/**
 * Every rule of the doctor, sorted by id, derived from the registry. Ids are stable: a rule
 * that is retired keeps its id unused.
 *
 * Frozen, each rule and its lists too: `Doctor.DOCTOR_RULES` is this array under the mutable
 * array type jsii needs, and no caller may change the registry through either name.
 */
export const DOCTOR_RULES: readonly DoctorRule[] = Object.freeze(
  RULE_SPECS.map((r): DoctorRule => {
    const kinds = new Set(r.severities.map((s) => s.severity));
    const severity = kinds.size === 2 ? 'error or warning' : kinds.has('error') ? 'error' : 'warning';
    return Object.freeze({
      id: r.id,
      name: r.name,
      severity,
      severities: Object.freeze(r.severities.map((s) => Object.freeze({ ...s }))) as SeverityCase[],
      what: r.what,
      why: r.why,
      fix: r.fix,
      kinds: Object.freeze([...r.kinds]) as string[],
    });
  }),
);
