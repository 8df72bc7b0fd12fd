import { ApiObjectMetadata } from 'cdk8s';
import { ErrorScope, invalid } from './errors';
import { isDnsLabel, isDnsSubdomain, wrongType } from './validate';

type Shape = readonly [is: (v: unknown) => boolean, what: string, fix: string];

const isName = (v: unknown): boolean => typeof v === 'string' && isDnsSubdomain(v);
const isNamespace = (v: unknown): boolean => typeof v === 'string' && isDnsLabel(v);
const isMap = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What each metadata field must be before cdk8s and the construct read it: a string `labels`
 * would be spread into a map of its characters, a string `finalizers` into a list of letters.
 * The name and the namespace are judged here too, not only by the schema guard, because the
 * constructs derive other names from them at construction (a Cluster's Backups are named after
 * it), and a bad one would then be reported about a child's id.
 */
const SHAPES: Readonly<Record<string, Shape>> = {
  name: [isName, 'an object name (a lower-case DNS subdomain)', "use lower-case letters, digits, '-' and '.', e.g. 'orders', or leave it out"],
  namespace: [isNamespace, 'a namespace name (a lower-case DNS label)', "use lower-case letters, digits and '-', e.g. 'databases', or leave it out"],
  labels: [isMap, 'an object of strings', "pass e.g. { team: 'db' }"],
  annotations: [isMap, 'an object of strings', "pass e.g. { 'example.com/owner': 'db' }"],
  finalizers: [Array.isArray, 'a list of strings', "pass e.g. ['example.com/cleanup']"],
  ownerReferences: [Array.isArray, 'a list of owner references', 'pass [{ apiVersion, kind, name, uid }]'],
};

/**
 * Checks the `metadata` prop of a construct that writes one object, after its keys were checked
 * (`refuseUnknownKeys`): each field has the type cdk8s can render (the name and namespace their
 * form), and the whole is plain JSON. What else the API server checks in them (label and
 * annotation keys and values, distinct finalizers, owner references with a uid, the name rule
 * of the kind) is the schema guard's to judge at synth (src/schema/object-meta.ts
 * objectMetaIssues), so it is not checked twice. Returns a copy without undefined fields, so an explicit `name: undefined` keeps the
 * generated name.
 * @internal
 */
export function validateMetadata(scope: ErrorScope, prop: string, value: Record<string, unknown>): ApiObjectMetadata {
  const out = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
  const bad = Object.entries(out).find(([k, v]) => SHAPES[k] !== undefined && !SHAPES[k][0](v));
  if (bad !== undefined) {
    const [field, v] = bad;
    invalid(
      scope,
      `${prop}.${field}`,
      v,
      typeof v === 'string' && (field === 'name' || field === 'namespace') ? `is not ${SHAPES[field][1]}` : wrongType(SHAPES[field][1], v),
      SHAPES[field][2],
    );
  }
  validateJson(scope, prop, out);
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
        if (x === undefined) invalid(scope, `${at}[${i}]`, x, 'is an empty item of the list', 'remove the item');
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
