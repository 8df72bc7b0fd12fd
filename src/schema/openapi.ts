/**
 * The CRD schemas as ajv schemas, compiled once per process on first use. ajv is required
 * here, lazily, so that loading the library does not load it.
 *
 * A Kubernetes structural schema is OpenAPI v3 plus `x-kubernetes-*` extensions; the mapping
 * follows kubernetes/apiextensions-apiserver v0.32.13:
 * - `nullable: true` adds `null` to the type (pkg/apiserver/validation/validation.go
 *   `ConvertJSONSchemaPropsWithPostProcess`);
 * - `x-kubernetes-int-or-string` allows an integer or a string (same function);
 * - `x-kubernetes-list-type: set` items are unique, `map` items are unique by their
 *   `x-kubernetes-list-map-keys` (pkg/apiserver/schema/listtype/validation.go
 *   `ValidateListSetsAndMaps`);
 * - only the formats Kubernetes supports are checked, others (`int32`, `int64`) are ignored
 *   (pkg/apiserver/validation/formats.go `StripUnsupportedFormatsPostProcess`);
 * - pruning, `null`-dropping, defaults and CEL rules are done outside ajv (structural.ts, cel.ts).
 */
import type { default as AjvClass, ErrorObject, KeywordCxt, KeywordDefinition, ValidateFunction } from 'ajv';
import { describeValue } from '../manifests/errors';
import { RenderedJson } from '../manifests/json';
import { pinnedValidator, StructuralSchema } from './crd-schemas';
import { issue, PathSegments, SchemaIssue } from './issue';
import { patternWords } from './pattern-words';

type AjvSchema = Record<string, unknown>;

/** Formats of k8s' supported list that this module checks; a CRD using another one fails loudly. */
const CHECKED_FORMATS: Record<string, RegExp> = {
  // strfmt.DateTime (kube-openapi pkg/validation/strfmt/time.go): RFC 3339, fraction optional.
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/,
  // strfmt.Base64: what Go's base64.StdEncoding decodes.
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
};
const K8S_SUPPORTED_FORMATS = new Set([
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
]);

function formatFor(format: string): string | undefined {
  const normalized = format.replace(/-/g, '');
  if (!K8S_SUPPORTED_FORMATS.has(normalized)) return undefined; // the API server ignores it too
  if (normalized === 'password') return undefined; // any string
  const name = normalized === 'datetime' ? 'date-time' : format;
  if (!CHECKED_FORMATS[name]) {
    throw new Error(`schema: the pinned CRDs use format '${format}', which src/schema/openapi.ts does not check yet; add it`);
  }
  return name;
}

const TYPE_ONLY = (s: StructuralSchema) => Object.keys(s).every((k) => k === 'type');

/**
 * Subschemas larger than this (in JSON characters) are compiled on first use, by the
 * `k8sLazy` keyword: a Cluster manifest uses a few of the spec's large subtrees (affinity, pod
 * templates, volume sources), and compiling all of them up front dominated the first use.
 */
const LAZY_ABOVE = 800;
const lazySchemas: AjvSchema[] = [];

const lazyIds = new Map<string, number>();

function maybeLazy(converted: AjvSchema): AjvSchema {
  const text = JSON.stringify(converted);
  if (text.length <= LAZY_ABOVE) return converted;
  let id = lazyIds.get(text);
  if (id === undefined) {
    id = lazySchemas.push(converted) - 1;
    lazyIds.set(text, id);
  }
  return { k8sLazy: id };
}

