import * as cnpg from '../../imports/postgresql.cnpg.io';
import { isPlainObject } from '../manifests/json';

/*
 * The generated bindings type a Kubernetes quantity or int-or-string field as a class
 * (`ClusterSpecStoragePvcTemplateResourcesRequests.fromString('5Gi')`) and render it as
 * `obj.x?.value`: a plain '5Gi' from a JavaScript caller, or from an object literal typed `any`,
 * is then written as nothing. They also rebuild every object from the fields they know, so a
 * misspelt key vanishes. `wrapValues` and `convertField` prepare and convert a passthrough;
 * `jsonProblem` (src/common/plain-json.ts) with the converted JSON as `written` then refuses
 * what would not be written exactly as given.
 */

type Classes = Record<string, { fromString?: (v: string) => unknown; fromNumber?: (v: number) => unknown } | undefined>;
const CLASSES = cnpg as unknown as Classes;

const pascal = (key: string): string => key.charAt(0).toUpperCase() + key.slice(1);

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
  if (!isPlainObject(value)) return value;
  // A map of value classes (requests: { storage: '5Gi' }) is named after the map itself.
  const mapOfValues = valueClass(typeName) !== undefined;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, wrapValues(v, mapOfValues ? typeName : typeName + pascal(k), mapOfValues ? undefined : typeName)]),
  );
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
    if (isPlainObject(value) && CONVERTERS[`toJson_${childType}`] !== undefined) {
      for (const [k, v] of Object.entries(value)) {
        const inner = convertField(childType, k, v, `${prop}.${k}`);
        if ('failed' in inner) return inner;
      }
    }
    return { failed: prop, value, reason: (e as Error).message };
  }
}
