import { ApiObject, ApiObjectMetadata, JsonPatch } from 'cdk8s';
import { ErrorScope, Problem, refuseProblem, wrongType } from '../manifests/errors';
import { isDnsLabel, isDnsSubdomain } from '../manifests/k8s-names';
import { jsonProblem } from './plain-json';
import { PropSpec, anyValue, checkProps } from './props';

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

/** The fields of `ApiObjectMetadata` a construct writes; their values are judged together by {@link validateMetadata}. */
const METADATA_SPEC: PropSpec<ApiObjectMetadata> = {
  name: anyValue,
  namespace: anyValue,
  labels: anyValue,
  annotations: anyValue,
  finalizers: anyValue,
  ownerReferences: anyValue,
};

/**
 * The `metadata` prop of a construct that writes one object, as a kind: declared keys only, and
 * values cdk8s can render ({@link validateMetadata}). Names, label and annotation keys,
 * finalizers and owner references are judged again by the schema guard at synth.
 * @internal
 */
export function checkMetadata(scope: ErrorScope, prop: string, value: unknown): undefined {
  const given = checkProps<ApiObjectMetadata>(scope, prop, value, METADATA_SPEC, { optional: true });
  if (given !== undefined) validateMetadata(scope, prop, given as Record<string, unknown>);
  return undefined;
}

/**
 * The metadata a construct writes from its checked `metadata` prop: the fields that are set
 * (an explicit `name: undefined` keeps the generated name), `{}` when not given.
 * @internal
 */
export function writtenMetadata(value: ApiObjectMetadata | undefined): ApiObjectMetadata {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as ApiObjectMetadata;
}

/**
 * Checks the `metadata` prop of a construct that writes one object, after its keys were checked
 * ({@link checkMetadata}): each field has the type cdk8s can render (the name and namespace their
 * form), and the whole is plain JSON. What else the API server checks in them (label and
 * annotation keys and values, distinct finalizers, owner references with a uid, the name rule
 * of the kind) is the schema guard's to judge at synth (src/schema/object-meta.ts
 * objectMetaIssues), so it is not checked twice. Returns a copy without undefined fields, so an
 * explicit `name: undefined` keeps the generated name.
 * @internal
 */
export function validateMetadata(scope: ErrorScope, prop: string, value: Record<string, unknown>): ApiObjectMetadata {
  const out = writtenMetadata(value as ApiObjectMetadata) as Record<string, unknown>;
  refuseProblem(scope, shapeProblem(prop, out) ?? jsonProblem(out, prop));
  return out as ApiObjectMetadata;
}

/** The first metadata field whose type cdk8s cannot render (or, for the name and namespace, whose form). */
function shapeProblem(prop: string, metadata: Record<string, unknown>): Problem | undefined {
  const bad = Object.entries(metadata).find(([k, v]) => SHAPES[k] !== undefined && !SHAPES[k][0](v));
  if (bad === undefined) return undefined;
  const [field, v] = bad;
  const [, what, fix] = SHAPES[field];
  return {
    prop: `${prop}.${field}`,
    value: v,
    problem: typeof v === 'string' && (field === 'name' || field === 'namespace') ? `is not ${what}` : wrongType(what, v),
    fix,
  };
}

/**
 * `{ name }` when a fixed name is given, else nothing: cdk8s and cdk8s-plus take an explicit
 * `name: undefined` as the name instead of generating one.
 * @internal
 */
export function nameIf(name: string | undefined): { name?: string } {
  return name === undefined ? {} : { name };
}

/**
 * cdk8s gives every object the chart's namespace; cluster-scoped kinds must not carry one (the
 * API server rejects or ignores it, and GitOps tools report drift). A JSON patch removes it
 * after rendering.
 * @internal
 */
export function clusterScoped<T extends ApiObject>(obj: T): T {
  if (obj.metadata.namespace !== undefined) {
    obj.addJsonPatch(JsonPatch.remove('/metadata/namespace'));
  }
  return obj;
}
