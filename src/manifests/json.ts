/*
 * The one JSON type and accessor set of the library, for untrusted manifest JSON (anyone's YAML,
 * a rendered ApiObject): every reader checks what it finds, so no reader throws on odd input.
 * Only own properties are read, so a key such as `constructor` or `__proto__` in the input is
 * data, never something inherited.
 */

/** A JSON object. */
export type Json = Record<string, unknown>;

/** The value if it is a plain object (not an array, not null). */
export function asObject(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The value if it is a string. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value if it is an array, else an empty array. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The array's plain objects, with their positions. */
export function objectsOf(value: unknown): Array<{ item: Json; i: number }> {
  const out: Array<{ item: Json; i: number }> = [];
  asArray(value).forEach((v, i) => {
    const o = asObject(v);
    if (o) out.push({ item: o, i });
  });
  return out;
}

/** Follows a path of keys through nested objects. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let cur: unknown = value;
  for (const k of keys) {
    const o = asObject(cur);
    if (!o || !Object.prototype.hasOwnProperty.call(o, k)) return undefined;
    cur = o[k];
  }
  return cur;
}

/** The string entries of a map (labels, selectors); other values are dropped. */
export function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const o = asObject(value);
  if (!o) return out;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

/**
 * A rendered Kubernetes object or a part of one (`ApiObject.toJson()` output, a parsed
 * manifest), read by shape. The code that reads it checks what it finds (arrays with
 * `Array.isArray`, strings with `typeof`), so this alias is the one place where that JSON is
 * untyped.
 * @internal
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RenderedJson = any;

/** A path as a list of keys and indexes, rendered the way a user reads it. */
export type PathSegments = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Renders `['spec', 'plugins', 0, 'isWALArchiver']` as `spec.plugins[0].isWALArchiver`, and a key such as `cnpg.io/pluginName` as `["cnpg.io/pluginName"]`. */
export function formatPath(segments: PathSegments): string {
  let out = '';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out === '' ? '<root>' : out;
}

/** A plain object (an object literal or `Object.create(null)`), not a class instance. @internal */
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** `metadata.name` (`''` when missing) and `metadata.namespace` of an object. */
export function objectMeta(o: Json): { name: string; namespace?: string } {
  return { name: asString(dig(o, 'metadata', 'name')) ?? '', namespace: asString(dig(o, 'metadata', 'namespace')) };
}

/**
 * A value as JSON for a message; input that contains itself (a YAML alias of an ancestor) or
 * cannot be written as JSON is described instead, since the doctor never throws on input.
 */
export function jsonText(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Containers nested deeper than this are called different: the comparison stays bounded on any input. */
const MAX_COMPARED_DEPTH = 1000;

/**
 * The first place where two JSON values differ, as a field path (`spec.containers[0].image`;
 * `''` for the values themselves), or undefined when they are equal: `differences(a, b, 1)`.
 */
export function firstDifference(a: unknown, b: unknown): string | undefined {
  return differences(a, b, 1)[0]?.path;
}

/** A place where two JSON values differ, and the value on each side (undefined where it is missing). */
export interface JsonChange {
  readonly path: string;
  readonly before: unknown;
  readonly after: unknown;
}

/**
 * The deepest places where two JSON values differ, as field paths in sorted key order
 * (`spec.bootstrap.recovery.recoveryTarget.targetTime`; `''` for the values themselves), at most
 * `limit` of them. A key present on one side only is a difference at that key; an array whose
 * length changes is one at the array (its items moved, so an index would not name them). Key
 * order does not count and a key set to `undefined` is a missing key, as in JSON. Safe on any
 * input: it neither recurses nor loops on a value that contains itself (a YAML alias of an
 * ancestor).
 */
export function differences(a: unknown, b: unknown, limit = Number.POSITIVE_INFINITY): JsonChange[] {
  const out: JsonChange[] = [];
  const stack: Array<[unknown, unknown, string, number]> = [[a, b, '', 0]];
  while (stack.length > 0 && out.length < limit) {
    const [x, y, path, depth] = stack.pop()!;
    if (x === y) continue;
    const xs = Array.isArray(x);
    const xo = !xs ? asObject(x) : undefined;
    const yo = !Array.isArray(y) ? asObject(y) : undefined;
    if (depth >= MAX_COMPARED_DEPTH) {
      out.push({ path, before: x, after: y });
    } else if (xs && Array.isArray(y)) {
      if (x.length !== y.length) out.push({ path, before: x, after: y });
      else for (let i = x.length - 1; i >= 0; i--) stack.push([x[i], y[i], `${path}[${i}]`, depth + 1]);
    } else if (xo && yo) {
      const keys = [...new Set([...Object.keys(xo), ...Object.keys(yo)])].filter((k) => xo[k] !== undefined || yo[k] !== undefined).sort();
      for (let i = keys.length - 1; i >= 0; i--) stack.push([xo[keys[i]], yo[keys[i]], path === '' ? keys[i] : `${path}.${keys[i]}`, depth + 1]);
    } else if (!(Number.isNaN(x) && Number.isNaN(y))) {
      out.push({ path, before: x, after: y });
    }
  }
  return out;
}
