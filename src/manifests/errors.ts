import { IConstruct } from 'constructs';

/**
 * The error every construct in this library throws for input it cannot turn into correct YAML.
 *
 * The message always reads `<construct path>: <prop> <value> <problem>; <fix>` (without the value
 * when there is none: `<prop> is missing: ...`), so a user can find the line in their program and
 * knows what to write instead. The parts are also kept as fields for programs that want them.
 *
 * Python, Java, Go and .NET (jsii) see this error as their runtime's error for a JavaScript
 * exception, which carries the message only: jsii cannot describe a subclass of `Error`, so the
 * class is left out of the jsii assembly (TypeScript and JavaScript keep it), and the message
 * holds everything the fields do.
 *
 * @jsii ignore
 */
export class CnpgIValidationError extends Error {
  /** The construct path (`Node.path`) of the construct that rejected the input. */
  public readonly constructPath: string;
  /** The prop or option that holds the bad value, e.g. `pluginName` or `tls.duration`. */
  public readonly prop: string;
  /** The offending value, as given. */
  public readonly value: unknown;

  constructor(constructPath: string, prop: string, value: unknown, problem: string, fix: string) {
    super(`${constructPath}: ${prop} ${value === undefined ? '' : `${describeValue(value)} `}${problem}; ${fix}`);
    this.name = 'CnpgIValidationError';
    this.constructPath = constructPath;
    this.prop = prop;
    this.value = value;
  }
}

/**
 * Where an error happened: a construct, or a name such as `Plugin.fromPluginName` for static
 * factories that have no construct yet.
 * @internal
 */
export type ErrorScope = IConstruct | string;

/**
 * Throws a {@link CnpgIValidationError} for `scope`.
 * @internal
 */
export function invalid(scope: ErrorScope, prop: string, value: unknown, problem: string, fix: string): never {
  const path = typeof scope === 'string' ? scope : scope.node.path || '<root>';
  throw new CnpgIValidationError(path, prop, value, problem, fix);
}

/**
 * What is wrong with one value, found before anything is thrown: the prop (as the user wrote
 * it), the value, the problem and the fix. Checks that judge a value in several ways compute the
 * first problem and throw it once, with {@link refuseProblem}.
 * @internal
 */
export interface Problem {
  readonly prop: string;
  readonly value: unknown;
  readonly problem: string;
  readonly fix: string;
}

/**
 * Throws the {@link CnpgIValidationError} of `problem` for `scope`; does nothing without one.
 * @internal
 */
export function refuseProblem(scope: ErrorScope, problem: Problem | undefined): void {
  if (problem !== undefined) invalid(scope, problem.prop, problem.value, problem.problem, problem.fix);
}

/**
 * Renders a value for an error message: strings quoted (as JSON when they hold a line break or
 * another control character, so that a message stays one line: cdk8s prints one line per
 * validation error), the rest as JSON where possible.
 * @internal
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (typeof value === 'string') return /[\u0000-\u001f\u007f]/.test(value) ? JSON.stringify(value) : `'${value}'`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value === 'symbol') return value.toString();
  try {
    const json = JSON.stringify(value);
    if (json === undefined) return String(value);
    return json.length > 120 ? `${json.slice(0, 117)}...` : json;
  } catch {
    // JSON.stringify throws on a cycle (a YAML alias, an object holding itself) and on a BigInt
    // inside; never print `[object Object]`.
    return `${Array.isArray(value) ? 'a list' : 'an object'} that cannot be written as JSON (it contains itself or a BigInt)`;
  }
}

/**
 * The problem of a value of the wrong type: `is missing` when it is undefined (never
 * `must be a string, not undefined`), else what it must be and what it is.
 * @internal
 */
export function wrongType(what: string, value: unknown): string {
  return value === undefined ? `is missing: it must be ${what}` : `must be ${what}, not ${typeName(value)}`;
}

/** @internal */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
