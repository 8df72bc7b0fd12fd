/*
 * The shape of a rule, for every tool of the library that reports findings (the doctor, the
 * plan): what a rule file declares, and the frozen listing (`DOCTOR_RULES`, `PLAN_RULES`) that
 * the docs, the SARIF rule list and the users read.
 */
import type { Json } from '../manifests/json';

/**
 * How bad a finding is.
 *
 * - `error`: the operator, a plugin, cert-manager or the API server will refuse the object or
 *   not work with it, or the change destroys data.
 * - `warning`: it may work, but depends on something outside the checked manifests, works by
 *   accident, or needs a deliberate step; read the message.
 */
export type Severity = 'error' | 'warning';

/** One severity a rule can report, and what decides it. */
export interface SeverityCase {
  /** `error` or `warning`. */
  readonly severity: Severity;
  /** When the rule reports this severity. */
  readonly when: string;
}

/**
 * A finding of another rule that a rule's finding makes redundant: when both are reported on
 * the same object, the other rule's finding is dropped (suppressed findings count too, so that
 * disabling one rule does not bring the other back).
 */
export interface Subsumption {
  /** The id of the rule whose finding is dropped. */
  readonly rule: string;
  /**
   * The field path of the dropped finding.
   * @default - the path of the subsuming finding
   */
  readonly path?: string;
}

/**
 * One rule, as documented in `docs/doctor-rules.md` and listed by `DOCTOR_RULES` and
 * `PLAN_RULES`. The lists are frozen, each rule and its arrays too (their types are plain arrays
 * because jsii has no read-only arrays).
 */
export interface RuleSpec {
  /** Stable id, `CNPGI` and three digits, e.g. `CNPGI014`; a retired rule keeps its id unused. */
  readonly id: string;
  /** Short kebab-case name. */
  readonly name: string;
  /** The severity (or severities) the rule reports. */
  readonly severity: 'error' | 'warning' | 'error or warning';
  /** Each severity the rule can report, and what decides it. */
  readonly severities: SeverityCase[];
  /** What the rule checks. */
  readonly what: string;
  /** Why it matters, citing the deciding upstream code as `repository tag file function`. */
  readonly why: string;
  /** The usual fix; a finding may carry a more precise one. */
  readonly fix: string;
  /** The object kinds the rule reads (`Kind` or `group/Kind`; `*` for any object). */
  readonly kinds: string[];
  /** Findings of other rules that this rule's findings make redundant. */
  readonly subsumes?: Subsumption[];
}

/** What a finding is attached to: an object of the input, a document, or the whole input. */
export interface FindingTarget {
  /** `Kind/namespace/name`, `Kind/name`, `document #<n>` or `input`. */
  readonly ref: string;
  /** Position (0-based) in the input array. */
  readonly index?: number;
  /** The object itself, whose ignore annotation silences rules for it. */
  readonly raw?: Json;
}

/** The value of a field before and after a change, for the plan's findings. */
export interface FindingChange {
  /** The value before, when there is one. */
  readonly before?: unknown;
  /** The value after, when there is one. */
  readonly after?: unknown;
}

/**
 * How a rule reports: the engine stamps the rule's id and name, and its fix when the check
 * gives none. A rule can report only its own id, and only a severity it declares.
 */
export type Report = (severity: Severity, target: FindingTarget, message: string, fix?: string, path?: string, change?: FindingChange) => void;

/** The documented metadata of a rule, as its file declares it. @internal */
export interface RuleMetadata {
  readonly id: string;
  readonly name: string;
  readonly severities: readonly SeverityCase[];
  readonly what: string;
  readonly why: string;
  readonly fix: string;
  readonly kinds: readonly string[];
  readonly subsumes?: readonly Subsumption[];
}

/**
 * A rule as its file declares it: the documented metadata, and the check that reads the tool's
 * input (the doctor's model, the plan's two manifest sets) and reports.
 * @internal
 */
export interface RuleDefinition<Input> extends RuleMetadata {
  /** Reads the input (never another rule's findings) and reports. */
  readonly check: (input: Input, report: Report) => void;
}

/**
 * `struct` with each own property read-only (not writable, not configurable), but extensible:
 * the jsii kernel hands a struct to Python, Java or Go by reference and tags it first with
 * symbol properties (@jsii/kernel 1.140 ObjectTable.registerObject), which a frozen object
 * refuses (`Cannot define property Symbol($__jsii__objid__$), object is not extensible`). A
 * frozen rule listing made `Doctor.DOCTOR_RULES` throw in Python and the Java classes `Doctor`
 * and `Plan` fail to load. Assigning to a property still throws (in strict mode).
 */
function readOnlyStruct<T extends object>(struct: T): T {
  for (const key of Object.keys(struct)) Object.defineProperty(struct, key, { writable: false, configurable: false });
  return struct;
}

/**
 * The read-only public listing of a rule: its metadata without the check, with the severity
 * summary. Its lists are frozen; the listing and the structs in its lists are read-only but
 * not frozen (see {@link readOnlyStruct}).
 * @internal
 */
export function ruleSpecOf(rule: RuleMetadata): RuleSpec {
  const severities = new Set(rule.severities.map((s) => s.severity));
  const severity = severities.size === 2 ? 'error or warning' : severities.has('error') ? 'error' : 'warning';
  return readOnlyStruct({
    id: rule.id,
    name: rule.name,
    severity,
    severities: Object.freeze(rule.severities.map((s) => readOnlyStruct({ ...s }))) as SeverityCase[],
    what: rule.what,
    why: rule.why,
    fix: rule.fix,
    kinds: Object.freeze([...rule.kinds]) as string[],
    ...(rule.subsumes ? { subsumes: Object.freeze(rule.subsumes.map((s) => readOnlyStruct({ ...s }))) as Subsumption[] } : {}),
  });
}
