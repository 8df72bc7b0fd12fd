/*
 * Go's strconv.Atoi, which the operator uses to read integers out of strings (and
 * encoding/json to read a number into an `int`).
 */

/**
 * An integer as Go's strconv.Atoi reads it on a 64-bit machine (an optional sign, then decimal
 * digits, within 64 bits), or the reason it fails as Go words it.
 * @internal
 */
export function goAtoi(text: string): bigint | 'invalid syntax' | 'value out of range' {
  if (!/^[+-]?\d+$/.test(text)) return 'invalid syntax';
  const n = BigInt(text);
  return n > (1n << 63n) - 1n || n < -(1n << 63n) ? 'value out of range' : n;
}
