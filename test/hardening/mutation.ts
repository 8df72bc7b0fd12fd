import { Duration, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import fc from 'fast-check';

/**
 * A value built by a factory of this library (`PluginTls.privateCa(options)`,
 * `IssuerRef.issuer(name)`, ...), kept as a recipe so that its arguments can be mutated like
 * any other leaf of the props. `realize` calls the factory.
 */
export class Call {
  constructor(
    readonly label: string,
    readonly fn: (...args: any[]) => unknown,
    readonly args: unknown[],
  ) {}
}

/** Builds a recipe into real props: plain objects and arrays are copied, `Call`s are called. */
export function realize(value: unknown): any {
  if (value instanceof Call) return value.fn(...value.args.map(realize));
  if (Array.isArray(value)) return value.map(realize);
  if (isPlain(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = realize(v);
    return out;
  }
  return value;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export type Path = Array<string | number>;

/**
 * Every position in a recipe, the root included: keys of plain objects, array items and the
 * arguments of factory calls. Class instances (Duration, Size, PluginTls...) are leaves.
 */
export function paths(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [at];
  if (value instanceof Call) {
    value.args.forEach((a, i) => out.push(...paths(a, [...at, `${value.label}()`, i])));
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...paths(v, [...at, i])));
  } else if (isPlain(value)) {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...at, k]));
  }
  return out;
}

/** Marks a key to delete rather than to set. */
export const DELETE = Symbol('delete');

/** A copy of the recipe with the value at `path` replaced (or deleted). */
export function setIn(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement === DELETE ? undefined : replacement;
  const [head, ...rest] = path;
  if (value instanceof Call) {
    const i = path[1] as number;
    const args = [...value.args];
    if (rest.length === 1 && replacement === DELETE) args[i] = undefined;
    else args[i] = setIn(args[i], rest.slice(1), replacement);
    return new Call(value.label, value.fn, args);
  }
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && replacement === DELETE) copy.splice(head as number, 1);
    else copy[head as number] = setIn(copy[head as number], rest, replacement);
    return copy;
  }
  const copy: Record<string | number, unknown> = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && replacement === DELETE) delete copy[head];
  else copy[head] = setIn(copy[head], rest, replacement);
  return copy;
}

/** A path as people write it: `tls.privateCa().0.duration` -> `tls.privateCa()[0].duration`. */
export function showPath(path: Path): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '<props>';
}

function safe<T>(make: () => T): T | string {
  try {
    return make();
  } catch (e) {
    return `<${(e as Error).message}>`;
  }
}

/**
 * What JavaScript callers and config files put where they should not: wrong types, empty and
 * odd strings, out-of-range and non-finite numbers, objects of the wrong class, and a few
 * values that are valid somewhere else (so a check that only looks at the type is caught).
 */
export const JUNK_VALUES: unknown[] = [
  undefined,
  null,
  DELETE,
  true,
  false,
  0,
  -1,
  1,
  1.5,
  65536,
  2 ** 31,
  2 ** 53,
  -0,
  NaN,
  Infinity,
  -Infinity,
  '',
  ' ',
  'UPPER',
  'a b',
  '-',
  '.',
  'a'.repeat(64),
  'a'.repeat(300),
  'x',
  '9090',
  'true',
  'null',
  '0 2 * * *',
  '--server-cert=/x',
  'ghcr.io/x/y:1',
  'cnpg-system',
  'Exists',
  'ECDSA',
  'RSA',
  'Never',
  'none',
  'primary',
  '/plugins',
  '30d',
  's3://b/p',
  '\n',
  'é',
  'a/b',
  '*',
  '$(VAR)',
  '--plugin-path=/x',
  [],
  [1],
  [''],
  ['a', 7],
  [null],
  {},
  { a: 1 },
  { a: null },
  { name: 1 },
  { '': 'x' },
  { 'a b': 'c' },
  { name: 'x', key: 'y' },
  () => 1,
  Symbol('junk'),
  BigInt(10),
  new Date(0),
  /re/,
  new Map([['a', 'b']]),
  Object.create(null),
  safe(() => Duration.seconds(0)),
  safe(() => Duration.millis(1500)),
  safe(() => Duration.hours(1)),
  safe(() => Duration.hours(-1)),
  safe(() => Size.gibibytes(1)),
  safe(() => Size.kibibytes(0)),
  safe(() => Size.mebibytes(1.5)),
  kplus.Cpu.millis(100),
  kplus.EnvValue.fromValue('v'),
  kplus.DeploymentStrategy.recreate(),
];

export const junk = fc.constantFrom(...JUNK_VALUES);

/** What a run of a junk property ended with, for the report. */
export interface JunkTally {
  rejected: number;
  accepted: number;
  props: Map<string, number>;
}

export function newTally(): JunkTally {
  return { rejected: 0, accepted: 0, props: new Map() };
}

function segments(prop: string): string[] {
  return prop.split(/[.[\]/\s]/).filter((s) => s !== '');
}

/**
 * Checks that `err` is this library's own error for a mutation at `path`: the name, a message
 * that starts with the construct path (or the factory) and the prop, and a prop that belongs
 * to the mutated position (one of its keys, or an alias given for positional arguments).
 */
export function expectOwnError(err: unknown, path: Path, rootPaths: string[], aliases: Record<string, string[]> = {}): string {
  const e = err as { name?: unknown; message?: unknown; constructPath?: unknown; prop?: unknown; stack?: unknown };
  const where = `mutation at ${showPath(path)}`;
  if (e === null || typeof e !== 'object' || e.name !== 'CnpgIValidationError') {
    throw new Error(`${where} threw a foreign error: ${String((e as any)?.stack ?? e)}`);
  }
  const constructPath = String(e.constructPath);
  const prop = String(e.prop);
  const message = String(e.message);
  if (!message.startsWith(`${constructPath}: ${prop} `)) {
    throw new Error(`${where}: message does not start with '<construct path>: <prop> ': ${message}`);
  }
  const isFactory = /^[A-Z][A-Za-z]+\.[a-zA-Z][a-zA-Z0-9]*$/.test(constructPath) || constructPath === 'checkManifests';
  if (!isFactory && !rootPaths.some((r) => constructPath === r || constructPath.startsWith(`${r}/`))) {
    throw new Error(`${where}: error names construct path '${constructPath}', expected one of ${rootPaths.join(', ')}: ${message}`);
  }
  const keys = new Set(path.filter((p): p is string => typeof p === 'string').flatMap((p) => [p, ...(aliases[p] ?? [])]));
  const first = segments(prop)[0];
  // A factory names its own parameters (IssuerRef.issuer: name ...): fine when it is on the path.
  const factoryOnPath = isFactory && path.includes(`${constructPath}()`);
  if (path.length > 0 && !factoryOnPath && !keys.has(first) && !(aliases['*'] ?? []).includes(first)) {
    throw new Error(`${where}: error names prop '${prop}', which is not part of the mutated position: ${message}`);
  }
  return prop;
}
