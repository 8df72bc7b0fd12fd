/**
 * The schemas `npm run import` extracted from the pinned CRDs (imports/schemas), read from disk
 * the first time a kind is asked for and kept for the life of the process.
 */
import type { ValidateFunction } from 'ajv';

/** One `x-kubernetes-validations` entry of a CRD. */
export interface CelRuleSpec {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly fieldPath?: string;
  readonly reason?: string;
  readonly optionalOldSelf?: boolean;
}

/** A Kubernetes structural schema node (the subset of OpenAPI v3 a CRD may use). */
export interface StructuralSchema {
  readonly type?: string;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly additionalProperties?: StructuralSchema | boolean;
  readonly items?: StructuralSchema;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly anyOf?: readonly StructuralSchema[];
  readonly allOf?: readonly StructuralSchema[];
  readonly oneOf?: readonly StructuralSchema[];
  readonly not?: StructuralSchema;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-validations'?: readonly CelRuleSpec[];
  readonly [keyword: string]: unknown;
}

/** What the index of imports/schemas says about one kind. */
export interface CrdSchemaEntry {
  /** `group/version/Kind`, e.g. `postgresql.cnpg.io/v1/Cluster`. */
  readonly key: string;
  /** Whether objects of the kind live in a namespace. */
  readonly scope: 'Namespaced' | 'Cluster';
  /** The version's `openAPIV3Schema`, descriptions stripped. */
  readonly schema: StructuralSchema;
  /** Whether the version has a status subresource (then a create cannot set `status`). */
  readonly statusSubresource: boolean;
  /** What a create is validated against: `schema`, without `status` when there is a status subresource. */
  readonly createSchema: StructuralSchema;
}

interface IndexFile {
  readonly [key: string]: { readonly file: string; readonly scope: 'Namespaced' | 'Cluster'; readonly statusSubresource: boolean };
}

let index: IndexFile | undefined;
const loaded = new Map<string, CrdSchemaEntry>();
/** The pinned create schemas handed out, by identity, and their keys. */
const pinnedKeys = new WeakMap<StructuralSchema, string>();

function readIndex(): IndexFile {
  // A plain require: tsc copies the JSON beside lib/ (tsconfig.build.json) and esbuild bundles it.
  index ??= require('../../imports/schemas/index.json') as IndexFile;
  return index;
}

/** The index key for an object's `apiVersion` and `kind`: `group/version/Kind`. */
export function schemaKey(apiVersion: unknown, kind: unknown): string | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const slash = apiVersion.indexOf('/');
  if (slash <= 0) return undefined; // core group: no CRD
  return `${apiVersion}/${kind}`;
}

/** The `group/version/Kind` keys of every pinned CRD version, sorted. */
export function crdSchemaKeys(): string[] {
  return Object.keys(readIndex()).sort();
}

/**
 * What {@link crdSchema} answered, by `apiVersion` then `kind` (`null`: no pinned CRD), so that the
 * schema guard, which asks for every object the constructs write, builds no key string.
 */
const answered = new Map<string, Map<string, CrdSchemaEntry | null>>();

/** The pinned schema of `apiVersion`/`kind`, or `undefined` when the project pins no CRD for it. */
export function crdSchema(apiVersion: unknown, kind: unknown): CrdSchemaEntry | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  let kinds = answered.get(apiVersion);
  const known = kinds?.get(kind);
  if (known !== undefined) return known ?? undefined;
  const entry = loadCrdSchema(apiVersion, kind);
  if (!kinds) {
    kinds = new Map();
    answered.set(apiVersion, kinds);
  }
  kinds.set(kind, entry ?? null);
  return entry;
}

function loadCrdSchema(apiVersion: string, kind: string): CrdSchemaEntry | undefined {
  const key = schemaKey(apiVersion, kind);
  if (key === undefined) return undefined;
  const cached = loaded.get(key);
  if (cached) return cached;
  const entry = readIndex()[key];
  if (!Object.prototype.hasOwnProperty.call(readIndex(), key) || !entry) return undefined;
  const schema = generatedIndex().SCHEMAS[key]() as StructuralSchema;
  const createSchema = createSchemaOf(schema, entry.statusSubresource);
  const result: CrdSchemaEntry = { key, scope: entry.scope, schema, statusSubresource: entry.statusSubresource, createSchema };
  loaded.set(key, result);
  pinnedKeys.set(createSchema, key);
  return result;
}

/** What a create is validated against: the schema without `status` when the kind has a status subresource. */
export function createSchemaOf(schema: StructuralSchema, statusSubresource: boolean): StructuralSchema {
  if (!statusSubresource || !schema.properties?.status) return schema;
  const { status: _status, ...properties } = schema.properties;
  return { ...schema, properties };
}

/**
 * The validator `npm run import` generated (ajv standalone code, imports/schemas/validators/)
 * for a pinned CRD's create schema, or `undefined` for any other schema object.
 */
export function pinnedValidator(schema: StructuralSchema): ValidateFunction | undefined {
  const key = pinnedKeys.get(schema);
  if (key === undefined) return undefined;
  const { VALIDATORS } = generatedIndex();
  return Object.prototype.hasOwnProperty.call(VALIDATORS, key) ? (VALIDATORS[key]() as ValidateFunction) : undefined;
}

/**
 * The index `npm run import` generated (imports/schemas/validators/index.ts): for each pinned
 * kind, a function requiring its schema file, and one requiring its validator module.
 */
function generatedIndex(): { readonly SCHEMAS: Readonly<Record<string, () => unknown>>; readonly VALIDATORS: Readonly<Record<string, () => unknown>> } {
  return require('../../imports/schemas/validators') as ReturnType<typeof generatedIndex>;
}
