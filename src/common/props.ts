/*
 * The props checker of every construct: one declaration per props interface (a `PropSpec`)
 * says what each key holds, so that a JavaScript caller gets this library's error (never a
 * TypeError, never wrong YAML) for a value TypeScript would have refused, and an unknown key is
 * refused with the nearest declared one. The shape of the objects written is checked again at
 * synth by the schema guard; what stays here is what no schema sees: the type of a prop before
 * it is rendered, and the classes of this library, cdk8s and cdk8s-plus.
 *
 * This file holds the mechanism (specs, `checkProps`, the key check, cross-field rules, the
 * union-like class check); `prop-kinds.ts` holds the table of kinds (`Kind`) that specs use.
 */
import { ErrorScope, Problem, invalid, refuseProblem, wrongType } from '../manifests/errors';
import { refuseUnknownKeys } from '../manifests/option-keys';

/**
 * Judges one value of a prop; `prop` is the path the user wrote (`securityContext.user`). A
 * kind returns the {@link Problem} of a value it refuses and `undefined` for one it accepts; a
 * kind built on one of the library's validators of `src/common` may let that validator throw.
 * `checkProps` runs a kind on the values that are set only, unless the kind was made with
 * {@link evenMissing}.
 * @internal
 */
export type PropKind = (scope: ErrorScope, prop: string, value: unknown) => Problem | undefined;

/**
 * A kind for every key of a props interface, and no other key: the compiler keeps the runtime
 * key list in step with the interface it describes. The order of the keys is the order in which
 * their values are judged.
 * @internal
 */
export type PropSpec<T> = { readonly [K in keyof Required<T>]: PropKind };

/**
 * The kind of anything: a value checked where it is used (it needs another prop, or is rendered
 * and checked in one go), or left to the schema guard at synth.
 * @internal
 */
export const anyValue: PropKind = () => undefined;

const EVEN_MISSING = new WeakSet<PropKind>();

/**
 * `kind`, also run on a missing value: the kind itself then says what a left-out key must be
 * (`storage is missing: it must be an object; ...`), instead of `checkProps` refusing a required
 * key as lacking. A kind that accepts `undefined` leaves a missing value to the schema guard.
 * @internal
 */
export function evenMissing(kind: PropKind): PropKind {
  const wrapped: PropKind = (s, p, v) => kind(s, p, v);
  EVEN_MISSING.add(wrapped);
  return wrapped;
}

/** Options of {@link checkProps}. @internal */
export interface CheckPropsOptions<T> {
  /**
   * Accept `undefined` for the whole object (an options argument that may be left out); the fix
   * for a value that is not an object then says so.
   */
  readonly optional?: boolean;
  /**
   * Keys that must be set, named in the fix for a value that is not an object. A missing one is
   * refused as lacking, all together, before any value is judged, unless its kind judges a
   * missing value itself ({@link evenMissing}).
   */
  readonly required?: ReadonlyArray<keyof T & string>;
  /** An example of the whole object, for the messages about a missing key or a non-object. */
  readonly example?: string;
  /** Keys of earlier releases and what replaced them, named in the error. */
  readonly renamed?: Readonly<Record<string, string>>;
  /**
   * Name the keys alone in the messages about their values, as for `props` and `options`: the
   * object is the whole argument of a factory, named otherwise (`reference`).
   */
  readonly keysAlone?: boolean;
  /**
   * The order in which the messages about unknown keys list the declared keys: `sorted`, or
   * `declared`, as the spec lists them (the keys a user should look at first, first).
   * @default 'sorted'
   */
  readonly listKeys?: 'sorted' | 'declared';
}

/**
 * The one check of a props or options object: refuses a value that is not an object, a key
 * `spec` does not declare (with the nearest declared one), or a missing required key, then
 * judges every value by its kind, in the order of `spec`. `prop` is `props` or `options` for a
 * construct's or a factory's own argument (the keys are then named alone, as the user wrote
 * them; see `keysAlone`), or the path of a nested object. Returns the value, typed.
 * @internal
 */
