import { Duration, Size } from 'cdk8s';
import { isDuration, isSize, renderDuration, renderQuantity, requireDuration, requireSize } from '../../src/common/render';
import { expectValidationError } from '../util';

describe('renderQuantity', () => {
  test.each([
    [Size.gibibytes(1), '1Gi'],
    [Size.mebibytes(1024), '1Gi'],
    [Size.mebibytes(1536), '1536Mi'],
    [Size.gibibytes(1.5), '1536Mi'],
    [Size.kibibytes(512), '512Ki'],
    [Size.mebibytes(0.5), '512Ki'],
    [Size.kibibytes(1.5), '1536'],
    [Size.tebibytes(2), '2Ti'],
    [Size.pebibyte(1024), '1Ei'],
    [Size.gibibytes(0), '0'],
  ])('%j -> %s', (size, expected) => {
    expect(renderQuantity(size)).toBe(expected);
  });

  test('a size that is no whole number of bytes, or no Size, is refused by requireSize, which every caller runs first', () => {
    expectValidationError(
      () => requireSize('pg', 'storage.size', Size.kibibytes(0.0001), 'Size.gibibytes(10)', { allowZero: true }),
      "pg: storage.size '0.0001Ki' is not a whole number of bytes; use Size.gibibytes(10)",
    );
    expectValidationError(() => requireSize('pg', 'storage.size', '1Gi'), "pg: storage.size '1Gi' must be a cdk8s Size, not a string; use Size.gibibytes(10)");
  });
});

describe('renderDuration', () => {
  test.each([
    [Duration.hours(1), '1h'],
    [Duration.minutes(90), '1h30m'],
    [Duration.seconds(90), '1m30s'],
    [Duration.hours(2160), '2160h'],
    [Duration.days(1), '24h'],
    [Duration.millis(1500), '1s500ms'],
    [Duration.seconds(3661), '1h1m1s'],
    [Duration.seconds(0), '0s'],
  ])('%j -> %s', (d, expected) => {
    expect(renderDuration(d)).toBe(expected);
  });

  test('the rendering reads back as the same duration (Go time.ParseDuration units)', () => {
    const units: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
    for (const ms of [1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 86_400_000 + 1, 123_456_789]) {
      const text = renderDuration(Duration.millis(ms));
      const parts = [...text.matchAll(/(\d+)(ms|h|m|s)/g)];
      expect(parts.map((p) => p[0]).join('')).toBe(text);
      expect(parts.reduce((sum, p) => sum + Number(p[1]) * units[p[2]], 0)).toBe(ms);
    }
  });

  test('a fraction of a millisecond or a negative duration is refused by requireDuration, which every caller runs first', () => {
    expectValidationError(
      () => requireDuration('pg', 'replica.minApplyDelay', Duration.millis(0.5), 'Duration.hours(1)', { allowZero: true }),
      "pg: replica.minApplyDelay '0.5ms' is not a whole, non-negative number of milliseconds; use Duration.hours(1)",
    );
  });
});

describe('isSize / isDuration', () => {
  let Other: typeof import('cdk8s') | undefined;
  beforeAll(() => {
    jest.isolateModules(() => {
      Other = require('cdk8s');
    });
  });

  test('accept this copy and a second copy of cdk8s (another module registry)', () => {
    expect(Other!.Duration).not.toBe(Duration);
    expect(isDuration(Duration.hours(1))).toBe(true);
    expect(isDuration(Other!.Duration.hours(1))).toBe(true);
    expect(isSize(Size.gibibytes(1))).toBe(true);
    expect(isSize(Other!.Size.gibibytes(1))).toBe(true);
    expect(renderDuration(Other!.Duration.hours(48))).toBe('48h');
    expect(renderQuantity(Other!.Size.gibibytes(2))).toBe('2Gi');
  });

  test('refuse look-alikes, the other type, and plain values', () => {
    const duck = { toMilliseconds: () => 1000, toSeconds: () => 1 };
    expect(isDuration(duck)).toBe(false);
    expect(isDuration(Size.gibibytes(1))).toBe(false);
    expect(isSize(Duration.hours(1))).toBe(false);
    for (const v of [undefined, null, 0, '1h', [], {}]) {
      expect(isDuration(v)).toBe(false);
      expect(isSize(v)).toBe(false);
    }
  });
});

describe('requireSize / requireDuration', () => {
  test('return the value when it can be rendered', () => {
    const s = Size.gibibytes(1);
    expect(requireSize('pg', 'storage.size', s)).toBe(s);
    const d = Duration.hours(1);
    expect(requireDuration('pg', 'tls.duration', d)).toBe(d);
    expect(requireDuration('pg', 'x', Duration.seconds(0), 'Duration.hours(1)', { allowZero: true }).toMilliseconds()).toBe(0);
    expect(requireSize('pg', 'x', Size.gibibytes(0), 'Size.gibibytes(1)', { allowZero: true }).toKibibytes()).toBe(0);
  });

  test('refuse other types, zero and fractions with the library error', () => {
    expectValidationError(
      () => requireSize('pg', 'storage.size', '10Gi', 'Size.gibibytes(10)'),
      "pg: storage.size '10Gi' must be a cdk8s Size, not a string; use Size.gibibytes(10)",
    );
    expectValidationError(
      () => requireSize('pg', 'storage.size', Size.gibibytes(0)),
      "pg: storage.size '0Gi' is not a positive whole number of bytes; use Size.gibibytes(10)",
    );
    expectValidationError(
      () => requireDuration('p', 'tls.duration', { toMilliseconds: () => 1 }, 'Duration.hours(2160)'),
      'p: tls.duration {} must be a cdk8s Duration, not an object; use Duration.hours(2160)',
    );
    expectValidationError(
      () => requireDuration('p', 'tls.duration', Duration.seconds(0)),
      "p: tls.duration '0 seconds' is zero; it must be more than zero; use Duration.hours(1)",
    );
    expectValidationError(
      () => requireDuration('p', 'tls.duration', Duration.millis(1.5)),
      "p: tls.duration '1.5ms' is not a positive whole number of milliseconds; use Duration.hours(1)",
    );
  });
});