/** Converts a structural schema node into the ajv schema that checks the same values. */
export function toAjvSchema(s: StructuralSchema, lazy = true): AjvSchema {
  const child = (c: StructuralSchema) => (lazy ? maybeLazy(toAjvSchema(c, true)) : toAjvSchema(c, false));
  const out: AjvSchema = {};
  let types: string[] | undefined = s.type ? [s.type] : undefined;
  if (s['x-kubernetes-int-or-string']) types = ['integer', 'string'];
  if (types && s.nullable) types = [...types, 'null'];
  if (types) out.type = types.length === 1 ? types[0] : types;
  for (const key of [
    'enum',
    'pattern',
    'minLength',
    'maxLength',
    'minimum',
    'maximum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'multipleOf',
    'minItems',
    'maxItems',
    'minProperties',
    'maxProperties',
    'uniqueItems',
    'required',
  ] as const) {
    if (s[key] !== undefined) out[key] = s[key];
  }
  if (typeof out.pattern === 'string') out.pattern = jsPattern(out.pattern);
  // OpenAPI v3.0 writes exclusive bounds as booleans beside minimum/maximum.
  if (s.exclusiveMinimum === true) {
    out.exclusiveMinimum = s.minimum;
    delete out.minimum;
  }
  if (s.exclusiveMaximum === true) {
    out.exclusiveMaximum = s.maximum;
    delete out.maximum;
  }
  if (s.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (s.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if (s.nullable && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (s.format) {
    const f = formatFor(s.format);
    if (f) out.format = f;
  }
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, child(v)]));
  }
  if (typeof s.additionalProperties === 'object') out.additionalProperties = child(s.additionalProperties);
  if (s.items) out.items = child(s.items);
  for (const key of ['anyOf', 'allOf', 'oneOf'] as const) {
    const list = s[key];
    if (!list) continue;
    // int-or-string fields spell their two types as anyOf; the type above already says it.
    if (s['x-kubernetes-int-or-string'] && key === 'anyOf' && list.every(TYPE_ONLY)) continue;
    out[key] = list.map((c) => toAjvSchema(c, lazy));
  }
  if (s.not) out.not = toAjvSchema(s.not, lazy);
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') out.uniqueItems = true;
  if (listType === 'map' && s['x-kubernetes-list-map-keys']?.length) out.k8sListMapKeys = [...s['x-kubernetes-list-map-keys']];
  return out;
}

/**
 * A CRD pattern (Go RE2 syntax, which the API server compiles) as a JavaScript pattern. RE2's
 * leading case-insensitive flag `(?i)` has no JavaScript spelling without a RegExp flag (ajv
 * compiles `pattern` with `u` only), so each ASCII letter after it is written as a class of
 * both cases: the Prometheus Operator's PrometheusRule (v0.93.0) spells `partial_response_strategy`
 * as `^(?i)(abort|warn)?$`. Other patterns are returned as they are.
 */
export function jsPattern(pattern: string): string {
  const at = pattern.indexOf('(?i)');
  if (at < 0 || !/^\^?$/.test(pattern.slice(0, at))) return pattern;
  const head = pattern.slice(0, at);
  const rest = pattern.slice(at + 4);
  let out = '';
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '\\') {
      out += c + (rest[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') {
        // The class again in the other case, so that `[a-z]` also takes `A-Z`.
        const body = out.slice(out.lastIndexOf('[') + 1).replace(/^\^/, '');
        out += swapCase(body) + c;
        inClass = false;
      } else out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (/[a-zA-Z]/.test(c)) out += `[${c.toLowerCase()}${c.toUpperCase()}]`;
    else out += c;
  }
  return head + out;
}

function swapCase(text: string): string {
  return text.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
}

let ajv: AjvClass | undefined;
const compiled = new Map<StructuralSchema, ValidateFunction>();
const byText = new Map<string, ValidateFunction>();

/**
 * How generated validators reach {@link duplicateListMapKeys}: `npm run import` writes a plain
 * JavaScript copy of src/schema/list-map-keys beside them (imports/schemas/validators/), so that
 * Node loads a generated validator as it is, without a TypeScript loader or a bundler.
 */
const LIST_MAP_KEYS_MODULE = './list-map-keys.js';

/**
 * The `k8sListMapKeys` keyword as ajv code (not a `validate` function), so that ajv's
 * standalone output can carry it: the generated code calls {@link duplicateListMapKeys}.
 */
