import { parsePostgresQuantityValue } from '../../../src/checks/admission/postgres-size';
import { HELPER_CASES } from '../../conformance/table';

describe('parsePostgresQuantityValue', () => {
  // The conformance table's helper cases (cluster_webhook_test.go): what the webhook returns, or that it fails.
  const cases = HELPER_CASES.filter((c) => c.function === 'parsePostgresQuantityValue');

  test('the table carries the upstream cases', () => {
    expect(cases.length).toBe(13);
  });

  test.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const parsed = parsePostgresQuantityValue(c.args.value as string);
    if (c.expected.fails) expect(parsed).toBeUndefined();
    else expect(parsed?.quantity).toBe(c.expected.returns);
  });

  test.each([
    ['1.5GB', '1.5Gi', 1.5 * 2 ** 30],
    ['80', '80Mi', 80 * 2 ** 20],
    ['+5', '+5Mi', 5 * 2 ** 20],
    ['1 0MB', '10Mi', 10 * 2 ** 20],
    ['2PB', '2Pi', 2 * 2 ** 50],
  ])('%s reads as %s', (value, quantity, bytes) => {
    const parsed = parsePostgresQuantityValue(value)!;
    expect(parsed.quantity).toBe(quantity);
    expect(Number(parsed.value.num) / Number(parsed.value.den)).toBe(bytes);
  });

  test.each(['', ' 5', '1.5B', '99999999999999999999', '1 kb', '2G', '1kkB'])('%p is no size', (value) => {
    expect(parsePostgresQuantityValue(value)).toBeUndefined();
  });
});
