/*
 * The parsers of recovery targets CloudNativePG's webhook takes from its libraries, read as they
 * are at cloudnative-pg v1.30.0: machinery v0.5.0 pkg/types (LSN, ParseTargetTime), which in
 * turn calls lib/pq v1.12.3 (ParseTimestamp) and Go's time.Parse. Each returns what the Go code
 * accepts, down to its odd corners, since the webhook's verdict is whatever they return. (The
 * image reference and version tag parsers are in cluster-reading.ts, which the defaulter shares.)
 */
import { goParseUint, isGoInt } from '../../manifests/go-numbers';

/**
 * machinery v0.5.0 pkg/types LSN.Parse: two hexadecimal numbers joined by one `/`, each at most
 * 64 bits (Go `ParseUint(part, 16, 64)`).
 * @internal
 */
export function isLsn(text: string): boolean {
  const parts = text.split('/');
  return parts.length === 2 && parts.every((p) => goParseUint(p, 16, 64) !== undefined);
}

/**
 * machinery v0.5.0 pkg/types ParseTargetTime: lib/pq's timestamp parser first, then Go's
 * `time.Parse` with RFC 3339 with microseconds (`2006-01-02T15:04:05.000000Z07:00`), RFC 3339, and
 * `2006-01-02T15:04:05`. Whether one of them accepts `text`.
 * @internal
 */
export function isTargetTime(text: string): boolean {
  // Both parsers index bytes: work on the UTF-8 bytes, one character per byte.
  const bytes = Buffer.from(text, 'utf8').toString('latin1');
  return pqTimestamp(bytes) || GO_LAYOUTS.some((layout) => goTimeParse(layout, bytes));
}

/**
 * lib/pq v1.12.3 internal/pqtime Parse (what pq.ParseTimestamp calls): fixed positions after the
 * first `-` (year, month, day, then optionally ` hh:mm:ss`), an optional fraction up to the next
 * `-`, `+`, `Z` or space, an optional `±hh[:mm[:ss]]` or `Z`, an optional ` BC`, and nothing after.
 * The numbers are Go `Atoi`s and are never range-checked (time.Date normalises month 13).
 */
function pqTimestamp(s: string): boolean {
  let ok = true;
  const expect = (char: string, pos: number) => {
    if (ok && (pos + 1 > s.length || s[pos] !== char)) ok = false;
  };
  const mustAtoi = (begin: number, end: number) => {
    if (ok && (begin < 0 || end < 0 || begin > end || end > s.length || !isGoInt(s.slice(begin, end)))) ok = false;
  };
  const monSep = s.indexOf('-');
  mustAtoi(0, monSep);
  const daySep = monSep + 3;
  mustAtoi(monSep + 1, daySep);
  expect('-', daySep);
  const timeSep = daySep + 3;
  mustAtoi(daySep + 1, timeSep);
  const isBC = s.endsWith(' BC');
  const minLen = monSep + '01-01'.length + 1 + (isBC ? 3 : 0);
  if (s.length > minLen) {
    expect(' ', timeSep);
    const minSep = timeSep + 3;
    expect(':', minSep);
    mustAtoi(timeSep + 1, minSep);
    const secSep = minSep + 3;
    expect(':', secSep);
    mustAtoi(minSep + 1, secSep);
    mustAtoi(secSep + 1, secSep + 3);
  }
  let rest = monSep + '01-01 00:00:00'.length + 1;
  if (rest < s.length && s[rest] === '.') {
    const fracStart = rest + 1;
    let fracOff = s.slice(fracStart).search(/[-+Z ]/);
    if (fracOff < 0) fracOff = s.length - fracStart;
    mustAtoi(fracStart, fracStart + fracOff);
    rest += fracOff + 1;
  }
  if (rest < s.length && (s[rest] === '-' || s[rest] === '+')) {
    mustAtoi(rest + 1, rest + 3);
    rest += 3;
    for (let i = 0; i < 2; i++) {
      if (rest < s.length && s[rest] === ':') {
        mustAtoi(rest + 1, rest + 3);
        rest += 3;
      }
    }
  } else if (rest < s.length && s[rest] === 'Z') {
    rest += 1;
  }
  if (isBC) rest += 3;
  return rest >= s.length && ok;
}

