/**
 * What the API server does to a custom resource before it validates it, done the same way on
 * a copy: drop the fields the schema does not declare (pruning), drop `null`s the schema does
 * not allow, then apply the schema's defaults. Follows kubernetes/apiextensions-apiserver
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
  'annotations', 'creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'finalizers',
  'generateName', 'generation', 'labels', 'managedFields', 'name', 'namespace', 'ownerReferences',
  'resourceVersion', 'selfLink', 'uid',
];
const OBJECT_META_SET = new Set(OBJECT_META_FIELDS);

/** A deep copy of plain JSON data; `undefined` members are left out, as YAML would. */
export function cloneJson(x: unknown): Json {
  if (Array.isArray(x)) return x.map((v) => (v === undefined ? null : cloneJson(v)));
  if (x !== null && typeof x === 'object') {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(x)) if (v !== undefined) out[k] = cloneJson(v);
    return out;
  }
  return x as Json;
}

function isObject(x: unknown): x is { [k: string]: Json } {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function additional(s: StructuralSchema): StructuralSchema | undefined {
  return typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
}

/**
 * Removes, in place, every field the API server would prune from `obj` (a resource root), and
 * reports each one, with the nearest declared name when one is close.
 */
export function pruneUnknownFields(obj: Json, schema: StructuralSchema, issues: SchemaIssue[]): void {
  if (isObject(obj) && isObject(obj.metadata)) {
    for (const k of Object.keys(obj.metadata)) {
      if (OBJECT_META_SET.has(k)) continue;
      issues.push(unknownField(['metadata', k], obj.metadata[k], OBJECT_META_FIELDS));
      delete obj.metadata[k];
    }
  }
  // The resource root is always an embedded resource: apiVersion, kind and metadata stay.
  prune(obj, { ...schema, 'x-kubernetes-embedded-resource': true }, [], issues);
}

function unknownField(path: PathSegments, value: unknown, declared: readonly string[]): SchemaIssue {
  const name = String(path[path.length - 1]);
  const near = nearestName(name, declared);
  const fix = near !== undefined
    ? `did you mean '${near}'?`
    : declared.length
      ? 'remove it, or check the spelling against the CRD'
      : 'remove it: nothing may be set here';
  return issue(path, 'pruned-unknown-field', value,
    'is not a field the CRD declares, so the API server drops it', near !== undefined ? `the field '${near}'` : 'no field of this name', fix,
    near !== undefined ? { didYouMean: near } : {});
}

function prune(x: Json, s: StructuralSchema | undefined, path: (string | number)[], issues: SchemaIssue[]): void {
  if (s?.['x-kubernetes-preserve-unknown-fields']) {
    skipPrune(x, s, path, issues);
    return;
  }
  if (Array.isArray(x)) {
    x.forEach((v, i) => prune(v, s?.items, [...path, i], issues));
    return;
  }
  if (!isObject(x)) return;
  const declared = s?.properties ? Object.keys(s.properties) : [];
  const extra = s ? additional(s) : undefined;
  for (const k of Object.keys(x)) {
    if (s?.['x-kubernetes-embedded-resource'] && META_FIELDS.has(k)) continue;
    const prop = s?.properties?.[k];
    if (prop) prune(x[k], prop, [...path, k], issues);
    else if (extra) prune(x[k], extra, [...path, k], issues);
    else {
      issues.push(unknownField([...path, k], x[k], declared));
      delete x[k];
    }
  }
}

function skipPrune(x: Json, s: StructuralSchema, path: (string | number)[], issues: SchemaIssue[]): void {
  if (Array.isArray(x)) {
    if (s.items) x.forEach((v, i) => skipPrune(v, s.items!, [...path, i], issues));
    return;
  }
  if (!isObject(x)) return;
  const extra = additional(s);
  for (const k of Object.keys(x)) {
    if (s['x-kubernetes-embedded-resource'] && META_FIELDS.has(k)) continue;
    const prop = s.properties?.[k];
    if (prop) prune(x[k], prop, [...path, k], issues);
    else if (extra) prune(x[k], extra, [...path, k], issues);
  }
}

function fieldSchema(s: StructuralSchema | undefined, k: string): StructuralSchema | undefined {
  return s?.properties?.[k] ?? (s ? additional(s) : undefined);
}

/** Removes, in place, the `null`s the API server drops (non-nullable, no default), reporting each. */
export function pruneNulls(x: Json, s: StructuralSchema | undefined, path: (string | number)[], issues: SchemaIssue[]): void {
  if (Array.isArray(x)) {
    x.forEach((v, i) => pruneNulls(v, s?.items, [...path, i], issues));
    return;
  }
  if (!isObject(x)) return;
  for (const k of Object.keys(x)) {
    const fs = fieldSchema(s, k);
    if (x[k] === null && fs && !fs.nullable && fs.default === undefined) {
      issues.push(issue([...path, k], 'null-dropped', null,
        'is not allowed here (the field is not nullable), so the API server drops the field', 'a value, or no field',
        'set a value, or leave the field out'));
      delete x[k];
    } else {
      pruneNulls(x[k], fs, [...path, k], issues);
    }
  }
}

function isNonNullableNull(x: Json | undefined, s: StructuralSchema | undefined): boolean {
  return x === null && (s === undefined || !s.nullable);
}

/**
 * Applies the schema's `default`s to `x` in place, where the field is absent or a `null` the
 * schema does not allow, the way the API server does when it decodes a request.
 */
export function applyDefaultsInPlace(x: Json, s: StructuralSchema | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    x.forEach((v, i) => {
      if (s.items?.default !== undefined && isNonNullableNull(v, s.items)) x[i] = cloneJson(s.items.default);
      applyDefaultsInPlace(x[i], s.items);
    });
    return;
  }
  if (!isObject(x)) return;
  for (const [k, prop] of Object.entries(s.properties ?? {})) {
    if (prop.default === undefined) continue;
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
