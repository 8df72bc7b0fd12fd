import fc from 'fast-check';
import { check } from './fc-config';
import { Call, DELETE, JunkTally, Path, expectOwnError, junk, paths, realize, setIn, showPath } from './mutation';

/** What a scenario produced: the synthesized objects, and checks beyond the shared oracle. */
export interface Built {
  readonly objects: any[];
}

export interface Scenario<R> {
  /** Valid recipes. */
  readonly arbitrary: fc.Arbitrary<R>;
  /** Builds and synthesizes the realized props; throws for bad input. */
  readonly build: (props: any) => Built;
  /** Checks an output that the library accepted (the shared oracle plus the scenario's own). */
  readonly verify: (built: Built, props: any) => void;
  /** Construct paths under which errors are expected (factories are always allowed). */
  readonly roots: string[];
  /** Props named by errors for mutations of positional arguments (`name` -> `externalClusters`). */
  readonly aliases?: Record<string, string[]>;
  /**
   * Positions that are the test's own structure (lists of calls, names the test needs) or the
   * inside of a typed passthrough, whose field types only TypeScript checks; not mutated.
   */
  readonly fixed?: (path: Path) => boolean;
}

/** The positions of a recipe that the junk property mutates. */
export function mutablePaths<R>(s: Scenario<R>, recipe: R): Path[] {
  return paths(recipe)
    .slice(1)
    .filter((p) => !(s.fixed?.(p) ?? false));
}

/** Valid props: synthesis succeeds and the output passes `verify`. */
export function validProperty<R>(s: Scenario<R>): void {
  check(
    fc.property(s.arbitrary, (recipe) => {
      const props = realize(recipe);
      s.verify(s.build(props), props);
    }),
  );
}

/**
 * One position of valid props replaced with junk (or deleted): either this library's own error,
 * naming the construct path and the prop, or an output that passes `verify` like any valid one.
 */
export function junkProperty<R>(s: Scenario<R>, tally: JunkTally): void {
  const mutated = s.arbitrary.chain((recipe) => fc.tuple(fc.constant(recipe), fc.constantFrom(...mutablePaths(s, recipe)), junk));
  check(
    fc.property(mutated, ([recipe, path, value]) => {
      const changed = setIn(recipe, path as Path, value);
      let built: Built;
      let props: any;
      try {
        props = realize(changed);
        built = s.build(props);
      } catch (e) {
        const prop = expectLibraryRefusal(e, path as Path, s.roots, s.aliases);
        expectReadableMessage(e, path as Path);
        tally.rejected++;
        const top = prop.split(/[.[\s]/)[0];
        tally.props.set(top, (tally.props.get(top) ?? 0) + 1);
        return;
      }
      try {
        s.verify(built, props);
      } catch (e) {
        (e as Error).message = `junk ${describe(value)} at ${showPath(path as Path)} was accepted, but: ${(e as Error).message}`;
        throw e;
      }
      tally.accepted++;
    }),
  );
}

/**
 * Words a refusal must never print (issue #13 point 5): a missing value printed as `undefined`,
 * an object printed as `[object Object]`, a type error about nothing (`not undefined`), or the
 * old `is already added` wording.
 */
export const UNREADABLE = [/\bundefined\b/, /\[object Object\]/, /not undefined/, /is already added/];

/** Fails when the message of a refusal holds one of the {@link UNREADABLE} words. */
export function expectReadableMessage(err: unknown, path: Path = []): void {
  const message = String((err as { message?: unknown } | null)?.message ?? err);
  const bad = UNREADABLE.find((re) => re.test(message));
  if (bad !== undefined) throw new Error(`the refusal of the mutation at ${showPath(path)} reads ${bad}: ${message}`);
}

function describe(v: unknown): string {
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'function') return '[function]';
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

// ---------------------------------------------------------------------------------------------
// Errors reported at synth: cdk8s folds the construct validations (addChecks, addSchemaGuard in
// src/schema/guard.ts) into one plain Error, one line per problem.

const VALIDATION_HEADER = 'Validation failed with the following errors:';

/** One line of a cdk8s validation error: the construct path cdk8s names, and the message. */
export interface ValidationLine {
  readonly path: string;
  readonly message: string;
}

/** The lines of a cdk8s validation error, or `undefined` for any other error. */
export function validationLines(err: unknown): ValidationLine[] | undefined {
  const message = (err as { message?: unknown } | null)?.message;
  if (!(err instanceof Error) || typeof message !== 'string' || !message.startsWith(VALIDATION_HEADER)) return undefined;
  return message
    .slice(VALIDATION_HEADER.length)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      const m = /^\s*\[([^\]]*)\] (.*)$/.exec(l);
      if (m === null) throw new Error(`not a cdk8s validation line: ${JSON.stringify(l)}`);
      return { path: m[1], message: m[2] };
    });
}

