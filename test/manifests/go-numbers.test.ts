import { goAtoi, goParseUint, isGoInt } from '../../src/manifests/go-numbers';

describe('goAtoi (Go strconv.Atoi, 64-bit)', () => {
  test.each<[string, bigint]>([
    ['0', 0n],
    ['42', 42n],
    ['+7', 7n],
    ['-5', -5n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
  ])('%j is %s', (text, value) => {
    expect(goAtoi(text)).toBe(value);
  });

  test.each(['', '+', '-', ' 1', '1 ', '1_000', '0x10', '1.0', '١'])('%j is refused: invalid syntax', (text) => {
    expect(goAtoi(text)).toBe('invalid syntax');
    expect(isGoInt(text)).toBe(false);
  });

  test.each(['9223372036854775808', '-9223372036854775809', '99999999999999999999'])('%j is refused: value out of range', (text) => {
    expect(goAtoi(text)).toBe('value out of range');
    expect(isGoInt(text)).toBe(false);
  });
});

describe('goParseUint (Go strconv.ParseUint with an explicit base)', () => {
  test.each<[string, 10 | 16, 32 | 64, bigint]>([
    ['4294967295', 10, 32, 4294967295n],
    ['0', 10, 32, 0n],
    ['ffffffffffffffff', 16, 64, 0xffffffffffffffffn],
    ['00000000000000000003000000', 16, 64, 0x3000000n],
    ['A0', 16, 64, 0xa0n],
  ])('%j (base %d, %d bits) is %s', (text, base, bits, value) => {
    expect(goParseUint(text, base, bits)).toBe(value);
  });

  test.each<[string, 10 | 16, 32 | 64]>([
    ['4294967296', 10, 32],
    ['-1', 10, 32],
    ['+1', 10, 32],
    ['', 10, 32],
    ['1f', 10, 64],
    ['10000000000000000', 16, 64],
    ['0x10', 16, 64],
    ['1_0', 16, 64],
  ])('%j (base %d, %d bits) is refused', (text, base, bits) => {
    expect(goParseUint(text, base, bits)).toBeUndefined();
  });
});
