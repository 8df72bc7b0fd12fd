import type { Severity } from './rule';

/**
 * One problem a rule found: in a set of manifests (the doctor) or in the change between two sets
 * (the plan).
 */
export interface Finding {
  /**
   * Stable rule id, e.g. `CNPGI005`; the registries (`DOCTOR_RULES`, `PLAN_RULES`,
   * `docs/doctor-rules.md`) list the ids.
   */
  readonly ruleId: string;
  /** The rule's kebab-case name, e.g. `plugin-port-service`. */
  readonly ruleName: string;
  /** `error` or `warning`. */
  readonly severity: Severity;
  /**
   * The object the finding is about: `Kind/namespace/name`, `Kind/name` for cluster-scoped
   * objects, or `document #<n>` (1-based position in the input) for input that is not a
   * Kubernetes object.
   */
  readonly object: string;
  /** What is wrong, in the operator's terms. */
  readonly message: string;
  /** What to write instead: the check's precise fix, else the rule's. */
  readonly fix: string;
  /** Where in the object, as a field path such as `spec.plugins[1].name`, when known. */
  readonly path?: string;
  /**
   * Position (0-based) in the array of checked objects of the object the finding is about (for
   * items of a `kind: List`, the position of the List).
   */
  readonly index?: number;
  /** The plan: the value before the change (a name, a size, a path), when there is one. */
  readonly before?: unknown;
  /** The plan: the value after the change, when there is one. */
  readonly after?: unknown;
}

/** A finding that a `disable` option or an ignore annotation silenced. */
export interface SuppressedFinding extends Finding {
  /**
   * `disable` (the option or `--disable`), `annotation` (`cnpg-i.dev/doctor-ignore`), or
   * `acknowledgement` (the plan's `acknowledge`, whose reason is `reason`).
   */
  readonly suppressedBy: 'disable' | 'annotation' | 'acknowledgement';
  /** The reason an acknowledgement gave, when `suppressedBy` is `acknowledgement`. */
  readonly reason?: string;
}

/**
 * What a finding says about its object: `Kind/namespace/name (field.path): message; fix: fix`
 * (the SARIF message, which carries the rule id and the level beside it).
 */
export function describeFinding(f: Finding): string {
  return `${f.object}${f.path ? ` (${f.path})` : ''}: ${f.message}; fix: ${f.fix}`;
}

/** One finding as a line of text, as cdk8s prints validation errors. */
export function formatFinding(f: Finding): string {
  return `${f.ruleId} ${f.severity} ${describeFinding(f)}`;
}
