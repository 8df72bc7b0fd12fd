import { Chart, Testing } from 'cdk8s';
import { CnpgIValidationError } from '../src';

/** A synthesized Kubernetes object, as plain JSON. */
export type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [k: string]: any }; [k: string]: any };

/** A chart in a fresh app, with the namespace a plugin needs. */
export function chartIn(namespace: string | undefined = 'cnpg-system', id = 'cnpg-system'): Chart {
  return new Chart(Testing.app(), id, namespace === undefined ? {} : { namespace });
}

/** Synthesizes a chart into plain objects. */
export function synth(chart: Chart): Manifest[] {
  return Testing.synth(chart) as Manifest[];
}

/** Every synthesized object of a kind. */
export function ofKind(objects: Manifest[], kind: string): Manifest[] {
  return objects.filter((o) => o.kind === kind);
}

/** The one synthesized object of a kind; fails the test when there is not exactly one. */
export function only(objects: Manifest[], kind: string): Manifest {
  const found = ofKind(objects, kind);
  if (found.length !== 1) throw new Error(`expected one ${kind}, found ${found.length}`);
  return found[0];
}

/** The object of a kind with a given name. */
export function named(objects: Manifest[], kind: string, name: string): Manifest {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} named ${name}`);
  return found;
}

/** Runs `fn` and checks it throws this library's error with exactly `message`. */
export function expectValidationError(fn: () => unknown, message: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  if (caught === undefined) throw new Error(`expected an error: ${message}`);
  expect(caught).toBeInstanceOf(CnpgIValidationError);
  expect((caught as Error).name).toBe('CnpgIValidationError');
  expect((caught as Error).message).toBe(message);
}

/**
 * Wraps plain JSON objects so that every property read on them (at any depth) is counted.
 * Tests use it to assert complexity without a clock: the count for 4n objects against n.
 */
export function countingReads<T extends object>(values: T[]): { values: T[]; reads: () => number } {
  let reads = 0;
  const wrapped = new WeakMap<object, object>();
  const wrap = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const known = wrapped.get(value as object);
    if (known) return known;
    const proxy = new Proxy(value as object, {
      get(target, key, receiver) {
        reads++;
        return wrap(Reflect.get(target, key, receiver));
      },
    });
    wrapped.set(value as object, proxy);
    return proxy;
  };
  return { values: values.map((v) => wrap(v) as T), reads: () => reads };
}

/**
 * The keys of a props interface, sorted, as a test states them: the object literal must list
 * every key of `T` (optional ones included) and nothing else, so the compiler keeps the list in
 * step with the interface, independently of the construct's own spec.
 */
export function declaredKeys<T>(keys: { readonly [K in keyof Required<T>]: true }): readonly string[] {
  return Object.keys(keys).sort();
}
