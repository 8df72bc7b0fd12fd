import { ErrorScope, Problem, refuseProblem } from '../manifests/errors';
import { isPlainObject } from '../manifests/json';

/*
 * The one walk that refuses values the library cannot write as they are given: used for the
 * props written as is (metadata, passthrough sections) and, with `written`, for the Cluster spec
 * after the generated bindings converted it (src/postgres/postgres-cluster.ts render).
 */

const NOT_JSON_FIX = 'write strings, numbers, booleans, arrays and plain objects, as the CRD takes them';

/** Keys compared as the generated bindings rename them (`enablePdb` is written `enablePDB`). */
const norm = (k: string): string => k.toLowerCase().replace(/[-_]/g, '');

/**
 * Whether `v` is an instance of a generated quantity / int-or-string class
 * (`ClusterSpecStoragePvcTemplateResourcesRequests.fromString('5Gi')`), which the bindings write
 * as its `value`.
 */
function isValueObject(v: unknown): v is { readonly value: unknown } {
  return v !== null && typeof v === 'object' && 'value' in v && typeof (v.constructor as { fromString?: unknown } | undefined)?.fromString === 'function';
}

/**
 * Options of {@link jsonProblem}.
 * @internal
 */
export interface JsonProblemOptions {
  /**
   * What will be written for the value (the JSON the generated bindings made of it): then every
   * key and leaf of the value must come out unchanged there, keys compared as the bindings rename
   * them, and a generated quantity class stands for the value it holds.
   */
  readonly written: unknown;
}

/**
 * The first part of `value` (at `prop`, the path as the user wrote it) that is not plain JSON:
 * strings, finite numbers, booleans, null, arrays without empty items and plain objects (members
 * that are `undefined` are left out, as YAML would). A Date, a cdk8s Duration, a function or NaN
 * would otherwise fail deep inside cdk8s at synthesis, or be written wrong. With `written`, also
 * the first part that the conversion dropped or changed.
 * @internal
 */
export function jsonProblem(value: unknown, prop: string, options?: JsonProblemOptions): Problem | undefined {
  return walk(value, prop, options !== undefined, options?.written);
}

function walk(v: unknown, at: string, compare: boolean, written: unknown): Problem | undefined {
  if (isPlainObject(v)) {
    const out = isPlainObject(written) ? written : {};
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) continue;
      const key = !compare || k in out ? k : Object.keys(out).find((o) => norm(o) === norm(k));
      if (key === undefined) {
        return {
          prop: `${at}.${k}`,
          value: x,
          problem: 'would not be written: the Cluster CRD bindings have no such field here, or no such value',
          fix: "check the spelling and the type against the CRD (a quantity is a string such as '5Gi')",
        };
      }
      const problem = walk(x, `${at}.${key}`, compare, out[key]);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const problem =
        v[i] === undefined
          ? { prop: `${at}[${i}]`, value: undefined, problem: 'is an empty item of the list', fix: 'remove the item' }
          : walk(v[i], `${at}[${i}]`, compare, Array.isArray(written) ? written[i] : undefined);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  // A quantity class holding a number is judged by that number: Infinity or NaN has no JSON form.
  const valueObject = compare && isValueObject(v);
  const held = valueObject ? v.value : v;
  const json = held === null || typeof held === 'string' || typeof held === 'boolean' || (typeof held === 'number' && Number.isFinite(held));
  if (!json || (typeof v === 'object' && v !== null && !valueObject)) {
    const kind = typeof v === 'object' && v !== null ? v.constructor?.name || 'an object' : typeof v;
    return { prop: at, value: v, problem: `is not plain JSON (${kind})`, fix: NOT_JSON_FIX };
  }
  if (compare && !Object.is(held, written)) {
    return {
      prop: at,
      value: held,
      problem: `would be written as ${written === undefined ? 'nothing' : JSON.stringify(written)}`,
      fix: 'write plain JSON values (strings, numbers, booleans, arrays, objects), as the CRD takes them',
    };
  }
  return undefined;
}

/**
 * Refuses a value written as is (a typed passthrough of a CRD section, metadata) that is not plain
 * JSON ({@link jsonProblem}). The field types themselves are the schema guard's to judge at synth.
 * @internal
 */
export function validateJson(scope: ErrorScope, prop: string, value: unknown): void {
  refuseProblem(scope, jsonProblem(value, prop));
}
