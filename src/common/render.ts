import { Duration, Size, SizeRoundingBehavior } from 'cdk8s';
import { ErrorScope, invalid, wrongType } from '../manifests/errors';

const JSII_RTTI = Symbol.for('jsii.rtti');

/**
 * Whether `value` is an instance of the cdk8s class `cls` (fully qualified jsii name `fqn`):
 * `instanceof`, or the jsii type information of its class, which a second copy of cdk8s (another
 * node_modules) carries too. A look-alike object with the right methods is not one.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- the classes have private constructors
function isCdk8s(value: unknown, cls: Function, fqn: string): boolean {
  if (value instanceof cls) return true;
  if (value === null || typeof value !== 'object') return false;
  const ctor = (value as { constructor?: unknown }).constructor as Record<symbol, unknown> | undefined;
  const rtti = ctor?.[JSII_RTTI] as { fqn?: unknown } | undefined;
  return rtti?.fqn === fqn;
}

/**
 * Whether `value` is a cdk8s `Size` (from this copy of cdk8s or another one).
 * @internal
 */
export function isSize(value: unknown): value is Size {
  return isCdk8s(value, Size, 'cdk8s.Size');
}

/**
 * Whether `value` is a cdk8s `Duration` (from this copy of cdk8s or another one).
 * @internal
 */
export function isDuration(value: unknown): value is Duration {
  return isCdk8s(value, Duration, 'cdk8s.Duration');
}

// Kibibytes per binary unit, the largest first.
const BINARY_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['Ei', 1024 ** 5],
  ['Pi', 1024 ** 4],
  ['Ti', 1024 ** 3],
  ['Gi', 1024 ** 2],
  ['Mi', 1024],
  ['Ki', 1],
];

/** The size in bytes when it is a whole, finite, non-negative number of bytes. */
function sizeBytes(size: Size): number | undefined {
  const kib = size.toKibibytes({ rounding: SizeRoundingBehavior.NONE });
  const bytes = kib * 1024;
  return Number.isFinite(bytes) && Number.isInteger(bytes) && bytes >= 0 ? bytes : undefined;
}

/**
 * Renders a cdk8s `Size` as a Kubernetes quantity, the one way the library writes sizes: the
 * largest binary unit that holds it as a whole number (`Size.gibibytes(1)` -> `1Gi`, never
 * `1024Mi`; `Size.mebibytes(1536)` -> `1536Mi`), plain bytes below a kibibyte's precision
 * (`Size.kibibytes(1.5)` -> `1536`), `0` for zero. Callers pass a Size {@link requireSize}
 * accepted (the props are checked before anything is rendered), so it is not checked again.
 * @internal
 */
export function renderQuantity(size: Size): string {
  const bytes = sizeBytes(size) ?? NaN;
  if (bytes === 0) return '0';
  if (bytes % 1024 !== 0) return String(bytes);
  const kib = bytes / 1024;
  const [unit, per] = BINARY_UNITS.find(([, n]) => kib % n === 0)!;
  return `${kib / per}${unit}`;
}

const GO_UNITS: ReadonlyArray<readonly [string, number]> = [
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
  ['ms', 1],
];

/**
 * Renders a cdk8s `Duration` as a Go duration (what `time.ParseDuration` reads; cert-manager's
 * `duration`/`renewBefore` and CloudNativePG's `minApplyDelay` are `metav1.Duration`), the one
 * way the library writes durations: each unit from hours down to milliseconds that is not zero,
 * `1h`, `1h30m`, `1m30s`, `2160h`, `1s500ms`; `0s` for zero. Callers pass a Duration
 * {@link requireDuration} accepted (or a default of the library), so it is not checked again.
 * @internal
 */
export function renderDuration(d: Duration): string {
  const ms = d.toMilliseconds({ integral: false });
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const [unit, per] of GO_UNITS) {
    const n = Math.floor(rest / per);
    if (n > 0) out += `${n}${unit}`;
    rest -= n * per;
  }
  return out;
}

/**
 * Options of {@link requireSize} and {@link requireDuration}.
 * @internal
 */
export interface RequireAmountOptions {
  /**
   * Accept zero.
   * @default false
   */
  readonly allowZero?: boolean;
}

/**
 * Checks that a JavaScript value is a cdk8s `Size` that {@link renderQuantity} can write (whole
 * bytes, positive unless `allowZero`), and returns it.
 * @internal
 */
export function requireSize(scope: ErrorScope, prop: string, value: unknown, example = 'Size.gibibytes(10)', options: RequireAmountOptions = {}): Size {
  const bytes = isSize(value) ? sizeBytes(value) : undefined;
  const problem = !isSize(value)
    ? ([value, wrongType('a cdk8s Size', value)] as const)
    : bytes === undefined || (bytes === 0 && !options.allowZero)
      ? ([value.asString(), options.allowZero ? 'is not a whole number of bytes' : 'is not a positive whole number of bytes'] as const)
      : undefined;
  if (problem !== undefined) invalid(scope, prop, problem[0], problem[1], `use ${example}`);
  return value as Size;
}

/**
 * Checks that a JavaScript value is a cdk8s `Duration` that {@link renderDuration} can write
 * (whole milliseconds, positive unless `allowZero`), and returns it.
 * @internal
 */
export function requireDuration(scope: ErrorScope, prop: string, value: unknown, example = 'Duration.hours(1)', options: RequireAmountOptions = {}): Duration {
  const ms = isDuration(value) ? value.toMilliseconds({ integral: false }) : NaN;
  const problem = !isDuration(value)
    ? ([value, wrongType('a cdk8s Duration', value)] as const)
    : ms === 0 && !options.allowZero
      ? // as written (`0 minutes`): a zero is refused whatever its unit
        ([(value as Duration).toHumanString(), 'is zero; it must be more than zero'] as const)
      : !Number.isFinite(ms) || !Number.isInteger(ms) || ms < 0
        ? ([`${ms}ms`, options.allowZero ? 'is not a whole, non-negative number of milliseconds' : 'is not a positive whole number of milliseconds'] as const)
        : undefined;
  if (problem !== undefined) invalid(scope, prop, problem[0], problem[1], `use ${example}`);
  return value as Duration;
}
