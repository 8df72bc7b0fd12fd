import { wrongType, ErrorScope, Problem, invalid, refuseProblem } from '../manifests/errors';
import { isAnnotationKey, isDnsSubdomain, isLabelKey, isLabelValue } from '../manifests/k8s-names';

/**
 * The largest int32, the bound of every `int32` field of the Kubernetes and CRD schemas
 * (replicas, user and group ids, `maxParallel`, `jobs`, seconds fields).
 * @internal
 */
export const INT32_MAX = 2147483647;

/** What keeps `value` from being a non-empty string, if anything. */
function stringProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return wrongType('a string', value);
  return value.trim() === '' ? 'must not be empty' : undefined;
}

/**
 * Checks that `value` is a non-empty string; JavaScript callers can pass anything.
 * @internal
 */
export function requireString(scope: ErrorScope, prop: string, value: unknown, fix: string): string {
  const problem = stringProblem(value);
  if (problem !== undefined) invalid(scope, prop, value, problem, fix);
  return value as string;
}

/**
 * Checks a plugin name: the `cnpg.io/pluginName` label value, the socket file name and the
 * name Clusters use. Kubernetes label values allow upper case and at most 63 characters; the
 * CNPG-I convention is a lower-case DNS subdomain such as `barman-cloud.cloudnative-pg.io`, and
 * the label limit of 63 characters applies because the name is a label value.
 * @internal
 */
export function validatePluginName(scope: ErrorScope, prop: string, value: unknown): string {
  refuseProblem(scope, pluginNameProblem(prop, value));
  return value as string;
}

/**
 * What is wrong with a plugin name (see {@link validatePluginName}), if anything.
 * @internal
 */
export function pluginNameProblem(prop: string, value: unknown): Problem | undefined {
  const fix = "use a lower-case DNS subdomain of at most 63 characters, such as 'backup.example.com'";
  const notString = stringProblem(value);
  if (notString !== undefined) return { prop, value, problem: notString, fix };
  const name = value as string;
  if (name.length <= 63 && isDnsSubdomain(name)) return undefined;
  // Suggest the lower-cased name only when that one is valid (`Bad_Name` has no such fix).
  const lower = name.toLowerCase();
  return {
    prop,
    value,
    problem: name.length > 63 ? `is ${name.length} characters long; a Kubernetes label value holds at most 63` : 'is not a lower-case DNS subdomain (RFC 1123)',
    fix: lower !== name && lower.length <= 63 && isDnsSubdomain(lower) ? `use '${lower}'` : fix,
  };
}

/**
 * Checks a whole number within bounds.
 * @internal
 */