/** The layouts ParseTargetTime hands to Go's time.Parse, as the chunks Go's layout scanner finds. */
type Chunk = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micros' | 'zone' | { readonly literal: string };
const RFC3339: readonly Chunk[] = [
  'year',
  { literal: '-' },
  'month',
  { literal: '-' },
  'day',
  { literal: 'T' },
  'hour',
  { literal: ':' },
  'minute',
  { literal: ':' },
  'second',
];
const GO_LAYOUTS: ReadonlyArray<readonly Chunk[]> = [[...RFC3339, 'micros', 'zone'], [...RFC3339, 'zone'], RFC3339];

const isDigitAt = (s: string, i: number) => i < s.length && s[i] >= '0' && s[i] <= '9';

/** Go time's getnum: one or two digits (`fixed`: exactly two). */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!isDigitAt(s, 0)) return undefined;
  if (!isDigitAt(s, 1)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

/** Go time's own atoi: an optional sign, then digits (none is zero), within int64. */
function timeAtoi(s: string): bigint | undefined {
  const body = s[0] === '-' || s[0] === '+' ? s.slice(1) : s;
  if (!/^[0-9]*$/.test(body)) return undefined;
  const value = body === '' ? 0n : BigInt(body);
  if (value > 1n << 63n) return undefined;
  return s[0] === '-' ? -value : value;
}

/** Go time's parseNanoseconds: a `.` or `,`, then `nbytes - 1` characters read by its atoi, not negative. */
function nanosecondsOk(value: string, nbytes: number): boolean {
  if (value[0] !== '.' && value[0] !== ',') return false;
  const ns = timeAtoi(value.slice(1, Math.min(nbytes, 10)));
  return ns !== undefined && ns >= 0n;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Go's time.Parse (time/format.go parse) for the chunks of the three layouts above. */
function goTimeParse(layout: readonly Chunk[], input: string): boolean {
  let value = input;
  let year = 0;
  let month = 1;
  let day = 1;
  for (let c = 0; c < layout.length; c++) {
    const chunk = layout[c];
    if (typeof chunk !== 'string') {
      if (!value.startsWith(chunk.literal)) return false;
      value = value.slice(chunk.literal.length);
      continue;
    }
    switch (chunk) {
      case 'year': {
        if (value.length < 4 || !isDigitAt(value, 0)) return false;
        const y = timeAtoi(value.slice(0, 4));
        if (y === undefined) return false;
        year = Number(y);
        value = value.slice(4);
        break;
      }
      case 'month':
      case 'day':
      case 'hour':
      case 'minute': {
        const got = getnum(value, chunk !== 'hour');
        if (!got) return false;
        const limit = { month: 13, day: 100, hour: 24, minute: 60 }[chunk];
        if ((chunk === 'month' && got.n === 0) || got.n >= limit) return false;
        if (chunk === 'month') month = got.n;
        if (chunk === 'day') day = got.n;
        value = got.rest;
        break;
      }
      case 'second': {
        const got = getnum(value, true);
        if (!got || got.n >= 60) return false;
        value = got.rest;
        // A fraction the layout does not ask for is read when it follows the seconds.
        if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigitAt(value, 1) && layout[c + 1] !== 'micros') {
          let n = 2;
          while (isDigitAt(value, n)) n++;
          if (!nanosecondsOk(value, n)) return false;
          value = value.slice(n);
        }
        break;
      }
      case 'micros':
        if (value.length < 7 || !nanosecondsOk(value, 7)) return false;
        value = value.slice(7);
        break;
      case 'zone': {
        if (value[0] === 'Z') {
          value = value.slice(1);
          break;
        }
        if (value.length < 6 || value[3] !== ':') return false;
        const hh = getnum(value.slice(1, 3), true);
        const mm = hh && getnum(value.slice(4, 6), true);
        if (!hh || !mm || hh.n > 24 || mm.n > 60 || (value[0] !== '+' && value[0] !== '-')) return false;
        value = value.slice(6);
        break;
      }
    }
  }
  return value === '' && day >= 1 && day <= daysIn(month, year);
}
