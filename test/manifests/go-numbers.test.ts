import { goAtoi, goParseIntBase0, goParseUint, goParseUintBase0, isGoInt } from '../../src/manifests/go-numbers';

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

describe('strconv.ParseInt and ParseUint with base 0 (what go-yaml v2 resolves a plain scalar with)', () => {
  test.each<[string, bigint | undefined, bigint | undefined]>([
    ['0', 0n, 0n],
    ['-0', 0n, undefined],
    ['+12', 12n, undefined],
    ['0x1F', 31n, 31n],
    ['0X1f', 31n, 31n],
    ['0o17', 15n, 15n],
    ['0777', 511n, 511n],
    ['08', undefined, undefined],
    ['0b101', 5n, 5n],
    ['0x', undefined, undefined],
    ['9223372036854775807', 9223372036854775807n, 9223372036854775807n],
    ['9223372036854775808', undefined, 9223372036854775808n],
    ['-9223372036854775808', -9223372036854775808n, undefined],
    ['18446744073709551616', undefined, undefined],
    ['1e3', undefined, undefined],
  ])('%s', (text, int, uint) => {
    expect(goParseIntBase0(text)).toBe(int);
    expect(goParseUintBase0(text)).toBe(uint);
  });
});
