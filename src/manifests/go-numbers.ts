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