function listMapKeysKeyword(): KeywordDefinition {
  // Required here, with ajv: only the compiling paths need its code builders.
  const { _, stringify } = require('ajv') as typeof import('ajv');
  const { duplicateListMapKeys } = require('./list-map-keys') as typeof import('./list-map-keys');
  return {
    keyword: 'k8sListMapKeys',
    type: 'array',
    schemaType: 'array',
    error: {
      message: 'duplicate key',
      params: ({ schema, params }) => _`{keys: ${stringify(schema)}, first: ${params.pair}[0], duplicate: ${params.pair}[1]}`,
    },
    code(cxt: KeywordCxt) {
      const { gen, data, schema } = cxt;
      const fn = gen.scopeValue('func', { ref: duplicateListMapKeys, code: _`require(${LIST_MAP_KEYS_MODULE}).duplicateListMapKeys` });
      const pairs = gen.const('pairs', _`${fn}(${data}, ${stringify(schema)})`);
      const pair = gen.name('pair');
      cxt.setParams({ pair });
      gen.forOf(pair, pairs, () => cxt.error());
      cxt.ok(_`${pairs}.length === 0`);
    },
  };
}

const lazyCompiled = new Map<number, ValidateFunction>();

function lazyKeyword(id: number, data: unknown, _parent: unknown, cxt?: { instancePath: string }): boolean {
  let fn = lazyCompiled.get(id);
  if (!fn) {
    fn = getAjv().compile(lazySchemas[id]);
    lazyCompiled.set(id, fn);
  }
  const self = lazyKeyword as { errors?: Partial<ErrorObject>[] };
  if (fn(data)) {
    self.errors = [];
    return true;
  }
  const prefix = cxt?.instancePath ?? '';
  // ajv rewrites a keyword's errors' schemaPath, so combinator branches are dropped here.
  self.errors = withoutCombinatorBranches(fn.errors ?? []).map((e) => ({ ...e, instancePath: prefix + e.instancePath }));
  return false;
}

/**
 * An ajv instance set up for Kubernetes structural schemas. With `source`, it keeps the code
 * of what it compiles, for ajv's standalone output (`npm run import` writes it to
 * imports/schemas/validators/); that instance gets no `k8sLazy` keyword, since a generated
 * validator must hold every subschema.
 */
export function createAjv(options: { readonly source?: boolean } = {}): AjvClass {
  // Lazy on purpose: `require('cdk8s-cnpg-i')` must not pay for ajv.
  const Ajv = (require('ajv') as { default: typeof AjvClass }).default;
  // At run time, ajv's code optimizer and verbose errors triple the compile time of the Cluster
  // schema (the first use dominates a run); the value an error is about is looked up from its
  // path instead. Generated ahead of time, the optimized code is smaller and compiling is free.
  const instance = new Ajv({
    allErrors: true,
    verbose: false,
    strict: false,
    validateFormats: true,
    code: options.source ? { source: true, esm: false, optimize: true, lines: true } : { optimize: false },
    // Generated code keeps each `$ref` a function of its own (see scripts/schema-validators.ts).
    inlineRefs: !options.source,
  });
  for (const [name, re] of Object.entries(CHECKED_FORMATS)) instance.addFormat(name, re);
  instance.addKeyword(listMapKeysKeyword());
  if (!options.source) instance.addKeyword({ keyword: 'k8sLazy', schemaType: 'number', errors: true, validate: lazyKeyword as never });
  return instance;
}

function getAjv(): AjvClass {
  ajv ??= createAjv();
  return ajv;
}

/**
 * The validator of a structural schema: the one `npm run import` generated for a pinned CRD
 * (no compiling at run time, ajv itself not loaded), otherwise compiled by ajv the first time
 * the schema is asked for.
 */
export function compiledValidator(schema: StructuralSchema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = pinnedValidator(schema);
    if (!fn) {
      // Issuer and ClusterIssuer share one spec schema: the same text is compiled once.
      const converted = toAjvSchema(schema);
      const text = JSON.stringify(converted);
      fn = byText.get(text) ?? getAjv().compile(converted);
      byText.set(text, fn);
    }
    compiled.set(schema, fn);
  }
  return fn;
}

/** The path segments of an ajv instancePath, and the value found there. */
function locate(instancePath: string, root: unknown): { path: (string | number)[]; value: unknown } {
  const path: (string | number)[] = [];
  let cur: unknown = root;
  if (instancePath === '') return { path, value: cur };
  for (const raw of instancePath.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const seg = Array.isArray(cur) && /^\d+$/.test(key) ? Number(key) : key;
    path.push(seg);
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
  }
  return { path, value: cur };
}

