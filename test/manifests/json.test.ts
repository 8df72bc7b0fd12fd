import { differences, firstDifference } from '../../src/manifests/json';

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

describe('differences', () => {
  test('every deepest difference with its two values, keys in sorted order', () => {
    const before = { spec: { bootstrap: { recovery: { source: 'a', recoveryTarget: { targetTime: 't1' } } }, list: [1, 2], same: { x: 1 } } };
    const after = { spec: { bootstrap: { recovery: { source: 'b', recoveryTarget: { targetTime: 't2' } } }, list: [1], same: { x: 1 }, added: { y: 2 } } };
    expect(differences(before, after)).toEqual([
      { path: 'spec.added', before: undefined, after: { y: 2 } },
      { path: 'spec.bootstrap.recovery.recoveryTarget.targetTime', before: 't1', after: 't2' },
      { path: 'spec.bootstrap.recovery.source', before: 'a', after: 'b' },
      { path: 'spec.list', before: [1, 2], after: [1] },
    ]);
    expect(differences(before, after, 2).map((d) => d.path)).toEqual(['spec.added', 'spec.bootstrap.recovery.recoveryTarget.targetTime']);
    expect(differences({ a: [{ b: 1 }] }, { a: [{ b: 2 }] })).toEqual([{ path: 'a[0].b', before: 1, after: 2 }]);
    expect(differences(before, structuredClone(before))).toEqual([]);
  });
});
