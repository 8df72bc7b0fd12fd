/**
 * The CRDs' `x-kubernetes-validations` rules, evaluated with the CEL evaluator
 * @marcbachmann/cel-js (required lazily, on the first rule evaluated; `npm run build` bundles it
 * into the compiled module, scripts/bundle-cel.mjs) the way the API server evaluates them on
 * create: `self` is the value the rule is attached to, with the types the schema gives it
 * (kubernetes/apiextensions-apiserver v0.32.13 pkg/apiserver/schema/cel/validation.go
 * `Validator.Validate`, `validateExpressions`; kubernetes/apiserver v0.32.13
 * pkg/cel/common/values.go `UnstructuredToVal`, `unstructuredMap.Find`).
 *
 * Rules this module cannot evaluate are never passed silently: a transition rule (it reads
 * `oldSelf`, which a create does not have) and a rule that calls a function of the Kubernetes
 * CEL environment that the evaluator lacks (kubernetes/apiserver v0.32.13
 * pkg/cel/environment/base.go: the libraries `quantity`, `url`, `ip`, `cidr`, `format`, lists,
 * regex, sets, semver, authz, and `format()` and `strings.quote()` of the strings extension) are
 * returned as `cel-not-evaluated`, with the reason.
 *
 * Where the evaluator differs from cel-go: `matches()` runs the pattern as a JavaScript regular
 * expression, not RE2; `indexOf()` and `substring()` count UTF-16 code units, not code points
 * (they differ only beyond the Basic Multilingual Plane); `lowerAscii()` and `upperAscii()` change
 * non-ASCII letters too (the evaluator does not let an overload be replaced). None of the pinned
 * CRDs' rules calls any of these.
 */
import type * as CelJs from '@marcbachmann/cel-js';
import { CelRuleSpec, StructuralSchema } from './crd-schemas';
import { issue, SchemaIssue } from './issue';

type Planned = (ctx: { self: unknown }) => unknown;

/** How one rule will be handled: evaluated, or not with the reason why. */
export type CelRulePlan =
  { readonly evaluated: true; readonly run: Planned; readonly messageRun?: Planned } | { readonly evaluated: false; readonly reason: string };

/** The Kubernetes CEL library each Kubernetes-only function comes from, for the reason text. */
const KUBERNETES_LIBRARY: Record<string, string> = {
  quantity: 'quantity',
  isQuantity: 'quantity',
  url: 'URL',
  isURL: 'URL',
  ip: 'IP',
  isIP: 'IP',
  cidr: 'CIDR',
  isCIDR: 'CIDR',
  isSorted: 'lists',
  sum: 'lists',
  min: 'lists',
  max: 'lists',
  find: 'regex',
  findAll: 'regex',
  semver: 'semver',
  isSemver: 'semver',
  authorizer: 'authz',
  'sets.contains': 'sets',
  'sets.equivalent': 'sets',
  'sets.intersects': 'sets',
  'format.named': 'format',
  validate: 'format',
  format: 'strings extension',
  'strings.quote': 'strings extension',
};

interface Engine {
  readonly env: CelJs.Environment;
  /** Global functions (`size`, `has`, ...) and methods (`startsWith`, `exists`, ...) by name. */
  readonly functions: ReadonlySet<string>;
  readonly methods: ReadonlySet<string>;
  /** An error of the evaluator's (evaluation or type), not a bug of this module. */
  readonly isEvaluatorError: (e: unknown) => boolean;
}

let engine: Engine | undefined;
const plans = new Map<string, CelRulePlan>();

/** Code points of a string: cel-go's strings extension indexes runes. */
const codePoints = (s: string): string[] => Array.from(s);

/**
 * The two functions of the Kubernetes strings extension (cel-go ext.Strings, version 2, which
 * kubernetes/apiserver v0.32.13 pkg/cel/environment/base.go loads) that the evaluator does not
 * have itself: `charAt` and `replace`.
 */
function registerStringsExtension(env: CelJs.Environment, cel: typeof CelJs): void {
  env.registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
    const chars = codePoints(s);
    if (i < 0n || i > BigInt(chars.length)) throw new cel.EvaluationError(`index out of range: ${i}`);
    return chars[Number(i)] ?? '';
  });
  // Go's strings.Replace(s, from, to, n): at most n replacements (all when n < 0); an empty
  // `from` matches before each code point and at the end.
  const replace = (s: string, from: string, to: string, n: bigint): string => {
    let out = '';
    let rest = s;
    for (let count = 0n; n < 0n || count < n; count++) {
      if (from === '') {
        out += to;
        if (rest === '') return out;
        const first = String.fromCodePoint(rest.codePointAt(0)!);
        out += first;
        rest = rest.slice(first.length);
        continue;
      }
      const at = rest.indexOf(from);
      if (at < 0) break;
      out += rest.slice(0, at) + to;
      rest = rest.slice(at + from.length);
    }
    return out + rest;
  };
  env.registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => replace(s, from, to, -1n));
  env.registerFunction('string.replace(string, string, int): string', replace);
}

