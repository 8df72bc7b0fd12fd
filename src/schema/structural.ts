/**
 * What the API server does to a custom resource before it validates it, done the same way on
 * a copy: drop the fields the schema does not declare (pruning), drop `null`s the schema does
 * not allow, then apply the schema's defaults, in one pass. Follows kubernetes/apiextensions-apiserver
 * v0.32.13: pkg/apiserver/schema/pruning/algorithm.go `prune`/`skipPrune`,
 * pkg/apiserver/schema/defaulting/prunenulls.go `PruneNonNullableNullsWithoutDefaults`,
 * pkg/apiserver/schema/defaulting/algorithm.go `Default`, in the order
 * pkg/apiserver/customresource_handler.go `unstructuredSchemaCoercer.apply` and
 * `unstructuredDefaulter.Default` run them.
 */
import { StructuralSchema } from './crd-schemas';
import { issue, nearestName, PathSegments, SchemaIssue } from './issue';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * The fields of `metadata` (ObjectMeta) a client may send. Anything else in `metadata` is
 * dropped when the object is decoded (k8s.io/apimachinery v0.32.13
 * pkg/apis/meta/v1/types.go `ObjectMeta`).
 */
export const OBJECT_META_FIELDS: readonly string[] = [
  'annotations',
  'creationTimestamp',
  'deletionGracePeriodSeconds',
  'deletionTimestamp',
  'finalizers',
  'generateName',
  'generation',
  'labels',
  'managedFields',
  'name',
  'namespace',
  'ownerReferences',
  'resourceVersion',
  'selfLink',
  'uid',
];
const OBJECT_META_SET = new Set(OBJECT_META_FIELDS);

/** How deep the copies go before they start watching for a value that holds itself. */
const UNWATCHED_DEPTH = 64;
/** Thrown by a copy that went deeper than {@link UNWATCHED_DEPTH} without watching. */
const TOO_DEEP = Symbol('too deep');

/**
 * Runs `copy` without watching for cycles (`ancestors` undefined: nothing to add to and look up
 * at every node), then, only for a value nested deeper than {@link UNWATCHED_DEPTH} (every value
 * that holds itself is), again from the start with the ancestors watched: the same copy.
 */
function copyOnce(copy: (ancestors: Set<object> | undefined) => Json): Json {
  try {
    return copy(undefined);
  } catch (e) {
    if (e !== TOO_DEEP) throw e;
    return copy(new Set());
  }
}

/**
 * Enters `x` for a copy: false when `x` is an ancestor (a YAML alias of it makes a cycle, the
 * copy leaves the inner reference out), and throws {@link TOO_DEEP} when the copy is not watching
 * and is deep enough to be in a cycle.
 */
function enter(x: object, ancestors: Set<object> | undefined, depth: number): boolean {
  if (ancestors === undefined) {
    if (depth > UNWATCHED_DEPTH) throw TOO_DEEP;
    return true;
  }
  if (ancestors.has(x)) return false;
  ancestors.add(x);
  return true;
}

/** A deep copy of plain JSON data; `undefined` members are left out, as YAML would. */
export function cloneJson(x: unknown): Json {
  return copyOnce((ancestors) => copyJson(x, ancestors, 0));
}

function copyJson(x: unknown, ancestors: Set<object> | undefined, depth: number): Json {
  if (x === null || typeof x !== 'object') return x as Json;
  if (!enter(x, ancestors, depth)) return null;
  let out: Json;
  if (Array.isArray(x)) out = x.map((v) => (v === undefined ? null : copyJson(v, ancestors, depth + 1)));
  else {
    const o: { [k: string]: Json } = {};
    const from = x as Record<string, unknown>;
    for (const k of Object.keys(from)) if (from[k] !== undefined) o[k] = copyJson(from[k], ancestors, depth + 1);
    out = o;
  }
  ancestors?.delete(x);
  return out;
}

