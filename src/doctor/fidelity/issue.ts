/**
 * The neutral result of a fidelity check: the registry turns each into a finding with its rule
 * id, so these functions know nothing about rule ids, objects' positions or output formats.
 * @internal
 */
export interface FidelityIssue {
  /** `error`: the operator, a plugin or an admission webhook fails; `warning`: it may work. */
  readonly severity: 'error' | 'warning';
  /** The field path inside the object, e.g. `spec.bootstrap.recovery.source`. */
  readonly path: string;
  /** What happens, in the upstream code's terms. */
  readonly message: string;
  /** What to write instead. */
  readonly fix: string;
}

/** A plain manifest object. @internal */
export type Obj = Record<string, unknown>;

/** @internal */
export function obj(value: unknown): Obj | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : undefined;
}

/** @internal */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** @internal */
export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Follows object keys; undefined as soon as one is missing. @internal */
export function at(value: unknown, ...keys: string[]): unknown {
  let v = value;
  for (const k of keys) {
    const o = obj(v);
    if (!o) return undefined;
    v = o[k];
  }
  return v;
}

/** The string entries of a map (labels, annotations, parameters). @internal */
export function strings(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const o = obj(value);
  if (o) for (const [k, v] of Object.entries(o)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** `metadata.name`, `metadata.namespace`. @internal */
export function meta(o: Obj): { name: string; namespace?: string } {
  return { name: str(at(o, 'metadata', 'name')) ?? '', namespace: str(at(o, 'metadata', 'namespace')) };
}

/**
 * A value as JSON for a message; input that contains itself (a YAML alias of an ancestor) or
 * cannot be written as JSON is described instead, since the doctor never throws on input.
 * @internal
 */
export function jsonText(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text;
  } catch {
    return Object.prototype.toString.call(value);
  }
}
