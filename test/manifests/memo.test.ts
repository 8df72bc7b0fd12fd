import { memoized } from '../../src/manifests/memo';

describe('memoized', () => {
  test('reads each text once and shares the answer', () => {
    let calls = 0;
    const read = memoized((text: string) => {
      calls++;
      return { length: text.length };
    });
    const first = read('abc');
    expect(read('abc')).toBe(first);
    expect(read('de')).toEqual({ length: 2 });
    expect(calls).toBe(2);
  });

  test('remembers an undefined answer too', () => {
    let calls = 0;
    const read = memoized((): number | undefined => {
      calls++;
      return undefined;
    });
    read('x');
    read('x');
    expect(calls).toBe(1);
  });

  test('holds at most the limit, starting over when full', () => {
    let calls = 0;
    const read = memoized((text: string) => {
      calls++;
      return text;
    }, 2);
    read('a');
    read('b');
    read('c'); // full: the memo starts over with c
    expect(calls).toBe(3);
    read('c');
    expect(calls).toBe(3);
    read('a');
    expect(calls).toBe(4);
  });
});
