import { firstDifference } from '../../src/manifests/json';

describe('firstDifference', () => {
  test('equal values, whatever the key order, and an undefined key is a missing one', () => {
    expect(firstDifference({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBeUndefined();
    expect(firstDifference({ a: 1, b: undefined }, { a: 1 })).toBeUndefined();
    expect(firstDifference(null, null)).toBeUndefined();
    expect(firstDifference(NaN, NaN)).toBeUndefined();
  });
  test('the path of the first difference, keys in sorted order', () => {
    expect(firstDifference({ spec: { containers: [{ image: 'a:1', name: 'x' }] } }, { spec: { containers: [{ image: 'a:2', name: 'y' }] } })).toBe(
      'spec.containers[0].image',
    );
    expect(firstDifference({ b: 1, a: 1 }, { b: 2, a: 2 })).toBe('a');
    expect(firstDifference({ a: [1, 2] }, { a: [1] })).toBe('a');
    expect(firstDifference({ a: {} }, { a: [] })).toBe('a');
    expect(firstDifference({ a: '1' }, { a: 1 })).toBe('a');
    expect(firstDifference({ a: 1 }, { a: 1, z: null })).toBe('z');
    expect(firstDifference(1, 2)).toBe('');
  });
  test('a value that contains itself is compared without looping', () => {
    const a: Record<string, unknown> = { name: 'x' };
    a.self = a;
    const b: Record<string, unknown> = { name: 'x' };
    b.self = b;
    expect(firstDifference(a, a)).toBeUndefined();
    expect(firstDifference(a, b)).toMatch(/^self(\.self)*$/);
  });
});