function load(): Engine {
  if (!engine) {
    const cel = require('@marcbachmann/cel-js') as typeof CelJs;
    // `self` and the rule's variables are typed by the schema on the API server; here they are
    // dynamic, and the CRD's rules were type-checked when the CRD was created.
    const env = new cel.Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false });
    registerStringsExtension(env, cel);
    const functions = new Set<string>();
    const methods = new Set<string>();
    for (const f of env.getDefinitions().functions) (f.receiverType ? methods : functions).add(f.name);
    engine = { env, functions, methods, isEvaluatorError: (e) => e instanceof cel.EvaluationError || e instanceof cel.TypeError };
  }
  return engine;
}

type AstNode = { op: string; args: unknown };

const isNode = (x: unknown): x is AstNode => x !== null && typeof x === 'object' && typeof (x as AstNode).op === 'string' && 'args' in (x as object);

/** `a.b.c` of an identifier or a chain of field selections; undefined for anything else. */
function qualifiedName(e: unknown): string | undefined {
  if (!isNode(e)) return undefined;
  if (e.op === 'id') return e.args as string;
  if (e.op === '.') {
    const [operand, field] = e.args as [unknown, string];
    const q = qualifiedName(operand);
    return q === undefined ? undefined : `${q}.${field}`;
  }
  return undefined;
}

/** The functions an expression calls that the evaluator does not have. */
function missingFunctions(ast: unknown, e: Engine): string[] {
  const missing = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isNode(node)) return;
    if (node.op === 'call') {
      const [name] = node.args as [string, unknown[]];
      if (!e.functions.has(name)) missing.add(name);
    } else if (node.op === 'rcall') {
      const [name, target] = node.args as [string, unknown, unknown[]];
      const q = qualifiedName(target);
      // `sets.contains(a, b)` parses as a method of the identifier `sets`: a namespaced function
      const namespaced = q !== undefined && q !== 'self' && !q.startsWith('self.') ? `${q}.${name}` : undefined;
      if (namespaced !== undefined && KUBERNETES_LIBRARY[namespaced] !== undefined) missing.add(namespaced);
      else if (!e.methods.has(name)) missing.add(namespaced ?? name);
    }
    if (node.op !== 'value' && node.op !== 'id') visit(node.args);
  };
  visit(ast);
  return [...missing].sort();
}

function notEvaluatedReason(missing: string[]): string {
  const named = missing.map((f) => {
    const lib = KUBERNETES_LIBRARY[f] ?? (f.startsWith('format.') ? 'format' : undefined);
    return lib ? `${f}() from the Kubernetes ${lib} library` : `${f}()`;
  });
  return `calls ${named.join(', ')}, which this library's CEL evaluator does not provide`;
}

/**
 * The first line of an evaluator error (the rest is a source excerpt), with a missing key worded
 * as the API server words it (kubernetes/apiserver v0.32.13 pkg/cel/common/values.go
 * `unstructuredMap.Get`: "no such key: <key>").
 */
const firstLine = (err: unknown): string =>
  String((err as Error)?.message ?? err)
    .split('\n')[0]
    .replace(/^No such key: /, 'no such key: ');

/** Decides, once per rule text, whether and how the rule is evaluated. */
export function planRule(spec: CelRuleSpec): CelRulePlan {
  const cached = plans.get(spec.rule);
  if (cached) return cached;
  let plan: CelRulePlan;
  if (/\boldSelf\b/.test(spec.rule)) {
    plan = { evaluated: false, reason: 'is a transition rule (it reads oldSelf), which the API server only checks on update' };
  } else {
    const e = load();
    let parsed: CelJs.ParseResult | undefined;
    try {
      parsed = e.env.parse(spec.rule);
    } catch (err) {
      plan = { evaluated: false, reason: `does not parse: ${firstLine(err)}` };
    }
    if (parsed) {
      const missing = missingFunctions(parsed.ast, e);
      if (missing.length) plan = { evaluated: false, reason: notEvaluatedReason(missing) };
      else {
        let messageRun: Planned | undefined;
        if (spec.messageExpression) {
          try {
            const m = e.env.parse(spec.messageExpression);
            if (!missingFunctions(m.ast, e).length) messageRun = m as Planned;
          } catch {
            messageRun = undefined; // the plain message is used instead
          }
        }
        plan = { evaluated: true, run: parsed as Planned, messageRun };
      }
    }
  }
  plans.set(spec.rule, plan!);
  return plan!;
}