function typeWords(t: unknown): string {
  const list = (Array.isArray(t) ? t : [t]).map((x) =>
    x === 'integer' ? 'a whole number' : x === 'null' ? 'null' : x === 'object' ? 'an object' : x === 'array' ? 'an array' : `a ${x}`,
  );
  return list.join(' or ');
}

function isUnder(schemaPath: string, prefix: string): boolean {
  return schemaPath.startsWith(prefix + '/');
}

/** Inside a failed anyOf/oneOf, the branches' own errors only repeat it. */
function withoutCombinatorBranches(errors: ErrorObject[]): ErrorObject[] {
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.schemaPath);
  return combinators.length ? errors.filter((e) => !combinators.some((p) => isUnder(e.schemaPath, p))) : errors;
}

/** Runs the compiled schema over `data` and turns ajv's errors into issues. */
export function schemaIssues(schema: StructuralSchema, data: unknown): SchemaIssue[] {
  const validate = compiledValidator(schema);
  if (validate(data)) return [];
  const out: SchemaIssue[] = [];
  for (const e of withoutCombinatorBranches(validate.errors ?? [])) {
    const { path, value } = locate(e.instancePath, data);
    out.push(toIssue(e, path, value));
  }
  return out;
}

function toIssue(e: ErrorObject, path: PathSegments, value: unknown): SchemaIssue {
  const p = e.params as Record<string, RenderedJson>;
  switch (e.keyword) {
    case 'type': {
      const words = typeWords(p.type);
      return issue(path, 'type', value, `must be ${words}`, words, `write it as ${words}`);
    }
    case 'enum': {
      const values = (p.allowedValues as unknown[]) ?? [];
      const list = values.map((v) => describeValue(v)).join(', ');
      return issue(path, 'enum', value, 'is not one of the values the CRD allows', `one of ${list}`, `use one of ${list}`, { allowedValues: values });
    }
    case 'required':
      return issue([...path, p.missingProperty], 'required', undefined, 'is required by the CRD and not set', 'a value', `set ${p.missingProperty}`);
    case 'pattern': {
      const words = patternWords(String(p.pattern), value);
      if (words !== undefined) return issue(path, 'pattern', value, words.problem, words.allowed, words.fix);
      return issue(path, 'pattern', value, `does not match the CRD's pattern ${p.pattern}`, `a string matching ${p.pattern}`, 'write a value of that form');
    }
    case 'format':
      return issue(path, 'format', value, `is not in the '${p.format}' format`, `a '${p.format}' string`, `write a ${p.format} value`);
    case 'minLength':
    case 'minItems':
    case 'minProperties':
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
    case 'maximum':
    case 'exclusiveMaximum': {
      const isMin = e.keyword.startsWith('min') || e.keyword === 'exclusiveMinimum';
      const what = e.keyword.endsWith('Length') ? 'characters' : e.keyword.endsWith('Items') ? 'items' : e.keyword.endsWith('Properties') ? 'entries' : '';
      const bound = what ? `${isMin ? 'at least' : 'at most'} ${p.limit} ${what}` : `${p.comparison} ${p.limit}`;
      return issue(path, isMin ? 'min' : 'max', value, `must be ${bound}`, bound, `use a value ${bound}`);
    }
    case 'uniqueItems': {
      const [first, later] = [Math.min(p.i, p.j), Math.max(p.i, p.j)];
      return issue(
        [...path, later],
        'duplicate',
        Array.isArray(value) ? value[later] : value,
        `repeats item ${first} of a list the CRD declares a set`,
        'distinct items',
        'remove the duplicate',
      );
    }
    case 'k8sListMapKeys':
      return issue(
        [...path, p.duplicate],
        'duplicate',
        Array.isArray(value) ? value[p.duplicate] : value,
        `has the same ${(p.keys as string[]).join(', ')} as item ${p.first}; the CRD keys this list by ${(p.keys as string[]).join(', ')}`,
        `items with distinct ${(p.keys as string[]).join(', ')}`,
        'merge or rename the entries',
      );
    default:
      return issue(
        path,
        'schema',
        value,
        `does not match the CRD schema (${e.keyword}: ${e.message ?? 'refused'})`,
        `what the CRD's ${e.keyword} allows`,
        'check the value against the CRD',
      );
  }
}