export function validateInteger(scope: ErrorScope, prop: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`;
    invalid(
      scope,
      prop,
      value,
      typeof value !== 'number' ? wrongType('a whole number', value) : Number.isInteger(value) ? 'is out of range' : 'is not a whole number',
      `use a whole number ${range}`,
    );
  }
  return value;
}

/**
 * Checks a map of string to string (labels, annotations, plugin parameters).
 * @internal
 */
export function validateStringMap(scope: ErrorScope, prop: string, value: unknown): Record<string, string> {
  refuseProblem(scope, stringMapProblem(prop, value));
  return Object.fromEntries(Object.entries(value as Record<string, string>));
}

/** What keeps `value` from being a map of string to string: the map itself, or its first value that is no string. */
function stringMapProblem(prop: string, value: unknown): Problem | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { prop, value, problem: wrongType('an object of strings', value), fix: "pass { key: 'value' }" };
  }
  const bad = Object.entries(value as Record<string, unknown>).find(([, v]) => typeof v !== 'string');
  if (bad === undefined) return undefined;
  const [k, v] = bad;
  return {
    prop: `${prop}.${k}`,
    value: v,
    problem: wrongType('a string', v),
    fix:
      v === undefined
        ? 'give it a string, or remove the key'
        : typeof v === 'number' || typeof v === 'boolean'
          ? `write it as a string, e.g. '${String(v)}'`
          : 'write it as a string',
  };
}

/**
 * Checks an array of strings.
 * @internal
 */
export function validateStringArray(scope: ErrorScope, prop: string, value: unknown): string[] {
  // findIndex visits the holes of a sparse array too, so a hole is refused instead of being written as null.
  const i = Array.isArray(value) ? value.findIndex((v) => typeof v !== 'string') : -1;
  refuseProblem(
    scope,
    !Array.isArray(value)
      ? { prop, value, problem: wrongType('an array of strings', value), fix: "pass ['a', 'b']" }
      : i >= 0
        ? { prop: `${prop}[${i}]`, value: value[i], problem: wrongType('a string', value[i]), fix: 'write it as a string' }
        : undefined,
  );
  return [...(value as string[])];
}

const KEY_FIX = {
  label: "use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/team'",
  annotation: "use an optional DNS prefix and '/', then at most 63 letters, digits, -, _ and ., e.g. 'example.com/owner'",
} as const;

/**
 * Checks one label key (or an annotation key, compared lower-cased as the API server does):
 * the one key check of the library.
 * @internal
 */
export function validateLabelKey(scope: ErrorScope, prop: string, key: string, kind: 'label' | 'annotation' = 'label'): string {
  refuseProblem(scope, labelKeyProblem(prop, key, kind));
  return key;
}

/** What is wrong with a label (or annotation) key, if anything. */
function labelKeyProblem(prop: string, key: string, kind: 'label' | 'annotation'): Problem | undefined {
  return (kind === 'label' ? isLabelKey(key) : isAnnotationKey(key))
    ? undefined
    : { prop, value: key, problem: `is not a valid ${kind} key`, fix: KEY_FIX[kind] };
}

/**
 * Checks a map of Kubernetes labels (or a label selector): keys are an optional DNS prefix and
 * `/` and a name of at most 63 characters, values at most 63 letters, digits, `-`, `_` and `.`.
 * The API server refuses anything else, so it is refused here, with the key in the message.
 * @internal
 */
export function validateLabels(scope: ErrorScope, prop: string, value: unknown): Record<string, string> {
  refuseProblem(scope, stringMapProblem(prop, value) ?? labelsProblem(prop, value as Record<string, string>));
  return Object.fromEntries(Object.entries(value as Record<string, string>));
}

/** The first label of a map of strings whose key or value the API server refuses, in key order of the map. */
function labelsProblem(prop: string, labels: Record<string, string>): Problem | undefined {
  for (const [k, v] of Object.entries(labels)) {
    const problem =
      labelKeyProblem(prop, k, 'label') ??
      (isLabelValue(v)
        ? undefined
        : {
            prop: `${prop}.${k}`,
            value: v,
            problem: 'is not a valid label value',
            fix: 'use at most 63 letters, digits, -, _ and ., starting and ending with a letter or digit, or an empty string',
          });
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Checks an optional boolean: JavaScript callers pass `'false'` or `0`, which YAML would keep
 * as a string or a number and the API server would refuse (or, worse, read as true).
 * @internal
 */
export function validateOptionalBoolean(scope: ErrorScope, prop: string, value: unknown): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') {
    invalid(scope, prop, value, wrongType('a boolean', value), 'pass true or false');
  }
  return value as boolean | undefined;
}

/**
 * Whether `value` is one of the wire values of a string enum.
 * @internal
 */
export function isEnumValue<T extends string>(values: Record<string, T>, value: unknown): value is T {
  return typeof value === 'string' && (Object.values(values) as string[]).includes(value);
}

/**
 * Checks a value of a string enum (the one enum check of the library): the message lists the
 * members as the user writes them, `PluginLogLevel.INFO, PluginLogLevel.DEBUG, ...`.
 * @internal
 */
export function validateEnum<T extends string>(scope: ErrorScope, prop: string, value: unknown, values: Record<string, T>, enumName: string): T {
  if (!isEnumValue(values, value)) {
    invalid(
      scope,
      prop,
      value,
      `is not a ${enumName}`,
      `use one of ${Object.keys(values)
        .map((k) => `${enumName}.${k}`)
        .join(', ')}`,
    );
  }
  return value;
}

/**
 * Checks an optional value of a string enum.
 * @internal
 */
export function validateOptionalEnum<T extends string>(
  scope: ErrorScope,
  prop: string,
  value: unknown,
  values: Record<string, T>,
  enumName: string,
): T | undefined {
  return value === undefined ? undefined : validateEnum(scope, prop, value, values, enumName);
}

/**
 * Checks a container image reference (the one image check of the library): a non-empty string
 * without white space, which the kubelet could never pull (kubernetes v1.32.13
 * pkg/apis/core/validation/validation.go validateContainerCommon refuses leading and trailing
 * white space; inside, the reference does not parse).
 * @internal
 */
export function validateImage(scope: ErrorScope, prop: string, value: unknown, example: string): string {
  const problem = stringProblem(value) ?? (/\s/.test(value as string) ? 'contains white space' : undefined);
  if (problem !== undefined) invalid(scope, prop, value, problem, `use an image reference such as ${example}`);
  return value as string;
}

/**
 * The props among `keys` that are set (not `undefined`), as a new object: what a preset passes
 * on to the construct it wraps, so that construct still applies its own defaults (the one
 * pickDefined of the library).
 * @internal
 */
export function pickDefined<T extends object, K extends keyof T>(props: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) {
    if (props[k] !== undefined) out[k] = props[k];
  }
  return out;
}