/**
 * Like `expectOwnError`, for an error thrown at construction or at synth. At synth, every line
 * must come from a construct under the roots; a line of `addChecks` (`<construct path>: <prop>
 * ...`, a CnpgIValidationError's message) is checked as that error would be, and at least one
 * line must name the mutated prop unless all lines are the schema guard's (which name the JSON
 * path of the rendered object, not the prop). Returns the prop, or `schema guard`.
 */
export function expectLibraryRefusal(err: unknown, path: Path, roots: string[], aliases: Record<string, string[]> = {}): string {
  const lines = validationLines(err);
  if (lines === undefined) return expectOwnError(err, path, roots, aliases);
  const where = `mutation at ${showPath(path)}`;
  for (const l of lines) {
    if (!roots.some((r) => l.path === r || l.path.startsWith(`${r}/`))) {
      throw new Error(`${where}: validation error under '${l.path}', expected one of ${roots.join(', ')}: ${l.message}`);
    }
  }
  const checks = lines.map(asCheckError).filter((x): x is CheckError => x !== undefined);
  if (checks.length === 0) return 'schema guard';
  const failures: string[] = [];
  for (const c of checks) {
    try {
      return expectOwnError(c, path, roots, aliases);
    } catch (e) {
      failures.push((e as Error).message);
    }
  }
  throw new Error(failures.join('\n'));
}

interface CheckError {
  name: string;
  constructPath: string;
  prop: string;
  message: string;
}

/**
 * A line written by `addChecks` (a CnpgIValidationError's message), read back into its parts.
 * The message of an error about the construct cdk8s names lost its own leading path (cdk8s
 * prints it in brackets already), so it is put back; an error about another construct (a
 * child, a parent) keeps its path. The schema guard's lines end with `; allowed ...`.
 */
function asCheckError(line: ValidationLine): CheckError | undefined {
  const colon = line.message.indexOf(': ');
  const named = colon < 0 ? '' : line.message.slice(0, colon);
  const related = named !== '' && (named === line.path || named.startsWith(`${line.path}/`) || line.path.startsWith(`${named}/`));
  if (!related && /; allowed /.test(line.message)) return undefined;
  const message = related ? line.message : `${line.path}: ${line.message}`;
  const constructPath = related ? named : line.path;
  const prop = message.slice(constructPath.length + 2).split(' ')[0];
  return { name: 'CnpgIValidationError', constructPath, prop, message };
}

// ---------------------------------------------------------------------------------------------
// The key property: a props or options object with a key it does not declare is refused with
// this library's error naming that key (src/common/props.ts checkProps), never dropped.

const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Misspellings of a declared key as people make them: another case, the first letter
 * capitalized, a letter dropped, doubled or two swapped, an `s` added. Only the ones that are not
 * declared keys themselves.
 */
export function nearMisses(key: string, keys: readonly string[]): string[] {
  const out = new Set<string>([key.toLowerCase(), key.toUpperCase(), key[0].toUpperCase() + key.slice(1), `${key}s`]);
  for (let i = 0; i < key.length; i++) {
    out.add(key.slice(0, i) + key.slice(i + 1));
    out.add(key.slice(0, i + 1) + key[i] + key.slice(i + 1));
    if (i + 1 < key.length) out.add(key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2));
  }
  const declared = new Set(keys);
  return [...out].filter((k) => k !== '' && !declared.has(k) && !RESERVED.has(k)).sort();
}

