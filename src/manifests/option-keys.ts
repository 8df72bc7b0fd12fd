/*
 * The one check of the keys of a props or options object: a key the interface does not declare
 * is refused with the nearest declared one, since JavaScript (and a typo under a cast) would
 * otherwise drop it without a word. Used by the constructs' props checker (src/common/props.ts)
 * and by the options of the doctor and the plan, which cannot import src/common.
 */
import { ErrorScope, Problem, refuseProblem, wrongType } from './errors';
import { nearestName } from './nearest-name';

/**
 * Options of {@link refuseUnknownKeys}.
 * @internal
 */
export interface RefuseUnknownKeysOptions {
  /**
   * Accept `undefined` (an optional options argument left out).
   * @default false
   */
  readonly optional?: boolean;
  /**
   * The keys that must be set, named in the fix when the value is not an object.
   * @default - none: the fix names the declared keys
   */
  readonly required?: readonly string[];
  /**
   * Keys a user may expect from another tool or release, each with the fix to name instead of
   * the nearest declared key (the plan's `disable`, which the doctor has and the plan has not).
   * @default - none
   */
  readonly hints?: Readonly<Record<string, string>>;
}

/** How many declared keys an error lists when it has no suggestion. */
const LISTED_KEYS = 12;

/**
 * Refuses a props or options object from JavaScript that carries a key the interface does not
 * declare: such a key would be dropped without a word (`isWALArchiver` for `isWalArchiver`).
 * The first unknown key in sorted order is reported, with the nearest declared key when one is
 * close (same letters in another case first, then a small edit distance). A value that is not an
 * object (`undefined`, `null`, an array, a string, a function) is refused too: its keys cannot
 * be read. `checkProps` runs it.
 * @internal
 */
export function refuseUnknownKeys(scope: ErrorScope, prop: string, value: unknown, keys: readonly string[], options: RefuseUnknownKeysOptions = {}): void {
  refuseProblem(scope, unknownKeysProblem(prop, value, keys, options));
}

/** What {@link refuseUnknownKeys} refuses in `value`, if anything. */
function unknownKeysProblem(prop: string, value: unknown, keys: readonly string[], options: RefuseUnknownKeysOptions = {}): Problem | undefined {
  if (value === undefined && options.optional) return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const required = options.required ?? [];
    const fix =
      required.length > 0
        ? `pass { ${required.map((k) => `${k}: ...`).join(', ')} } (${required.length > 1 ? 'these keys are' : 'this key is'} required)`
        : keys.length > 0
          ? `pass an object with any of ${listKeys(keys)}${options.optional ? ', or leave it out' : ''}`
          : 'pass {}';
    return { prop, value, problem: wrongType('an object', value), fix };
  }
  // Runs for every props object at construction: nothing is allocated when all keys are known.
  let unknown: string[] | undefined;
  for (const k of Object.keys(value)) if (!keys.includes(k)) (unknown ??= []).push(k);
  if (unknown === undefined) return undefined;
  unknown.sort();
  const key = unknown[0];
  const hint = options.hints !== undefined && Object.prototype.hasOwnProperty.call(options.hints, key) ? options.hints[key] : undefined;
  const near = nearestName(key, keys);
  const others = unknown.length > 1 ? ` (and ${unknown.length - 1} more unknown key${unknown.length > 2 ? 's' : ''})` : '';
  const fix =
    hint !== undefined
      ? hint
      : near !== undefined
        ? `did you mean '${near}'?`
        : keys.length > 0
          ? `remove it; ${prop} takes ${listKeys(keys)}`
          : `remove it; ${prop} takes no keys`;
  return { prop: `${prop}.${key}`, value: (value as Record<string, unknown>)[key], problem: `is not a declared key of ${prop}${others}`, fix };
}

/** The declared keys for a message, the first {@link LISTED_KEYS} of them. */
function listKeys(keys: readonly string[]): string {
  return keys.length > LISTED_KEYS ? `${keys.slice(0, LISTED_KEYS).join(', ')}, ...` : keys.join(', ');
}