function isObject(x: unknown): x is { [k: string]: Json } {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function additional(s: StructuralSchema): StructuralSchema | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/**
 * The object as the API server would validate it on create, built in one pass: a copy with the
 * fields it prunes left out (each reported, with the nearest declared name when one is close),
 * the `null`s it drops left out (each reported), and the schema's defaults applied. `obj` is not
 * changed; the result shares with it every subtree that needed no change, so it is for reading
 * only.
 */
export function coerceResource(obj: unknown, schema: StructuralSchema, issues: SchemaIssue[]): Json {
  const root = cloneShallowRoot(obj);
  if (isObject(root) && isObject(root.metadata)) {
    // The metadata is shared when it holds no cycle (a YAML alias of an ancestor), a copy
    // otherwise; it is copied (again) only without the fields ObjectMeta lacks.
    const given = root.metadata;
    const keys = Object.keys(given);
    let meta: { [k: string]: Json } | undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (OBJECT_META_SET.has(k)) {
        if (meta) meta[k] = given[k];
      } else {
        meta ??= copyBefore(given, keys, i);
        issues.push(unknownField(['metadata', k], given[k], OBJECT_META_FIELDS));
      }
    }
    if (meta) root.metadata = meta;
  }
  return coerce(root, rootSchemaOf(schema), [], issues, false);
}

const rootSchemas = new WeakMap<StructuralSchema, StructuralSchema>();

/** The resource root is always an embedded resource: apiVersion, kind and metadata stay (one copy per schema). */
function rootSchemaOf(schema: StructuralSchema): StructuralSchema {
  let root = rootSchemas.get(schema);
  if (!root) {
    root = { ...schema, 'x-kubernetes-embedded-resource': true };
    rootSchemas.set(schema, root);
  }
  return root;
}

const defaultedCache = new WeakMap<Readonly<Record<string, StructuralSchema>>, readonly [string, StructuralSchema][]>();

/** The declared properties that have a `default`, listed once per schema node (most have none). */
function defaulted(declared: Readonly<Record<string, StructuralSchema>>): readonly [string, StructuralSchema][] {
  let list = defaultedCache.get(declared);
  if (!list) {
    list = Object.entries(declared).filter(([, prop]) => prop.default !== undefined);
    defaultedCache.set(declared, list);
  }
  return list;
}

/** Whether no value under `x` contains itself (`stack`: the objects above `x`). */
function isTree(x: object, stack: object[]): boolean {
  if (stack.includes(x)) return false;
  stack.push(x);
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v !== null && typeof v === 'object' && !isTree(v, stack)) return false;
  }
  stack.pop();
  return true;
}

function cloneShallowRoot(obj: unknown): Json {
  if (!isObject(obj)) return cloneJson(obj);
  const out: { [k: string]: Json } = {};
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (v !== undefined) out[k] = k === 'metadata' && isObject(v) && !isTree(v, []) ? cloneJson(v) : v;
  }
  return out;
}

/**
 * One node: prune (or, under preserve-unknown-fields, keep) unknown keys, drop disallowed
 * nulls, recurse, then default the absent properties, as `prune`/`skipPrune`,
 * `PruneNonNullableNullsWithoutDefaults` and `Default` do in turn.
 */
const CYCLE = Symbol('cycle');

function coerce(
  x: Json,
  s: StructuralSchema | undefined,
  path: (string | number)[],
  issues: SchemaIssue[],
  preserving: boolean,
  ancestors: Set<object> = new Set(),
): Json {
  if (x === null || typeof x !== 'object') return x;
  if (ancestors.has(x)) {
    issues.push(
      issue(
        [...path],
        'schema',
        undefined,
        'contains itself (a YAML alias of an ancestor), which cannot be sent to the API server',
        'a value without cycles',
        'replace the alias with a copy of the value',
      ),
    );
    return CYCLE as unknown as Json;
  }
  // No try/finally: `ancestors` belongs to one coerceResource call, which an exception ends.
  ancestors.add(x);
  const r = coerceNode(x, s, path, issues, preserving, ancestors);
  ancestors.delete(x);
  return r;
}

