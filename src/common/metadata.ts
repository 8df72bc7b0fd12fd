import { ApiObjectMetadata } from 'cdk8s';
import { ErrorScope, invalid } from './errors';
import { isDnsLabel, isDnsSubdomain, typeName, validateLabelKey, validateLabels, validateStringArray, validateStringMap } from './validate';

const METADATA_FIELDS = ['name', 'namespace', 'labels', 'annotations', 'finalizers', 'ownerReferences'];

/**
 * Checks the `metadata` prop of a construct that writes one object: the fields `ApiObjectMetadata`
 * has and the values the API server accepts (a DNS subdomain name, a DNS label namespace, valid
 * label and annotation keys). Anything else would be written as given, or fail inside cdk8s at
 * synthesis. Returns a copy without undefined fields, so an explicit `name: undefined` keeps the
 * generated name. Constructs with stricter rules for `name` check it before calling this.
 * @internal
 */
export function validateMetadata(scope: ErrorScope, prop: string, value: unknown, fix: string): ApiObjectMetadata {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(scope, prop, value, `must be an object, not ${typeName(value)}`, fix);
  }
  const m = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m)) {
    if (!METADATA_FIELDS.includes(k)) {
      invalid(scope, `${prop}.${k}`, v, 'is not a metadata field this construct can write', `use ${METADATA_FIELDS.join(', ')}`);
    }
    if (v !== undefined) out[k] = v;
  }
  if (out.name !== undefined && !isDnsSubdomain(out.name as string)) {
    invalid(
      scope,
      `${prop}.name`,
      out.name,
      'is not an object name (a lower-case DNS subdomain)',
      'use lower-case letters, digits, - and ., or leave it out to let cdk8s generate one',
    );
  }
  if (out.namespace !== undefined && !isDnsLabel(out.namespace as string)) {
    invalid(
      scope,
      `${prop}.namespace`,
      out.namespace,
      'is not a namespace name (an RFC 1123 label)',
      "use lower-case letters, digits and '-', e.g. 'databases'",
    );
  }
  if (out.labels !== undefined) out.labels = validateLabels(scope, `${prop}.labels`, out.labels);
  if (out.annotations !== undefined) {
    const annotations = validateStringMap(scope, `${prop}.annotations`, out.annotations);
    for (const k of Object.keys(annotations)) validateLabelKey(scope, `${prop}.annotations`, k, 'annotation');
    out.annotations = annotations;
  }
  if (out.finalizers !== undefined) out.finalizers = validateStringArray(scope, `${prop}.finalizers`, out.finalizers);
  if (out.ownerReferences !== undefined) {
    if (!Array.isArray(out.ownerReferences)) {
      invalid(
        scope,
        `${prop}.ownerReferences`,
        out.ownerReferences,
        `must be an array, not ${typeName(out.ownerReferences)}`,
        'pass [{ apiVersion, kind, name, uid }]',
      );
    }
    validateJson(scope, `${prop}.ownerReferences`, out.ownerReferences);
  }
  return out as ApiObjectMetadata;
}

/**
 * Checks that a value written as is (a typed passthrough of a CRD section) is plain JSON:
 * strings, finite numbers, booleans, null, arrays and plain objects. A Date, a cdk8s Duration,
 * a function or NaN would otherwise fail deep inside cdk8s at synthesis, or be written wrong.
 * The field types themselves are only checked by TypeScript.
 * @internal
 */
export function validateJson(scope: ErrorScope, prop: string, value: unknown): void {
  const walk = (v: unknown, at: string): void => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) invalid(scope, at, v, 'is not a finite number', 'write a number, or leave the field out');
      return;
    }
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        if (x === undefined) invalid(scope, `${at}[${i}]`, x, 'is undefined inside an array', 'remove the item');
        walk(x, `${at}[${i}]`);
      });
      return;
    }
    if (typeof v === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(v))) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x !== undefined) walk(x, `${at}.${k}`);
      }
      return;
    }
    invalid(
      scope,
      at,
      v,
      `is not plain JSON (${typeof v === 'object' ? (v as object).constructor?.name || 'an object' : typeof v})`,
      'write strings, numbers, booleans, arrays and plain objects, as in the CRD',
    );
  };
  walk(value, prop);
}

/**
 * `{ name }` when a fixed name is given, else nothing: cdk8s and cdk8s-plus take an explicit
 * `name: undefined` as the name instead of generating one.
 * @internal
 */
export function nameIf(name: string | undefined): { name?: string } {
  return name === undefined ? {} : { name };
}