export function checkProps<T>(scope: ErrorScope, prop: string, value: unknown, spec: PropSpec<T>, options: CheckPropsOptions<T> = {}): T {
  if (value === undefined && options.optional) return value as T;
  const object = value !== null && typeof value === 'object' && !Array.isArray(value);
  const renamed = object
    ? Object.keys(value)
        .sort()
        .find((k) => !(k in spec) && options.renamed?.[k] !== undefined)
    : undefined;
  if ((!object && options.example !== undefined) || renamed !== undefined) {
    invalid(
      scope,
      renamed === undefined ? prop : `${prop}.${renamed}`,
      renamed === undefined ? value : (value as Record<string, unknown>)[renamed],
      renamed === undefined ? wrongType('an object', value) : `is not a key of ${prop}: it was renamed`,
      renamed === undefined ? `pass e.g. ${options.example}` : `use '${options.renamed![renamed]}' (the cdk8s-plus name)`,
    );
  }
  const keys = options.listKeys === 'declared' ? Object.keys(spec) : specKeys(spec);
  refuseUnknownKeys(scope, prop, value, keys, { optional: options.optional, required: options.required });
  const given = value as Record<string, unknown>;
  const kinds = spec as Readonly<Record<string, PropKind>>;
  const missing = (options.required ?? []).filter((k) => given[k] === undefined && !EVEN_MISSING.has(kinds[k]));
  if (missing.length > 0) {
    invalid(
      scope,
      prop,
      Object.keys(given).filter((k) => given[k] !== undefined),
      `lacks the required key${missing.length > 1 ? 's' : ''} ${missing.map((k) => `'${k}'`).join(', ')}`,
      options.example === undefined ? `set ${missing.join(' and ')}` : `pass e.g. ${options.example}`,
    );
  }
  const alone = options.keysAlone ?? (prop === 'props' || prop === 'options');
  for (const [key, kind] of Object.entries(kinds)) {
    if (given[key] !== undefined || EVEN_MISSING.has(kind)) checkValue(scope, alone ? key : `${prop}.${key}`, given[key], kind);
  }
  return value as T;
}

const SORTED_KEYS = new WeakMap<object, readonly string[]>();

/**
 * The keys of a spec in sorted order, computed once per spec: what the messages about unknown
 * keys list.
 * @internal
 */
export function specKeys(spec: object): readonly string[] {
  let keys = SORTED_KEYS.get(spec);
  if (keys === undefined) {
    keys = Object.freeze(Object.keys(spec).sort());
    SORTED_KEYS.set(spec, keys);
  }
  return keys;
}

/**
 * Runs one kind on a value and throws the library's error for the {@link Problem} it returns:
 * the one place the kinds' problems become errors.
 * @internal
 */
export function checkValue(scope: ErrorScope, prop: string, value: unknown, kind: PropKind): void {
  refuseProblem(scope, kind(scope, prop, value));
}

// --- Keys --------------------------------------------------------------------------------------

// The key check lives in src/manifests (option-keys.ts), so that the doctor and the plan, which
// sit below this layer, refuse unknown option keys with the same words.
export { refuseUnknownKeys } from '../manifests/option-keys';
export type { RefuseUnknownKeysOptions } from '../manifests/option-keys';

// --- Union-like classes ------------------------------------------------------------------------

/**
 * A union-like class of this library: a private constructor, static factories, and a static
 * `_factories` that names them (`ClusterImage.fromName(...) or ClusterImage.fromCatalog(...)`),
 * for the message that refuses any other value.
 * @internal
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- the classes have private constructors
export type FactoryClass = Function & { readonly _factories: string };

/**
 * The problem of a value that was not made by the static factories of `cls`, if it is one.
 * @internal
 */
export function factoryProblem(cls: FactoryClass, prop: string, value: unknown): Problem | undefined {
  if (value instanceof cls) return undefined;
  return { prop, value, problem: wrongType(`${/^[AEIOU]/.test(cls.name) ? 'an' : 'a'} ${cls.name}`, value), fix: `use ${cls._factories}` };
}

// --- Cross-field rules -------------------------------------------------------------------------

/**
 * One rule of a construct: when `failed`, the library's error for `prop` and `value`, with the
 * problem and the fix. A construct lists its rules (the operator's, the cross-field ones) as a
 * table, in the order they are reported.
 * @internal
 */
export type Rule = readonly [failed: boolean, prop: string, value: unknown, problem: string, fix: string];

/**
 * Throws the library's error for the first rule of `rules` that failed. The conditions are
 * plain booleans, so each must be safe to compute on checked props.
 * @internal
 */
export function refuseFirst(scope: ErrorScope, rules: ReadonlyArray<Rule | false>): void {
  const failed = rules.find((r): r is Rule => r !== false && r[0]);
  if (failed !== undefined) invalid(scope, failed[1], failed[2], failed[3], failed[4]);
}