function coerceNode(
  x: Json,
  s: StructuralSchema | undefined,
  path: (string | number)[],
  issues: SchemaIssue[],
  preserving: boolean,
  ancestors: Set<object>,
): Json {
  // Under x-kubernetes-preserve-unknown-fields (skipPrune), unknown keys stay, declared ones are
  // pruned as usual, and list items stay in the preserving mode.
  const preserve = preserving || Boolean(s?.['x-kubernetes-preserve-unknown-fields']);
  // Copy on write: a node that nothing prunes, drops or defaults is returned as it is, so a
  // clean object allocates nothing (the result is only read, and `obj` is never written to).
  if (Array.isArray(x)) {
    const items = s?.items;
    let list: Json[] | undefined;
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      path.push(i);
      let r =
        v === null && items?.default !== undefined && !items.nullable
          ? coerce(cloneJson(items.default), items, path, issues, false, ancestors)
          : coerce(v, items, path, issues, preserve, ancestors);
      path.pop();
      if (r === (CYCLE as unknown)) r = null;
      if (r !== v && !list) list = x.slice(0, i);
      if (list) list.push(r);
    }
    return list ?? x;
  }
  if (!isObject(x)) return x;
  let out: { [k: string]: Json } | undefined;
  const keys = Object.keys(x);
  const declared = s?.properties;
  const extra = s ? additional(s) : undefined;
  const embedded = Boolean(s?.['x-kubernetes-embedded-resource']);
  // `path` is one shared stack: an issue copies it, a clean node allocates nothing.
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = x[k];
    if (v === undefined) {
      out ??= copyBefore(x, keys, i);
      continue;
    }
    if (embedded && META_FIELDS.has(k)) {
      // The resource root's metadata was prepared by coerceResource; a nested embedded
      // resource's is copied (which also cuts a YAML alias cycle).
      if (path.length === 0) {
        if (out) out[k] = v;
        continue;
      }
      out ??= copyBefore(x, keys, i);
      out[k] = cloneJson(v);
      continue;
    }
    const fs = declared?.[k] ?? extra;
    if (!fs) {
      out ??= copyBefore(x, keys, i);
      if (preserve) out[k] = cloneJson(v);
      else issues.push(unknownField([...path, k], v, declared ? Object.keys(declared) : []));
      continue;
    }
    if (v === null && !fs.nullable) {
      out ??= copyBefore(x, keys, i);
      if (fs.default === undefined) {
        issues.push(
          issue(
            [...path, k],
            'null-dropped',
            null,
            'is not allowed here (the field is not nullable), so the API server drops the field',
            'a value, or no field',
            'set a value, or leave the field out',
          ),
        );
        continue;
      }
      path.push(k);
      out[k] = coerce(cloneJson(fs.default), fs, path, issues, false, ancestors);
      path.pop();
      continue;
    }
    path.push(k);
    const r = coerce(v, fs, path, issues, false, ancestors);
    path.pop();
    if (r === (CYCLE as unknown)) {
      out ??= copyBefore(x, keys, i);
      continue;
    }
    if (r !== v) out ??= copyBefore(x, keys, i);
    if (out) out[k] = r;
  }
  if (declared) {
    for (const [k, prop] of defaulted(declared)) {
      const present = out ? k in out : Object.prototype.hasOwnProperty.call(x, k) && x[k] !== undefined;
      if (!present) {
        out ??= copyBefore(x, keys, keys.length);
        out[k] = defaultOf(prop);
      }
    }
  }
  return out ?? x;
}

const defaults = new WeakMap<StructuralSchema, Json>();

/**
 * The value an absent property with a `default` takes: the default with the defaults under it
 * applied, made once per schema node and shared, frozen, by every copy that needs it (a copy is
 * only read).
 */
function defaultOf(prop: StructuralSchema): Json {
  let value = defaults.get(prop);
  if (value === undefined) {
    value = deepFreeze(applyDefaultsTo(cloneJson(prop.default), prop));
    defaults.set(prop, value);
  }
  return value;
}

function deepFreeze(x: Json): Json {
  if (x !== null && typeof x === 'object') {
    for (const v of Object.values(x)) deepFreeze(v);
    Object.freeze(x);
  }
  return x;
}

/** Starts the copy of `x` with its keys before `i`, which were kept as they are. */
function copyBefore(x: { [k: string]: Json }, keys: readonly string[], i: number): { [k: string]: Json } {
  const o: { [k: string]: Json } = {};
  for (let j = 0; j < i; j++) if (x[keys[j]] !== undefined) o[keys[j]] = x[keys[j]];
  return o;
}

function applyDefaultsTo(x: Json, s: StructuralSchema): Json {
  applyDefaultsInPlace(x, s);
  return x;
}

function unknownField(path: PathSegments, value: unknown, declared: readonly string[]): SchemaIssue {
  const name = String(path[path.length - 1]);
  const near = nearestName(name, declared);
  const fix =
    near !== undefined
      ? `did you mean '${near}'?`
      : declared.length
        ? 'remove it, or check the spelling against the CRD'
        : 'remove it: nothing may be set here';
  return issue(
    path,
    'pruned-unknown-field',
    value,
    'is not a field the CRD declares, so the API server drops it',
    near !== undefined ? `the field '${near}'` : 'no field of this name',
    fix,
    near !== undefined ? { didYouMean: near } : {},
  );
}

