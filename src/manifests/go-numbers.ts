/*
 * Integers as Go's strconv reads them, for the values that CloudNativePG and its libraries parse
 * from strings (a recovery target's timeline and transaction id, an LSN, a version tag).
 */
import { MAX_INT64 } from './duration';

const DIGITS: Record<10 | 16, RegExp> = { 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };

/**
 * Go `strconv.Atoi` on a 64-bit platform: an optional `+` or `-`, then decimal digits (no
 * underscores, no spaces), within the int64 range. Undefined where Go returns an error.
 * @internal
 */
export function goAtoi(text: string): bigint | undefined {
  if (typeof text !== 'string' || !/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value > MAX_INT64 || value < -MAX_INT64 - 1n ? undefined : value;
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
