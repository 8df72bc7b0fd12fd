import { celIssues, planRule } from './cel';
import { crdSchema, CrdSchemaEntry, crdSchemaKeys, StructuralSchema } from './crd-schemas';
import { SchemaIssue, issue } from './issue';
import { objectMetaIssues, servicePortIssues } from './object-meta';
import { schemaIssues } from './openapi';
import { cloneJson, cloneWithDefaults, coerceResource } from './structural';

/** Options of {@link validateObject} and {@link validateCustomResource}. */
export interface SchemaValidationOptions {
  /**
   * Also return a `cel-not-evaluated` issue for each CRD rule present on the object that this
   * library does not evaluate (transition rules, Kubernetes-only CEL functions). Meant for
   * verbose output: such an issue says that a check was skipped, not that the object is wrong.
   * @default false
   */
  readonly reportNotEvaluated?: boolean;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** Whether the project pins a CRD schema for this `apiVersion` and `kind`. */
export function hasCrdSchema(apiVersion: unknown, kind: unknown): boolean {
  return crdSchema(apiVersion, kind) !== undefined;
}

/**
 * Checks a custom resource of a pinned CRD (every CloudNativePG kind: Cluster, Backup,
 * ScheduledBackup, Pooler, Database, DatabaseRole, Publication, Subscription, ImageCatalog,
 * ClusterImageCatalog, FailoverQuorum; cert-manager Certificate, Issuer, ClusterIssuer; Barman
 * Cloud ObjectStore) the way the API server would on
 * create: on a copy, fields the schema does not declare are pruned and `null`s it does not allow
 * are dropped (each reported), the CRD's defaults are applied, then the OpenAPI schema (with
 * ajv) and the `x-kubernetes-validations` CEL rules are checked, plus the `metadata` rules every
 * object has. `obj` is not changed.
 *
 * Returns no issue for an object whose kind has no pinned CRD; see {@link hasCrdSchema}.
 * The schemas are loaded and compiled on first use, once per process.
 */
export function validateCustomResource(obj: unknown, options: SchemaValidationOptions = {}): SchemaIssue[] {
  if (!isRecord(obj)) return [issue([], 'type', obj, 'is not a Kubernetes object', 'an object', 'pass a parsed manifest')];
  const entry = crdSchema(obj.apiVersion, obj.kind);
  return entry ? validatePinned(obj, entry, options) : [];
}

function validatePinned(obj: Record<string, unknown>, entry: CrdSchemaEntry, options: SchemaValidationOptions): SchemaIssue[] {
  if (entry.statusSubresource && 'status' in obj) {
    // A create cannot set the status of a kind with a status subresource: the API server
    // deletes it before validating (apiextensions-apiserver v0.32.13
    // pkg/registry/customresource/strategy.go customResourceStrategy.PrepareForCreate).
    const { status: _status, ...rest } = obj;
    return validateAgainstSchema(rest, entry.createSchema, options);
  }
  return validateAgainstSchema(obj, entry.createSchema, options);
}

/**
 * Checks a resource against any structural schema (a CRD's `openAPIV3Schema`), as
 * {@link validateCustomResource} does for the pinned ones: prune (reported), drop disallowed
 * `null`s (reported), apply defaults, then metadata, OpenAPI and CEL checks. Each distinct
 * schema object is compiled once and kept, so pass the same object again rather than a copy.
 */
export function validateAgainstSchema(obj: Record<string, unknown>, schema: StructuralSchema, options: SchemaValidationOptions = {}): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  const copy = coerceResource(obj, schema, out);
  out.push(...objectMetaIssues(copy as Record<string, unknown>));
  out.push(...schemaIssues(schema, copy));
  celIssues(copy, schema, [], out, options.reportNotEvaluated ?? false);
  return out;
}

/**
 * Checks a core Kubernetes object (or any object without a pinned CRD) for what the API server
 * refuses in every object: `metadata.name` per kind (a DNS-1035 label for a Service, a DNS-1123
 * label for a Namespace, a DNS-1123 subdomain for most kinds), the namespace, label keys and
 * values, annotation keys, finalizers and owner references; and a Service's ports (a string
 * `targetPort` must be a port name).
 */
export function validateCoreObject(obj: unknown): SchemaIssue[] {
  if (!isRecord(obj)) return [issue([], 'type', obj, 'is not a Kubernetes object', 'an object', 'pass a parsed manifest')];
  const out = objectMetaIssues(obj);
  if (obj.kind === 'Service' && obj.apiVersion === 'v1') out.push(...servicePortIssues(obj));
  return out;
}

/**
 * Checks any Kubernetes object: a kind with a pinned CRD with {@link validateCustomResource},
 * anything else with {@link validateCoreObject}.
 */
export function validateObject(obj: unknown, options: SchemaValidationOptions = {}): SchemaIssue[] {
  const entry = isRecord(obj) ? crdSchema(obj.apiVersion, obj.kind) : undefined;
  if (entry) return validatePinned(obj as Record<string, unknown>, entry, options);
  return validateCoreObject(obj);
}

/**
 * A copy of `obj` with the `default`s of its CRD applied where a field is absent (or a `null`
 * the schema does not allow), as the API server stores it; fields the API server would prune
 * are left as they are. An object without a pinned CRD is returned as a plain copy.
 */
export function applyCrdDefaults<T>(obj: T): T {
  const entry = isRecord(obj) ? crdSchema(obj.apiVersion, obj.kind) : undefined;
  return (entry ? cloneWithDefaults(obj, entry.schema) : cloneJson(obj)) as T;
}

/** One `x-kubernetes-validations` rule of a pinned CRD, and where it sits. */
export interface CrdCelRule {
  /** `group/version/Kind` of the CRD. */
  readonly crd: string;
  /** The schema path of the value the rule is attached to, e.g. `spec.bootstrap.initdb` (`[*]` for list items, `{*}` for map values). */
  readonly path: string;
  /** The rule's CEL source. */
  readonly rule: string;
  /** `undefined` when the rule is evaluated; otherwise why it is not. */
  readonly notEvaluated?: string;
}

/** Every CEL rule of the pinned CRDs, with whether this library evaluates it. */
export function listCrdCelRules(): CrdCelRule[] {
  const out: CrdCelRule[] = [];
  for (const key of crdSchemaKeys()) {
    const [group, version, kind] = key.split('/');
    const entry = crdSchema(`${group}/${version}`, kind)!;
    const walk = (s: StructuralSchema, path: string) => {
      for (const r of s['x-kubernetes-validations'] ?? []) {
        const plan = planRule(r);
        out.push({ crd: key, path: path || '<root>', rule: r.rule, ...(plan.evaluated ? {} : { notEvaluated: plan.reason }) });
      }
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(v, path ? `${path}.${k}` : k);
      if (s.items) walk(s.items, `${path}[*]`);
      if (typeof s.additionalProperties === 'object') walk(s.additionalProperties, `${path}{*}`);
    };
    walk(entry.schema, '');
  }
  return out;
}