function isNonNullableNull(x: Json | undefined, s: StructuralSchema | undefined): boolean {
  return x === null && (s === undefined || !s.nullable);
}

const withDefaults = new WeakMap<StructuralSchema, boolean>();

/** Whether a `default` is declared anywhere under `s` (its properties, items or additional properties, at any depth), once per schema node. */
function defaultsWithin(s: StructuralSchema): boolean {
  let known = withDefaults.get(s);
  if (known === undefined) {
    // A schema that refers to itself would be no structural schema; it is taken as having defaults while it is looked at.
    withDefaults.set(s, true);
    const extra = additional(s);
    const below = [...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : []), ...(extra ? [extra] : [])];
    known = below.some((b) => b.default !== undefined || defaultsWithin(b));
    withDefaults.set(s, known);
  }
  return known;
}

/**
 * A deep copy of `x` (as {@link cloneJson} makes it) with the schema's `default`s applied (as
 * {@link applyDefaultsInPlace} applies them), made in one walk: the same result as copying, then
 * defaulting the copy, without walking the defaulted branches twice.
 */
export function cloneWithDefaults(x: unknown, s: StructuralSchema | undefined): Json {
  return copyOnce((ancestors) => copyWithDefaults(x, s, ancestors, 0));
}

function copyWithDefaults(x: unknown, s: StructuralSchema | undefined, ancestors: Set<object> | undefined, depth: number): Json {
  if (!s || x === null || typeof x !== 'object' || !defaultsWithin(s)) return copyJson(x, ancestors, depth);
  if (!enter(x, ancestors, depth)) return null;
  let out: Json;
  if (Array.isArray(x)) {
    const items = s.items;
    out = x.map((v) => {
      let c = v === undefined ? null : copyWithDefaults(v, items, ancestors, depth + 1);
      if (items?.default !== undefined && isNonNullableNull(c, items)) {
        c = cloneJson(items.default);
        applyDefaultsInPlace(c, items);
      }
      return c;
    });
  } else {
    const o: { [k: string]: Json } = {};
    const from = x as Record<string, unknown>;
    const extra = additional(s);
    for (const k of Object.keys(from)) {
      if (from[k] === undefined) continue;
      const sub = s.properties?.[k] ?? extra;
      let c = copyWithDefaults(from[k], sub, ancestors, depth + 1);
      if (sub?.default !== undefined && isNonNullableNull(c, sub)) {
        c = cloneJson(sub.default);
        applyDefaultsInPlace(c, sub);
      }
      o[k] = c;
    }
    // absent properties with a default come last, in the schema's order, as applyDefaultsInPlace adds them
    for (const [k, prop] of s.properties ? defaulted(s.properties) : []) {
      if (k in o) continue;
      const c = cloneJson(prop.default);
      applyDefaultsInPlace(c, prop);
      o[k] = c;
    }
    out = o;
  }
  ancestors?.delete(x);
  return out;
}

/**
 * Applies the schema's `default`s to `x` in place, where the field is absent or a `null` the
 * schema does not allow, the way the API server does when it decodes a request.
 */
export function applyDefaultsInPlace(x: Json, s: StructuralSchema | undefined): void {
  // Most of an object lies under schema nodes with no `default` anywhere below: nothing to write there.
  if (!s || !defaultsWithin(s)) return;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      if (s.items?.default !== undefined && isNonNullableNull(v, s.items)) x[i] = cloneJson(s.items.default);
      applyDefaultsInPlace(x[i], s.items);
    });
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of s.properties ? defaulted(s.properties) : []) {
    if (!(k in x) || isNonNullableNull(x[k], prop)) x[k] = cloneJson(prop.default);
  }
  const extra = additional(s);
  for (const k of Object.keys(x)) {
    const prop = s.properties?.[k];
    if (prop) applyDefaultsInPlace(x[k], prop);
    else if (extra) {
      if (extra.default !== undefined && isNonNullableNull(x[k], extra)) x[k] = cloneJson(extra.default);
      applyDefaultsInPlace(x[k], extra);
    }
  }
}
