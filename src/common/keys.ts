import { ErrorScope, Problem, refuseProblem, wrongType } from '../manifests/errors';
import { nearestName } from '../manifests/nearest-name';

/**
 * Every key of a props interface, each mapped to `true`. An object literal of this type must
 * list all the keys of `T` (optional ones included) and nothing else, so the compiler keeps a
 * runtime key list in step with the interface it describes.
 * @internal
 */
export type DeclaredKeys<T> = { readonly [K in keyof Required<T>]: true };

/**
 * The keys of a props interface as a sorted, frozen list, for {@link refuseUnknownKeys}:
 * `const KEYS = declaredKeys<BarmanCloudPluginProps>({ image: true, namespace: true, ... })`.
 * @internal
 */
export function declaredKeys<T>(keys: DeclaredKeys<T>): readonly string[] {
  return Object.freeze(Object.keys(keys).sort());
}

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
}

/** How many declared keys an error lists when it has no suggestion. */
const LISTED_KEYS = 12;

/**
 * Refuses a props or options object from JavaScript that carries a key the interface does not
 * declare: such a key would be dropped without a word (`isWALArchiver` for `isWalArchiver`).
 * The first unknown key in sorted order is reported, with the nearest declared key when one is
 * close (same letters in another case first, then a small edit distance). A value that is not an
 * object (`undefined`, `null`, an array, a string, a function) is refused too: its keys cannot
 * be read.
 * @internal
 */
export function refuseUnknownKeys(scope: ErrorScope, prop: string, value: unknown, keys: readonly string[], options: RefuseUnknownKeysOptions = {}): void {
  refuseProblem(scope, unknownKeysProblem(prop, value, keys, options));
}

/**
 * What {@link refuseUnknownKeys} refuses in `value`, if anything.
 * @internal
 */
export function unknownKeysProblem(prop: string, value: unknown, keys: readonly string[], options: RefuseUnknownKeysOptions = {}): Problem | undefined {
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
  const near = nearestName(key, keys);
  const others = unknown.length > 1 ? ` (and ${unknown.length - 1} more unknown key${unknown.length > 2 ? 's' : ''})` : '';
  const fix =
    near !== undefined ? `did you mean '${near}'?` : keys.length > 0 ? `remove it; ${prop} takes ${listKeys(keys)}` : `remove it; ${prop} takes no keys`;
  return { prop: `${prop}.${key}`, value: (value as Record<string, unknown>)[key], problem: `is not a declared key of ${prop}${others}`, fix };
}

/** The declared keys for a message, the first {@link LISTED_KEYS} of them. */
function listKeys(keys: readonly string[]): string {
  return keys.length > LISTED_KEYS ? `${keys.slice(0, LISTED_KEYS).join(', ')}, ...` : keys.join(', ');
}
