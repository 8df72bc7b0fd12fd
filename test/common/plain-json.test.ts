import { Duration, Size, Testing } from 'cdk8s';
import { ClusterSpecStoragePvcTemplateResourcesRequests } from '../../imports/postgresql.cnpg.io';
import { jsonProblem, validateJson } from '../../src/common/plain-json';
import { refuseProblem } from '../../src/manifests/errors';
import { PostgresCluster } from '../../src/postgres';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';

const js = (v: unknown): any => v;
const FIX = 'write strings, numbers, booleans, arrays and plain objects, as the CRD takes them';

describe('jsonProblem: the one walk that refuses what cannot be written as given', () => {
  test('plain JSON passes; undefined members are left out', () => {
    expect(jsonProblem({ a: 'x', b: 1, c: true, d: null, e: [1, 'two', { f: [] }], g: undefined }, 'spec')).toBeUndefined();
    expect(jsonProblem(Object.assign(Object.create(null), { a: 1 }), 'spec')).toBeUndefined();
  });

  test.each<[string, unknown, string, string]>([
    ['a Date', { at: new Date(0) }, 'spec.at', 'is not plain JSON (Date)'],
    ['a cdk8s Duration', [Duration.seconds(1)], 'spec[0]', 'is not plain JSON (Duration)'],
    ['NaN', { n: NaN }, 'spec.n', 'is not plain JSON (number)'],
    ['Infinity deep down', { a: [{ b: Infinity }] }, 'spec.a[0].b', 'is not plain JSON (number)'],
    ['a function', { f: () => 1 }, 'spec.f', 'is not plain JSON (function)'],
    ['a bigint', { b: 1n }, 'spec.b', 'is not plain JSON (bigint)'],
    ['a symbol', { s: Symbol('s') }, 'spec.s', 'is not plain JSON (symbol)'],
    ['a generated quantity class outside a comparison', { q: ClusterSpecStoragePvcTemplateResourcesRequests.fromString('1Gi') }, 'spec.q', 'is not plain JSON'],
  ])('%s is refused at its path', (_, value, path, problem) => {
    const found = jsonProblem(value, 'spec');
    expect(found?.prop).toBe(path);
    expect(found?.problem).toContain(problem);
    expect(found?.fix).toBe(FIX);
  });

  test('an empty item of a list is refused (JSON would write null)', () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is what is tested
    expect(jsonProblem({ l: ['a', , 'c'] }, 'spec')).toEqual({
      prop: 'spec.l[1]',
      value: undefined,
      problem: 'is an empty item of the list',
      fix: 'remove the item',
    });
    expect(jsonProblem({ l: ['a', undefined] }, 'spec')?.prop).toBe('spec.l[1]');
  });

  test('validateJson throws the first problem with the construct path', () => {
    expectValidationError(
      () => validateJson('p', 'metadata', { labels: { a: Size.gibibytes(1) } }),
      `p: metadata.labels.a {"amount":1,"unit":{"label":"gibibytes","inKibiBytes":1048576,"abbr":"Gi"}} is not plain JSON (Size); ${FIX}`,
    );
    expect(() => validateJson('p', 'metadata', { labels: { a: 'b' } })).not.toThrow();
  });

  test('refuseProblem throws nothing without a problem', () => {
    expect(() => refuseProblem('p', undefined)).not.toThrow();
    expectValidationError(() => refuseProblem('p', { prop: 'x', value: 1, problem: 'is odd', fix: 'make it even' }), 'p: x 1 is odd; make it even');
  });
});

describe('jsonProblem with written: what the generated bindings drop or change', () => {
  test('the same value, renamed keys and generated quantity classes pass', () => {
    expect(jsonProblem({ enablePdb: true, l: [1] }, 'spec', { written: { enablePDB: true, l: [1] } })).toBeUndefined();
    const q = ClusterSpecStoragePvcTemplateResourcesRequests.fromString('5Gi');
    expect(jsonProblem({ storage: q }, 'requests', { written: { storage: '5Gi' } })).toBeUndefined();
  });

  test('a key that is not written is named, with the spelling fix', () => {
    expect(jsonProblem({ a: { topologykey: 'zone' } }, 'affinity', { written: { a: {} } })).toEqual({
      prop: 'affinity.a.topologykey',
      value: 'zone',
      problem: 'would not be written: the Cluster CRD bindings have no such field here, or no such value',
      fix: "check the spelling and the type against the CRD (a quantity is a string such as '5Gi')",
    });
  });

  test('a value written differently is named with what would be written', () => {
    expect(jsonProblem({ t: 'latest' }, 'r', { written: { t: {} } })?.problem).toBe('would be written as {}');
    expect(jsonProblem({ t: 'x' }, 'r', { written: {} })?.problem).toBe(
      'would not be written: the Cluster CRD bindings have no such field here, or no such value',
    );
    expect(jsonProblem(['x'], 'r', { written: [] })?.problem).toBe('would be written as nothing');
  });

  test('a quantity class holding a number that JSON cannot hold is refused by that number', () => {
    const q = ClusterSpecStoragePvcTemplateResourcesRequests.fromNumber(NaN);
    expect(jsonProblem({ storage: q }, 'requests', { written: { storage: NaN } })?.problem).toContain('is not plain JSON');
  });
});

describe('the Cluster refuses an empty list item in a passthrough at synth (the walk of the passthrough is the one of metadata)', () => {
  test('spec.env with a hole', () => {
    const chart = Testing.chart();
    // eslint-disable-next-line no-sparse-arrays -- the hole is what is tested
    new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, spec: { env: js([{ name: 'A', value: 'a' }, , { name: 'B', value: 'b' }]) } });
    expect(synthErrors(chart)).toEqual(['[test/pg] spec.env[1] is an empty item of the list; remove the item']);
  });

  test('metadata with a hole in the finalizers, at construction', () => {
    const chart = Testing.chart();
    expectValidationError(
      () => new PostgresCluster(chart, 'pg', { storage: { size: Size.gibibytes(1) }, metadata: { finalizers: js(['example.com/a', undefined]) } }),
      'test/pg: metadata.finalizers[1] is an empty item of the list; remove the item',
    );
  });
});
