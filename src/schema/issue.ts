import { describeValue } from '../manifests/errors';
import { PathSegments, formatPath } from '../manifests/json';

/**
 * What kind of problem a {@link SchemaIssue} reports.
 *
 * - `type`, `enum`, `required`, `pattern`, `format`, `min`, `max`, `duplicate`, `schema`: the
 *   CRD's OpenAPI schema refuses the value (the API server answers `Invalid value` or
 *   `Required value`).
 * - `pruned-unknown-field`: the field is not declared and nothing above it preserves unknown
 *   fields, so the API server drops it without an error; the object is stored without it.
 * - `null-dropped`: a `null` where the schema is not `nullable` and has no default; the API
 *   server drops the field.
 * - `cel`: an `x-kubernetes-validations` rule of the CRD evaluated to false (or failed).
 * - `cel-not-evaluated`: a rule this library cannot evaluate (a transition rule, or a rule that
 *   calls a Kubernetes-only CEL function); only reported when asked for, as verbose output.
 * - `invalid-name`, `invalid-namespace`, `invalid-label-key`, `invalid-label-value`,
 *   `invalid-annotation-key`, `invalid-port`: the API server's built-in object validation.
 */
export type SchemaIssueKind =
  | 'type'
  | 'enum'
  | 'required'
  | 'pattern'
  | 'format'
  | 'min'
  | 'max'
  | 'duplicate'
  | 'schema'
  | 'pruned-unknown-field'
  | 'null-dropped'
  | 'cel'
  | 'cel-not-evaluated'
  | 'invalid-name'
  | 'invalid-namespace'
  | 'invalid-label-key'
  | 'invalid-label-value'
  | 'invalid-annotation-key'
  | 'invalid-port';

/** One problem the API server would have with an object, found without an API server. */
export interface SchemaIssue {
  /** Where, as a JSON path from the object's root: `spec.plugins[0].isWALArchiver`. */
  readonly path: string;
  /** What kind of problem it is. */
  readonly kind: SchemaIssueKind;
  /** The value found at `path` (`undefined` for a missing required field). */
  readonly value: unknown;
  /** What the API server accepts there, in words: `one of 'Full', 'Primary'`, `a string`. */
  readonly allowed: string;
  /** The values the schema allows, for an `enum`. */
  readonly allowedValues?: readonly unknown[];
  /** For an unknown field: the declared field the name is closest to (`isWALArchiver`). */
  readonly didYouMean?: string;
  /** For `cel` and `cel-not-evaluated`: the rule's source text. */
  readonly rule?: string;
  /** What is wrong, without the path and value: `is not one of the values the CRD allows`. */
  readonly problem: string;
  /** What to write instead: `use one of 'Full', 'Primary'`. */
  readonly fix: string;
  /** One line in the project's tone: `<path> <value> <problem>; <fix>`. */
  readonly message: string;
}

export { formatPath };
export type { PathSegments };

/** Builds an issue whose message reads `<path> <value> <problem>; <fix>`. */
export function issue(
  segments: PathSegments,
  kind: SchemaIssueKind,
  value: unknown,
  problem: string,
  allowed: string,
  fix: string,
  extra: Partial<Pick<SchemaIssue, 'allowedValues' | 'didYouMean' | 'rule'>> = {},
): SchemaIssue {
  const path = formatPath(segments);
  const shown = value === undefined ? '' : ` ${describeValue(value)}`;
  return { path, kind, value, allowed, ...extra, problem, fix, message: `${path}${shown} ${problem}; ${fix}` };
}

/** The declared name closest to `name` (one implementation, shared with the constructs' key checks). */
export { nearestName } from '../manifests/nearest-name';
