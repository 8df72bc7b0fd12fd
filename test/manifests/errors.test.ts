import { describeValue } from '../../src/manifests/errors';

describe('describeValue', () => {
  test('values print as the user wrote them', () => {
    expect(describeValue('a')).toBe("'a'");
    expect(describeValue('a\nb')).toBe('"a\\nb"');
    expect(describeValue(3)).toBe('3');
    expect(describeValue({ a: 1 })).toBe('{"a":1}');
    expect(describeValue(undefined)).toBe('undefined');
  });
  test('a value JSON cannot write is named, never [object Object]', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const list: unknown[] = [];
    list.push(list);
    expect(describeValue(cyclic)).toBe('an object that cannot be written as JSON (it contains itself or a BigInt)');
    expect(describeValue(list)).toBe('a list that cannot be written as JSON (it contains itself or a BigInt)');
    expect(describeValue({ n: 1n })).not.toContain('[object');
  });
});