/** An unknown key for an object that declares `keys`: a near miss of one of them, or a random name. */
export function unknownKey(keys: readonly string[]): fc.Arbitrary<string> {
  const declared = new Set(keys);
  const random = fc.stringMatching(/^[a-zA-Z_$][a-zA-Z0-9_$]{0,15}$/).filter((k) => !declared.has(k) && !RESERVED.has(k));
  const misses = keys.flatMap((k) => nearMisses(k, keys));
  return misses.length === 0 ? random : fc.oneof(fc.constantFrom(...misses), random);
}

/** The value written under an unknown key: what a user would have meant for the declared one, or junk. */
const unknownValue = fc.oneof(
  fc.constant(true),
  fc.constant(false),
  fc.constant(1),
  fc.constant('x'),
  fc.constant({}),
  junk.filter((v) => v !== DELETE),
);

/**
 * A props object from `arb` with one key it does not declare added, and that key: for the key
 * property of a construct, `new X(scope, id, props)` must then throw this library's error naming
 * the key.
 */
export function withUnknownKey<T extends object>(arb: fc.Arbitrary<T>, keys: readonly string[]): fc.Arbitrary<{ props: T; key: string; value: unknown }> {
  return fc.tuple(arb, unknownKey(keys), unknownValue).map(([props, key, value]) => ({ props: { ...props, [key]: value }, key, value }));
}

/**
 * Checks that `err` is this library's refusal of the unknown `key`: a CnpgIValidationError (or,
 * at synth, a validation line) whose prop ends with the key.
 */
export function expectUnknownKeyError(err: unknown, key: string, roots: string[]): void {
  const lines = validationLines(err);
  const errors: Array<{ name?: unknown; constructPath?: unknown; prop?: unknown; message?: unknown }> =
    lines === undefined ? [err as any] : lines.map(asCheckError).filter((x): x is CheckError => x !== undefined);
  const ok = errors.some(
    (e) =>
      e?.name === 'CnpgIValidationError' &&
      typeof e.prop === 'string' &&
      (e.prop === key || e.prop.endsWith(`.${key}`)) &&
      roots.some(
        (r) => String(e.constructPath) === r || String(e.constructPath).startsWith(`${r}/`) || /^[A-Z][A-Za-z]+\.[a-zA-Z]+$/.test(String(e.constructPath)),
      ),
  );
  if (!ok) {
    const shown = err instanceof Error ? (err.stack ?? err.message) : String(err);
    throw new Error(`unknown key '${key}' was not refused by name: ${shown}`);
  }
}

/**
 * The key property of a scenario: an unknown key added to the plain object at `at` in a valid
 * recipe (`[]` for the props themselves, `['tls']` for a nested options object, or the argument
 * of a factory call such as `['tls', 'PluginTls.privateCa()', 0]`) is refused by name; declared
 * keys are `keys`.
 */
export function keyProperty<R>(s: Scenario<R>, at: Path, keys: readonly string[]): void {
  check(
    fc.property(s.arbitrary, unknownKey(keys), unknownValue, (recipe, key, value) => {
      const target = getIn(recipe, at);
      if (target === undefined) return; // the optional object is not in this recipe
      if (target === null || typeof target !== 'object' || Array.isArray(target) || target instanceof Call) {
        throw new Error(`key property: ${showPath(at)} is not a plain object in the recipe`);
      }
      const changed = setIn(recipe, [...at, key], value);
      let built: Built;
      try {
        built = s.build(realize(changed));
      } catch (e) {
        expectUnknownKeyError(e, key, s.roots);
        expectReadableMessage(e, [...at, key]);
        return;
      }
      throw new Error(`unknown key '${key}' at ${showPath(at)} was accepted (${built.objects.length} objects written)`);
    }),
  );
}

/** The value at `path` in a recipe (through factory-call arguments), or undefined. */
export function getIn(value: unknown, path: Path): unknown {
  let v: unknown = value;
  for (let i = 0; i < path.length; i++) {
    if (v instanceof Call) {
      v = v.args[path[++i] as number];
      continue;
    }
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[path[i]];
  }
  return v;
}
