/**
 * Kubernetes resource quantities (`500m`, `1Gi`, `2`, `1e3`, `1.5G`), parsed exactly, so that
 * requests and limits written in different units compare the way the API server compares them
 * (k8s.io/apimachinery v0.32.13 pkg/api/resource/quantity.go ParseQuantity and Quantity.Cmp).
 * Values are kept as exact fractions of BigInts: no floating point rounding.
 */

/**
 * An exact non-negative or negative rational amount.
 * @internal
 */
export interface QuantityValue {
  /** Numerator, with the sign. */
  readonly num: bigint;
  /** Denominator, always positive. */
  readonly den: bigint;
}

const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

// <sign><digits>[.<digits>] or <sign>.<digits>, then a binary or decimal suffix or an exponent.
const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])|[eE]([+-]?\d+))?$/;

/** Beyond this exponent the value is out of any range Kubernetes stores; refusing keeps BigInts small. */
const MAX_EXPONENT = 400;

/**
 * Parses a quantity written as a string (or, as JSON allows, a number); `undefined` when it is
 * not a Kubernetes quantity.
 * @internal
 */
export function parseQuantity(value: unknown): QuantityValue | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return undefined;
  }
  const m = QUANTITY.exec(text);
  if (m === null) return undefined;
  const [, sign, number, suffix, exponent] = m;
  const [whole, fraction = ''] = number.split('.');
  let num = BigInt(`${whole === '' ? '0' : whole}${fraction}`);
  let den = 10n ** BigInt(fraction.length);
  if (sign === '-') num = -num;
  if (suffix !== undefined && suffix in BINARY) {
    num *= BINARY[suffix];
  } else {
    const exp = exponent !== undefined ? Number(exponent) : DECIMAL[suffix ?? ''];
    if (Math.abs(exp) > MAX_EXPONENT) return undefined;
    if (exp >= 0) num *= 10n ** BigInt(exp);
    else den *= 10n ** BigInt(-exp);
  }
  return { num, den };
}

/**
 * Compares two parsed quantities: negative when `a < b`, zero when equal, positive when `a > b`.
 * @internal
 */
export function compareQuantities(a: QuantityValue, b: QuantityValue): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Go's quantity text: sign, number, then suffix letters, one sign and digits (parseQuantityString). */
const GO_QUANTITY = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[+-]?[0-9]*)$/;
const DECIMAL_SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);
const INT64_RANGE = 1n << 63n;

/**
 * The sign of what Go's `resource.ParseQuantity(text)` returns (k8s.io/apimachinery v0.36.2
 * pkg/api/resource/quantity.go ParseQuantity, Quantity.Sign), or undefined where it returns an
 * error: exact for every string, including the forms the CRDs' quantity pattern refuses but a
 * plain string field (a Cluster's `storage.size`) lets through: `.`, `+`, `Ki` and `1.` are
 * zero or one, `1e500` is accepted, `.e-10` and `Pi` (no digit, and a scale that leaves Go's
 * fast path) are not.
 * @internal
 */
export function quantitySign(text: string): -1 | 0 | 1 | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  const m = GO_QUANTITY.exec(text);
  if (m === null) return undefined;
  const [, sign, whole, fraction = '', suffix] = m;
  let decimalExponent: bigint | undefined;
  if (DECIMAL_SUFFIXES.has(suffix)) decimalExponent = BigInt(DECIMAL[suffix]);
  else if (/^[eE][+-]?[0-9]+$/.test(suffix)) {
    const exponent = BigInt(suffix.slice(1));
    if (exponent >= INT64_RANGE || exponent < -INT64_RANGE) return undefined;
    decimalExponent = BigInt.asIntN(32, exponent); // Go keeps int32(exponent)
  } else if (!Object.prototype.hasOwnProperty.call(BINARY, suffix)) return undefined;
  if (whole === '' && fraction === '') {
    // No digit: Go parses the number part only on its slow path, and fails there. The slow path
    // takes a decimal scale below nano, or a binary suffix too large for its int64 estimate.
    if (decimalExponent !== undefined ? decimalExponent < -9n : suffix === 'Pi' || suffix === 'Ei') return undefined;
  }
  if (!/[1-9]/.test(whole + fraction)) return 0;
  return sign === '-' ? -1 : 1;
}
