/**
 * The CRDs' `x-kubernetes-validations` rules, evaluated with @bufbuild/cel (required lazily, on
 * the first rule evaluated) the way the API server evaluates them on create: `self` is the
 * value the rule is attached to, with the types the schema gives it
 * (kubernetes/apiextensions-apiserver v0.32.13 pkg/apiserver/schema/cel/validation.go
 * `Validator.Validate`, `validateExpressions`).
 *
 * Rules this module cannot evaluate are never passed silently: a transition rule (it reads
 * `oldSelf`, which a create does not have) and a rule that calls a function of the Kubernetes
 * CEL libraries that @bufbuild/cel lacks (k8s.io/apiserver v0.32.13 pkg/cel/library:
 * `quantity`, `url`, `ip`, `cidr`, `format`, lists, regex, sets, semver, authz) are returned as
 * `cel-not-evaluated`, with the reason.
 */
import type * as CelModule from '@bufbuild/cel';
import { RenderedJson } from '../manifests/json';
import { CelRuleSpec, StructuralSchema } from './crd-schemas';
import { issue, SchemaIssue } from './issue';

type Cel = typeof CelModule;
type Planned = (ctx: { self: unknown }) => unknown;

/** How one rule will be handled: evaluated, or not with the reason why. */
export type CelRulePlan =
  { readonly evaluated: true; readonly run: Planned; readonly messageRun?: Planned } | { readonly evaluated: false; readonly reason: string };

/** Operators the planner of @bufbuild/cel implements itself, not through its function table. */
const PLANNER_OPERATORS = new Set(['_[_]', '_[?_]', '_?._', '_?_:_', '_&&_', '_||_', '@not_strictly_false', '__not_strictly_false__']);

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
};

let cel: Cel | undefined;
let env: ReturnType<Cel['celEnv']> | undefined;
const plans = new Map<string, CelRulePlan>();

function load(): { cel: Cel; env: ReturnType<Cel['celEnv']> } {
  if (!cel || !env) {
    cel = require('@bufbuild/cel') as Cel;
    // The strings extension is part of the Kubernetes CEL environment (ext.Strings).
    const { strings } = require('@bufbuild/cel/ext') as { strings: CelModule.CelFunc[] };
    env = cel.celEnv({ funcs: strings });
  }
  return { cel, env };
}

interface ExprNode {
  exprKind: { case?: string; value?: RenderedJson };
}

function qualifiedName(e: ExprNode | undefined): string | undefined {
  if (!e) return undefined;
  if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
  if (e.exprKind.case === 'selectExpr') {
    const q = qualifiedName(e.exprKind.value.operand);
    return q === undefined ? undefined : `${q}.${e.exprKind.value.field}`;
  }
  return undefined;
}

/** The functions an expression calls that the environment does not have. */
function missingFunctions(expr: ExprNode, funcs: { find(name: string): unknown }): string[] {
  const missing = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const n = node as ExprNode & Record<string, unknown>;
    if (n.exprKind?.case === 'callExpr') {
      const call = n.exprKind.value as { function: string; target?: ExprNode };
      const q = qualifiedName(call.target);
      const known =
        PLANNER_OPERATORS.has(call.function) ||
        funcs.find(call.function) !== undefined ||
        (q !== undefined && funcs.find(`${q}.${call.function}`) !== undefined);
      if (!known) missing.add(q !== undefined && !q.startsWith('self') ? `${q}.${call.function}` : call.function);
    }
    for (const [k, v] of Object.entries(n)) if (k !== '$typeName' && typeof v === 'object') visit(v);
  };
  visit(expr);
  return [...missing].sort();
}

function notEvaluatedReason(missing: string[]): string {
  const named = missing.map((f) => {
    const lib = KUBERNETES_LIBRARY[f] ?? (f.startsWith('format.') ? 'format' : undefined);
    return lib ? `${f}() from the Kubernetes ${lib} library` : `${f}()`;
  });
  return `calls ${named.join(', ')}, which @bufbuild/cel does not provide`;
}

