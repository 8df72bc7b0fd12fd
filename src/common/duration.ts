import { ErrorScope, invalid } from './errors';
import { isDuration } from './render';
import { typeName } from './validate';

/**
 * Checks that a JavaScript value is a cdk8s `Duration` (this copy of cdk8s or another one, see
 * `isDuration`) and returns it in milliseconds.
 * @internal
 */
export function durationMillis(scope: ErrorScope, prop: string, value: unknown, example: string): number {
  if (!isDuration(value)) {
    invalid(scope, prop, value, `must be a cdk8s Duration, not ${typeName(value)}`, `use ${example}`);
  }
  // Not integral: cdk8s would throw its own Error for a fraction of a millisecond.
  const ms = value.toMilliseconds({ integral: false });
  if (!Number.isFinite(ms) || ms <= 0) {
    invalid(scope, prop, `${ms}ms`, 'must be a positive duration', `use ${example}`);
  }
  return ms;
}

/**
 * Formats milliseconds the way Go's `time.ParseDuration` reads them and cert-manager writes
 * them (`2160h`, `90m`, `45s`), in the largest whole unit.
 * @internal
 */
export function goDuration(scope: ErrorScope, prop: string, ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return invalid(scope, prop, `${ms}ms`, 'is not a whole number of seconds', 'round it to whole seconds, minutes or hours');
}
