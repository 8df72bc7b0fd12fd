/*
 * Whether an object can be applied client-side: `kubectl apply` without `--server-side` (and
 * Argo CD's default sync) records the whole object in an annotation, and the API server refuses
 * an object whose annotations together exceed 256 KiB.
 */
import { asObject, isPlainObject, type Json } from '../manifests/json';
import { goJsonString } from './admission/go-json';

/** The annotation client-side apply writes (kubectl v0.36.3 pkg/util/apply.go, v1.LastAppliedConfigAnnotation). */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** apimachinery v0.36.1 pkg/api/validation/objectmeta.go TotalAnnotationSizeLimitB: 256 KiB over all keys and values. */
export const ANNOTATIONS_SIZE_LIMIT = 256 * 1024;

/** Argo CD's per-object sync options annotation (argo-cd v3.5.1 gitops-engine/pkg/sync/common/types.go AnnotationSyncOptions). */
export const ARGOCD_SYNC_OPTIONS_ANNOTATION = 'argocd.argoproj.io/sync-options';

/** The sync option that makes Argo CD apply one object server-side (gitops-engine SyncOptionServerSideApply). */
export const ARGOCD_SERVER_SIDE_APPLY = 'ServerSideApply=true';

/** The UTF-8 length of a value as Go's encoding/json writes it (keys sorted, HTML-safe strings). */
function goJsonBytes(value: unknown): number {
  if (value === null || value === undefined) return 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (typeof value === 'number') return String(value).length;
  if (typeof value === 'string') return Buffer.byteLength(goJsonString(value), 'utf8');
  if (Array.isArray(value)) {
    let n = 2 + Math.max(0, value.length - 1);
    for (const item of value) n += goJsonBytes(item);
    return n;
  }
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((k) => value[k] !== undefined);
    let n = 2 + Math.max(0, keys.length - 1);
    for (const k of keys) n += Buffer.byteLength(goJsonString(k), 'utf8') + 1 + goJsonBytes(value[k]);
    return n;
  }
  return Buffer.byteLength(goJsonString(String(value)), 'utf8');
}

/**
 * The total size of `metadata.annotations` (keys and values, in bytes) after a client-side apply
 * of `object`, as the API server counts it.
 *
 * kubectl (v0.36.3 pkg/cmd/apply/apply.go, pkg/util/apply.go GetModifiedConfiguration) takes the
 * object as read, sets its annotations to the given ones without the last-applied one (an empty
 * map when it had none, so `"annotations":{}` is part of the text), encodes it with
 * apimachinery's UnstructuredJSONScheme (`json.NewEncoder(w).Encode`: sorted keys, HTML-safe
 * strings, a final newline) and stores that text under {@link LAST_APPLIED_ANNOTATION}; the API
 * server adds up the length of every key and value (apimachinery v0.36.1
 * pkg/api/validation/objectmeta.go ValidateAnnotationsSize).
 * @internal
 */
export function clientSideApplyAnnotationsSize(object: Json): number {
  const metadata = asObject(object.metadata) ?? {};
  const others: Record<string, unknown> = {};
  let othersSize = 0;
  for (const [k, v] of Object.entries(asObject(metadata.annotations) ?? {})) {
    if (k === LAST_APPLIED_ANNOTATION || v === undefined) continue;
    others[k] = v;
    othersSize += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(String(v), 'utf8');
  }
  const recorded = { ...object, metadata: { ...metadata, annotations: others } };
  const lastApplied = goJsonBytes(recorded) + 1;
  return othersSize + Buffer.byteLength(LAST_APPLIED_ANNOTATION, 'utf8') + lastApplied;
}

/** The bytes below which {@link tooLargeForClientSideApply} needs no exact count. */
const SURELY_SMALL = ANNOTATIONS_SIZE_LIMIT / 2 - 16 - 1 - LAST_APPLIED_ANNOTATION.length;

/** Deeper than this, the bound gives up and the exact count decides (a deep or self-holding object). */
const BOUND_DEPTH = 100;

/**
 * Whether an upper bound of the JSON text of `value` (Go writes each UTF-16 unit of a string or
 * key as at most 6 bytes, `<` as `\u003c`, a BMP character as 3; a JavaScript number's text is at
 * most 25 characters) stays within `budget`; gives up (false) as soon as it passes it, so an
 * object of ordinary size costs one walk and a large one stops early.
 */
function boundedBy(value: unknown, budget: number, depth: number): number {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'string') return budget - 6 * value.length - 2;
    return budget - 25;
  }
  if (depth > BOUND_DEPTH) return -1;
  let left = budget - 2;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && left >= 0; i++) left = boundedBy(value[i], left - 1, depth + 1);
    return left;
  }
  for (const k in value) {
    left = boundedBy((value as Record<string, unknown>)[k], left - 6 * k.length - 4, depth + 1);
    if (left < 0) return left;
  }
  return left;
}

/**
 * Whether the API server refuses `object` when it is applied client-side.
 *
 * Most objects are far below the limit, so a bound decides them without the exact count: a walk
 * that adds up at most 6 bytes for each UTF-16 unit of a string or key (see {@link boundedBy}),
 * plus `"annotations":{}` and the newline, and stops once it is past half the limit. The other
 * annotations are inside the object, which the bound counts already.
 * @internal
 */
export function tooLargeForClientSideApply(object: Json): boolean {
  if (boundedBy(object, SURELY_SMALL, 0) >= 0) return false;
  try {
    JSON.stringify(object);
  } catch {
    // An object that holds itself (a YAML alias of an ancestor) has no JSON at all: kubectl
    // cannot send it, and the rules that read its fields report what is wrong with it.
    return false;
  }
  return clientSideApplyAnnotationsSize(object) > ANNOTATIONS_SIZE_LIMIT;
}

/**
 * Whether the object asks Argo CD to apply it server-side: its sync options annotation lists
 * `ServerSideApply=true` (argo-cd v3.5.1 gitops-engine/pkg/sync/resource/annotations.go
 * HasAnnotationOption splits the value at commas and trims each option).
 * @internal
 */
export function asksArgoCdForServerSideApply(object: Json): boolean {
  const value = asObject(asObject(object.metadata)?.annotations)?.[ARGOCD_SYNC_OPTIONS_ANNOTATION];
  return typeof value === 'string' && value.split(',').some((o) => o.trim() === ARGOCD_SERVER_SIDE_APPLY);
}
