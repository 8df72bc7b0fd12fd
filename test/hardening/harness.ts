import fc from 'fast-check';
import { check } from './fc-config';
import { JunkTally, Path, expectOwnError, junk, paths, realize, setIn, showPath } from './mutation';

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
  return paths(recipe).slice(1).filter((p) => !(s.fixed?.(p) ?? false));
}

/** Valid props: synthesis succeeds and the output passes `verify`. */
export function validProperty<R>(s: Scenario<R>): void {
  check(fc.property(s.arbitrary, (recipe) => {
    const props = realize(recipe);
    s.verify(s.build(props), props);
  }));
}

/**
 * One position of valid props replaced with junk (or deleted): either this library's own error,
 * naming the construct path and the prop, or an output that passes `verify` like any valid one.
 */
export function junkProperty<R>(s: Scenario<R>, tally: JunkTally): void {
  const mutated = s.arbitrary.chain((recipe) => fc.tuple(fc.constant(recipe), fc.constantFrom(...mutablePaths(s, recipe)), junk));
  check(fc.property(mutated, ([recipe, path, value]) => {
    const changed = setIn(recipe, path as Path, value);
    let built: Built;
    let props: any;
    try {
      props = realize(changed);
      built = s.build(props);
    } catch (e) {
      const prop = expectOwnError(e, path as Path, s.roots, s.aliases);
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
  }));
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
