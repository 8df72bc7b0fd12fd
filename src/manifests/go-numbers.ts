/*
 * Integers as Go's strconv reads them, for the values that CloudNativePG and its libraries parse
 * from strings (a recovery target's timeline and transaction id, an LSN, a version tag).
 */
/** The largest int64, the bound of Go's integers, durations and cron values. @internal */
export const MAX_INT64 = 9223372036854775807n;

const DIGITS: Record<10 | 16, RegExp> = { 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };

/**
 * Go `strconv.Atoi` on a 64-bit platform (also what encoding/json does to a number it decodes
 * into an `int`): an optional `+` or `-`, then decimal digits (no underscores, no spaces, no
 * `0x`), within the int64 range. Returns the value, or the error as Go words it.
 * @internal
 */
export function goAtoi(text: string): bigint | 'invalid syntax' | 'value out of range' {
  if (typeof text !== 'string' || !/^[+-]?[0-9]+$/.test(text)) return 'invalid syntax';
  const value = BigInt(text);
  return value > MAX_INT64 || value < -MAX_INT64 - 1n ? 'value out of range' : value;
}

/** Whether Go's `strconv.Atoi` reads `text` without an error. @internal */
export function isGoInt(text: string): boolean {
  return typeof goAtoi(text) === 'bigint';
}

/**
 * Go `strconv.ParseUint(text, base, bits)` for an explicit base: digits of that base only (no
 * sign, no `0x` prefix, no underscores: those are for base 0), at most 2^bits - 1. Undefined
 * where Go returns an error.
 * @internal
 */
export function goParseUint(text: string, base: 10 | 16, bits: 32 | 64): bigint | undefined {
  if (typeof text !== 'string' || !DIGITS[base].test(text)) return undefined;
  const value = BigInt(base === 16 ? `0x${text}` : text);
  return value >= 1n << BigInt(bits) ? undefined : value;
}

const BASE0_DIGITS: Record<2 | 8 | 10 | 16, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };

/**
 * The magnitude that Go's `strconv.ParseUint(text, 0, 64)` reads from `text` without its sign:
 * `0x`/`0X` hexadecimal, `0o`/`0O` or a leading `0` octal, `0b`/`0B` binary, else decimal
 * (underscores are left to the caller). Undefined where the digits do not fit the base.
 */
function base0Magnitude(text: string): bigint | undefined {
  let base: 2 | 8 | 10 | 16 = 10;
  let digits = text;
  if (text.length > 1 && text[0] === '0') {
    const p = text[1];
    if (p === 'x' || p === 'X') [base, digits] = [16, text.slice(2)];
    else if (p === 'o' || p === 'O') [base, digits] = [8, text.slice(2)];
    else if (p === 'b' || p === 'B') [base, digits] = [2, text.slice(2)];
    else [base, digits] = [8, text.slice(1)];
  }
  if (!BASE0_DIGITS[base].test(digits)) return undefined;
  return base === 10 ? BigInt(digits) : BigInt((base === 16 ? '0x' : base === 8 ? '0o' : '0b') + digits);
}

/**
 * Go `strconv.ParseInt(text, 0, 64)` on text without underscores: an optional sign, then a number
 * in the base its prefix names, within the int64 range. Undefined where Go returns an error.
 * @internal
 */
export function goParseIntBase0(text: string): bigint | undefined {
  const sign = text[0] === '-' || text[0] === '+' ? text[0] : '';
  const magnitude = base0Magnitude(text.slice(sign.length));
  if (magnitude === undefined) return undefined;
  const value = sign === '-' ? -magnitude : magnitude;
  return value > MAX_INT64 || value < -MAX_INT64 - 1n ? undefined : value;
}

/**
 * Go `strconv.ParseUint(text, 0, 64)` on text without underscores: no sign, a number in the base
 * its prefix names, below 2^64. Undefined where Go returns an error.
 * @internal
 */
export function goParseUintBase0(text: string): bigint | undefined {
  const magnitude = base0Magnitude(text);
  return magnitude === undefined || magnitude >= 1n << 64n ? undefined : magnitude;
}