const hasOwn = (o: object, k: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(o, k);

/**
 * A JSON object as CEL reads it: a map whose values are converted when read, so that a rule
 * such as `!(has(self.imageCatalogRef) && has(self.imageName))` on a Cluster's spec does not
 * convert the whole spec (that cost more than the rest of the schema checks together). The
 * evaluator takes a plain object for a map, and so does it take this proxy of one. In an object
 * with properties, a field whose value is `null` is absent, as on the API server
 * (kubernetes/apiserver v0.32.13 pkg/cel/common/values.go `unstructuredMap.Find`).
 */
function celMap(json: Record<string, unknown>, schema: StructuralSchema | undefined): Record<string, unknown> {
  const isObject = schema?.properties !== undefined;
  const extra = typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const visible = (k: PropertyKey): k is string => typeof k === 'string' && hasOwn(json, k) && json[k] !== undefined && !(isObject && json[k] === null);
  return new Proxy(json, {
    get: (target, k) => (visible(k) ? toCelValue(target[k], schema?.properties?.[k] ?? extra) : undefined),
    has: (_target, k) => visible(k),
    ownKeys: (target) => Reflect.ownKeys(target).filter(visible),
    getOwnPropertyDescriptor: (target, k) => (visible(k) ? Reflect.getOwnPropertyDescriptor(target, k) : undefined),
    set: () => false,
    deleteProperty: () => false,
    defineProperty: () => false,
  });
}

/** Converts JSON into CEL values with the types the schema declares (integers are CEL ints). */
export function toCelValue(x: unknown, s: StructuralSchema | undefined): unknown {
  if (Array.isArray(x)) return x.map((v) => toCelValue(v, s?.items));
  if (x !== null && typeof x === 'object') return celMap(x as Record<string, unknown>, s);
  if (typeof x === 'number' && Number.isInteger(x) && s?.type !== 'number') return BigInt(x);
  return x;
}

function fieldPathSegments(fieldPath: string | undefined): string[] {
  if (!fieldPath) return [];
  return fieldPath.split('.').filter((p) => p !== '');
}

/** CEL's reserved words: `self.<word>` does not parse, so such a rule is left to the library. */
const CEL_RESERVED = new Set([
  'false',
  'in',
  'null',
  'true',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

type PresenceTest = (self: Record<string, unknown>) => boolean;
const presenceTests = new Map<string, PresenceTest | null>();

/**
 * The rules that only test which fields of `self` are present, e.g.
 * `!(has(self.imageCatalogRef) && has(self.imageName))` on a Cluster's spec (a boolean
 * combination of `has(self.<field>)` with `!`, `&&`, `||` and parentheses), as a JavaScript
 * function; `null` for any other rule. Such a rule is reached by every object of its kind, and
 * evaluating it this way on an object with properties gives the result the evaluator gives
 * (`has()` on such an object cannot fail: it is true when the field is there with a value other
 * than `null`, kubernetes/apiserver v0.32.13 pkg/cel/common/values.go `unstructuredMap.Find`),
 * without loading the evaluator.
 */
export function presenceTest(rule: string): PresenceTest | null {
  const known = presenceTests.get(rule);
  if (known !== undefined) return known;
  const tokens = rule.match(/\s+|&&|\|\||[!()]|has\(\s*self\s*\.\s*[A-Za-z_][A-Za-z0-9_]*\s*\)|[^]/g) ?? [];
  const list = tokens.filter((t) => !/^\s+$/.test(t));
  let at = 0;
  let ok = true;
  // Recursive descent over: or := and ('||' and)*; and := not ('&&' not)*; not := '!' not | '(' or ')' | has(self.f)
  const or = (): PresenceTest => {
    let left = and();
    while (ok && list[at] === '||') {
      at++;
      const l = left;
      const r = and();
      left = (self) => l(self) || r(self);
    }
    return left;
  };
  const and = (): PresenceTest => {
    let left = not();
    while (ok && list[at] === '&&') {
      at++;
      const l = left;
      const r = not();
      left = (self) => l(self) && r(self);
    }
    return left;
  };
  const not = (): PresenceTest => {
    const t = list[at++];
    if (t === '!') {
      const inner = not();
      return (self) => !inner(self);
    }
    if (t === '(') {
      const inner = or();
      if (list[at++] !== ')') ok = false;
      return inner;
    }
    const field = t?.startsWith('has(') ? /\.\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(t)?.[1] : undefined;
    if (field === undefined || CEL_RESERVED.has(field) || field.startsWith('__')) {
      ok = false;
      return () => false;
    }
    // a null-valued field of an object with properties is absent (unstructuredMap.Find)
    return (self) => Object.prototype.hasOwnProperty.call(self, field) && self[field] !== null && self[field] !== undefined;
  };
  const test = list.length ? or() : undefined;
  const result = ok && test && at === list.length ? test : null;
  presenceTests.set(rule, result);
  return result;
}

function failedRule(spec: CelRuleSpec, where: (string | number)[], message: string | undefined): SchemaIssue {
  return issue(
    where,
    'cel',
    undefined,
    `fails the CRD rule \`${spec.rule}\`, so the API server refuses the object`,
    'what the rule allows',
    message ?? 'change the value so that the rule holds',
    { rule: spec.rule },
  );
}

/** Evaluates one rule on the value `x` at `path`; returns the issue it raises, if any. */
export function evaluateRule(
  spec: CelRuleSpec,
  x: unknown,
  s: StructuralSchema,
  path: (string | number)[],
  reportNotEvaluated: boolean,
): SchemaIssue | undefined {
  const quick = x !== null && typeof x === 'object' && !Array.isArray(x) && s.properties !== undefined ? presenceTest(spec.rule) : null;
  if (quick) {
    if (quick(x as Record<string, unknown>)) return undefined;
    // A messageExpression needs the library; the plain message does not.
    if (!spec.messageExpression) return failedRule(spec, [...path, ...fieldPathSegments(spec.fieldPath)], spec.message);
  }
  const plan = planRule(spec);
  if (!plan.evaluated) {
    if (!reportNotEvaluated) return undefined;
    return issue(
      [...path],
      'cel-not-evaluated',
      undefined,
      `has the CRD rule \`${spec.rule}\`, not evaluated here: it ${plan.reason}`,
      'what the rule allows',
      'check this rule on a real API server (kubectl apply --dry-run=server)',
      { rule: spec.rule },
    );
  }
  const self = toCelValue(x, s);
  let result: unknown;
  let error: string | undefined;
  try {
    result = plan.run({ self });
  } catch (err) {
    if (!load().isEvaluatorError(err)) throw err;
    error = firstLine(err);
  }
  if (result === true) return undefined;
  const where = [...path, ...fieldPathSegments(spec.fieldPath)];
  // (`path` is the walker's shared stack: issues take copies.)
  if (error !== undefined) {
    const text = error;
    // An overload the evaluator lacks for these argument types: not a verdict on the object.
    if (/no such overload|no matching overload/.test(text) && !/no such key/i.test(text)) {
      if (!reportNotEvaluated) return undefined;
      return issue(
        where,
        'cel-not-evaluated',
        undefined,
        `has the CRD rule \`${spec.rule}\`, not evaluated here: ${text}`,
        'what the rule allows',
        'check this rule on a real API server (kubectl apply --dry-run=server)',
        { rule: spec.rule },
      );
    }
    return issue(
      where,
      'cel',
      undefined,
      `fails the CRD rule \`${spec.rule}\` (${text}), so the API server refuses the object`,
      'what the rule allows',
      spec.message ?? 'change the value so that the rule holds',
      { rule: spec.rule },
    );
  }
  let message = spec.message;
  if (plan.messageRun) {
    try {
      const m = plan.messageRun({ self });
      if (typeof m === 'string' && m !== '') message = m;
    } catch (err) {
      if (!load().isEvaluatorError(err)) throw err; // the plain message is used instead
    }
  }
  return failedRule(spec, where, message);
}

const rulesBelow = new WeakMap<StructuralSchema, boolean>();

/** Whether `s` or anything under it has a rule (computed once per schema node). */
function hasRules(s: StructuralSchema): boolean {
  let known = rulesBelow.get(s);
  if (known === undefined) {
    known =
      Boolean(s['x-kubernetes-validations']?.length) ||
      Object.values(s.properties ?? {}).some(hasRules) ||
      (s.items !== undefined && hasRules(s.items)) ||
      (typeof s.additionalProperties === 'object' && hasRules(s.additionalProperties));
    rulesBelow.set(s, known);
  }
  return known;
}

/**
 * Walks `x` along `s` and evaluates every rule on the values present (a rule on an absent
 * field is not run, as on the API server).
 */
export function celIssues(x: unknown, s: StructuralSchema | undefined, path: (string | number)[], out: SchemaIssue[], reportNotEvaluated: boolean): void {
  if (!s || x === undefined || x === null || !hasRules(s)) return;
  for (const rule of s['x-kubernetes-validations'] ?? []) {
    const found = evaluateRule(rule, x, s, path, reportNotEvaluated);
    if (found) out.push(found);
  }
  if (Array.isArray(x)) {
    if (s.items) {
      for (let i = 0; i < x.length; i++) {
        path.push(i);
        celIssues(x[i], s.items, path, out, reportNotEvaluated);
        path.pop();
      }
    }
    return;
  }
  if (typeof x !== 'object') return;
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const child = s.properties?.[k] ?? extra;
    if (!child) continue;
    path.push(k);
    celIssues(o[k], child, path, out, reportNotEvaluated);
    path.pop();
  }
}
