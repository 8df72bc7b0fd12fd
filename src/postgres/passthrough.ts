import * as cnpg from '../../imports/postgresql.cnpg.io';
import { ErrorScope, invalid } from '../common/errors';

/*
 * The generated bindings type a Kubernetes quantity or int-or-string field as a class
 * (`ClusterSpecStoragePvcTemplateResourcesRequests.fromString('5Gi')`) and render it as
 * `obj.x?.value`: a plain '5Gi' from a JavaScript caller, or from an object literal typed `any`,
 * is then written as nothing. They also rebuild every object from the fields they know, so a
 * misspelt key vanishes. These two functions make a passthrough write exactly what it is given
 * or refuse it.
 */

type Classes = Record<string, { fromString?: (v: string) => unknown; fromNumber?: (v: number) => unknown } | undefined>;
const CLASSES = cnpg as unknown as Classes;

const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);
const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** The generated class of a quantity / int-or-string position, if `name` is one. */
function valueClass(name: string): Classes[string] {
  const c = CLASSES[name];
  return typeof c?.fromString === 'function' ? c : undefined;
}

/**
 * Wraps plain strings and numbers where the generated type `typeName` expects its value class,
 * so that the generated `toJson` writes them. Everything else is returned as is.
 * @internal
 */
export function wrapValues(value: unknown, typeName: string, parentType?: string): unknown {
  if (typeof value === 'string' || typeof value === 'number') {
    const cls = valueClass(typeName) ?? (parentType === undefined ? undefined : valueClass(parentType));
    if (cls === undefined) return value;
    if (typeof value === 'number') return cls.fromNumber ? cls.fromNumber(value) : value;
    return cls.fromString!(value);
  }
  if (Array.isArray(value)) return value.map((v) => wrapValues(v, typeName));
  if (!isPlain(value)) return value;
  // A map of value classes (requests: { storage: '5Gi' }) is named after the map itself.
  const mapOfValues = valueClass(typeName) !== undefined;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, wrapValues(v, mapOfValues ? typeName : typeName + pascal(k), mapOfValues ? undefined : typeName)]),
  );
}

const norm = (k: string): string => k.toLowerCase().replace(/[-_]/g, '');

/**
 * Refuses what the generated `toJson` dropped or changed: walks what the user gave (`given`,
 * TypeScript field names) beside what will be written (`written`, JSON field names such as
 * `enablePDB` for `enablePdb`). `prop` names the position as the user wrote it.
 * @internal
 */
export function refuseLosses(scope: ErrorScope, prop: string, given: unknown, written: unknown): void {
  if (given === undefined) return;
  if (isPlain(given)) {
    const out = isPlain(written) ? written : {};
    for (const [k, v] of Object.entries(given)) {
      if (v === undefined) continue;
      const key = k in out ? k : Object.keys(out).find((o) => norm(o) === norm(k));
      if (key === undefined) {
        invalid(
          scope,
          `${prop}.${k}`,
          v,
          'would not be written: the Cluster CRD bindings have no such field here, or no such value',
          "check the spelling and the type against the CRD (a quantity is a string such as '5Gi')",
        );
      }
      refuseLosses(scope, `${prop}.${key === k ? k : key}`, v, out[key]);
    }
    return;
  }
  if (Array.isArray(given)) {
    given.forEach((v, i) => refuseLosses(scope, `${prop}[${i}]`, v, Array.isArray(written) ? written[i] : undefined));
    return;
  }
  // A generated quantity / int-or-string class (it has `fromString`) renders as its `value`.
  const valueObject =
    given !== null &&
    typeof given === 'object' &&
    'value' in given &&
    typeof (given.constructor as { fromString?: unknown } | undefined)?.fromString === 'function';
  // A quantity class holding a number is judged by that number: Infinity or NaN has no JSON form.
  const held = valueObject ? (given as { value: unknown }).value : given;
  if (
    (typeof given === 'object' && given !== null && !valueObject) ||
    ['function', 'symbol', 'bigint'].includes(typeof given) ||
    (typeof held === 'number' && !Number.isFinite(held))
  ) {
    invalid(
      scope,
      prop,
      given,
      `is not plain JSON (${typeof given === 'object' ? ((given as object).constructor?.name ?? 'an object') : typeof given})`,
      'write strings, numbers, booleans, arrays and plain objects, as the CRD takes them',
    );
  }
  const expected = valueObject ? (given as { value: unknown }).value : given;
  if (!Object.is(expected, written)) {
    invalid(
      scope,
      prop,
      expected,
      `would be written as ${written === undefined ? 'nothing' : JSON.stringify(written)}`,
      'write plain JSON values (strings, numbers, booleans, arrays, objects), as the CRD takes them',
    );
  }
}

type Converters = Record<string, ((v: unknown) => unknown) | undefined>;
const CONVERTERS = cnpg as unknown as Converters;

/**
 * Converts one field of a generated type to JSON with the generated `toJson_<type>`, which
 * throws a TypeError on a value of another type (a string where a list belongs). Then the
 * deepest field that fails is named, so the caller can refuse it instead of crashing.
 * @internal
 */
export function convertField(
  typeName: string,
  field: string,
  value: unknown,
  prop: string,
): { readonly json: Record<string, unknown> } | { readonly failed: string; readonly value: unknown; readonly reason: string } {
  const convert = CONVERTERS[`toJson_${typeName}`]!;
  try {
    return { json: convert({ [field]: value }) as Record<string, unknown> };
  } catch (e) {
    const childType = typeName + pascal(field);
    if (isPlain(value) && CONVERTERS[`toJson_${childType}`] !== undefined) {
      for (const [k, v] of Object.entries(value)) {
        const inner = convertField(childType, k, v, `${prop}.${k}`);
        if ('failed' in inner) return inner;
      }
    }
    return { failed: prop, value, reason: (e as Error).message };
  }
}