/** Decides, once per rule text, whether and how the rule is evaluated. */
export function planRule(spec: CelRuleSpec): CelRulePlan {
  const cached = plans.get(spec.rule);
  if (cached) return cached;
  let plan: CelRulePlan;
  if (/\boldSelf\b/.test(spec.rule)) {
    plan = { evaluated: false, reason: 'is a transition rule (it reads oldSelf), which the API server only checks on update' };
  } else {
    const { cel: c, env: e } = load();
    let parsed: ReturnType<Cel['parse']> | undefined;
    try {
      parsed = c.parse(spec.rule);
    } catch (err) {
      plan = { evaluated: false, reason: `does not parse: ${(err as Error).message}` };
    }
    if (parsed) {
      const missing = missingFunctions(parsed.expr as unknown as ExprNode, e.funcs);
      if (missing.length) plan = { evaluated: false, reason: notEvaluatedReason(missing) };
      else {
        let messageRun: Planned | undefined;
        if (spec.messageExpression) {
          try {
            const m = c.parse(spec.messageExpression);
            if (!missingFunctions(m.expr as unknown as ExprNode, e.funcs).length) messageRun = c.plan(e, m) as Planned;
          } catch {
            messageRun = undefined; // the plain message is used instead
          }
        }
        plan = { evaluated: true, run: c.plan(e, parsed) as Planned, messageRun };
      }
    }
  }
  plans.set(spec.rule, plan!);
  return plan!;
}

/**
 * A JSON object seen by CEL as a map whose values are converted when read: a rule such as
 * `!(has(self.imageCatalogRef) && has(self.imageName))` on a Cluster's spec reads two keys, and
 * converting the whole spec up front cost more than the rest of the schema checks together.
 * @bufbuild/cel wraps any `Map` and reads it only through the methods below.
 */
class JsonCelMap extends Map<string, unknown> {
  constructor(
    private readonly json: Record<string, unknown>,
    private readonly schema: StructuralSchema | undefined,
  ) {
    super();
  }

  private childSchema(key: string): StructuralSchema | undefined {
    const extra = typeof this.schema?.additionalProperties === 'object' ? this.schema.additionalProperties : undefined;
    return this.schema?.properties?.[key] ?? extra;
  }

  public override get size(): number {
    return Object.keys(this.json).length;
  }

  public override has(key: string): boolean {
    return typeof key === 'string' && Object.prototype.hasOwnProperty.call(this.json, key);
  }

  public override get(key: string): unknown {
    return this.has(key) ? toCelValue(this.json[key], this.childSchema(key)) : undefined;
  }

  public override *keys(): MapIterator<string> {
    yield* Object.keys(this.json);
  }

  public override *values(): MapIterator<unknown> {
    for (const k of Object.keys(this.json)) yield this.get(k);
  }

  public override *entries(): MapIterator<[string, unknown]> {
    for (const k of Object.keys(this.json)) yield [k, this.get(k)];
  }

  public override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.entries();
  }

  public override forEach(callback: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    for (const k of Object.keys(this.json)) callback.call(thisArg, this.get(k), k, this);
  }
}

/** Converts JSON into CEL values with the types the schema declares (integers are CEL ints). */
export function toCelValue(x: unknown, s: StructuralSchema | undefined): unknown {
  if (Array.isArray(x)) return x.map((v) => toCelValue(v, s?.items));
  if (x !== null && typeof x === 'object') return new JsonCelMap(x as Record<string, unknown>, s);
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
 * evaluating it this way gives the result @bufbuild/cel gives (`has()` on a map cannot fail: it
 * is true when the key is there with a non-null value), without loading the library.
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
    // @bufbuild/cel's has() on a map is `get(key) != undefined`: a null value counts as absent.
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
  const quick = x !== null && typeof x === 'object' && !Array.isArray(x) ? presenceTest(spec.rule) : null;
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
  const { cel: c } = load();
  const self = toCelValue(x, s);
  const result = plan.run({ self });
  if (result === true) return undefined;
  const where = [...path, ...fieldPathSegments(spec.fieldPath)];
  // (`path` is the walker's shared stack: issues take copies.)
  if (c.isCelError(result)) {
    const text = result.message;
    if (/unbound function|no matching overload|found no matching overload/.test(text) && !/no such key|field not found/.test(text)) {
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
    const m = plan.messageRun({ self });
    if (typeof m === 'string' && m !== '') message = m;
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
