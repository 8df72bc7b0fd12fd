/*
 * Durations as Go reads them (cert-manager's durations, robfig/cron's `@every`).
 */
import { MAX_INT64 } from './go-numbers';

const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  '\u00b5s': 1_000n,
  '\u03bcs': 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/**
 * Go `time.ParseDuration`: an optional sign, then one or more `<number><unit>` with decimal
 * fractions allowed (`1.5h`, `.5s`, `1.h`), units ns us µs μs ms s m h; `0` alone is allowed.
 * Returns nanoseconds, or undefined where Go returns an error (including int64 overflow).
 * @internal
 */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  const part = /^([0-9]*)(\.([0-9]*))?([^0-9.]*)/;
  while (s !== '') {
    const m = part.exec(s);
    if (!m) return undefined;
    const [whole, intPart, dot, fracPart, unit] = m;
    if (intPart === '' && (dot === undefined || fracPart === '')) return undefined;
    if (unit === '') return undefined;
    const scale = UNIT_NANOS[unit];
    if (scale === undefined) return undefined;
    let nanos = BigInt(intPart === '' ? '0' : intPart) * scale;
    if (fracPart) {
      nanos += (BigInt(fracPart) * scale) / 10n ** BigInt(fracPart.length);
    }
    total += nanos;
    if (total > MAX_INT64 + (negative ? 1n : 0n)) return undefined;
    s = s.slice(whole.length);
  }
  return negative ? -total : total;
}
