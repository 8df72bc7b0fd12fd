import fc from 'fast-check';
import { compareQuantities, parseQuantity, quantitySign } from '../../src/manifests/quantity';

const cmp = (a: unknown, b: unknown) => compareQuantities(parseQuantity(a)!, parseQuantity(b)!);

describe('parseQuantity', () => {
  test.each([
    '1',
    '500m',
    '0.5',
    '.5',
    '1.',
    '+1',
    '-1',
    '1Ki',
    '1Mi',
    '1Gi',
    '1Ti',
    '1Pi',
    '1Ei',
    '1k',
    '1M',
    '1G',
    '1T',
    '1P',
    '1E',
    '1n',
    '1u',
    '1e3',
    '1E-3',
    '12e+2',
    '0',
  ])('reads %s', (q) => {
    expect(parseQuantity(q)).toBeDefined();
  });

  test.each(['', 'one', '1 Gi', '1gi', '1GB', '1Ki1', '1..5', '1e', '1.5.5', 'Gi', '--1', ' 1', '1e2Ki', '1e1000'])('refuses %j', (q) => {
    expect(parseQuantity(q)).toBeUndefined();
  });

  test('reads JSON numbers and refuses other types', () => {
    expect(cmp(2, '2000m')).toBe(0);
    expect(cmp(0.5, '500m')).toBe(0);
    expect(parseQuantity(NaN)).toBeUndefined();
    expect(parseQuantity(null)).toBeUndefined();
    expect(parseQuantity({})).toBeUndefined();
  });
});

describe('compareQuantities', () => {
  test.each([
    ['500m', '1', -1],
    ['1', '1000m', 0],
    ['1Gi', '1000Mi', 1],
    ['1Gi', '1024Mi', 0],
    ['1G', '1Gi', -1],
    ['1e3', '1k', 0],
    ['1.5Gi', '1536Mi', 0],
    ['100Mi', '0.1Gi', -1],
    ['1n', '0', 1],
    ['-1', '0', -1],
    ['2', '1999999999n', 1],
  ] as const)('%s vs %s', (a, b, expected) => {
    expect(cmp(a, b)).toBe(expected);
    expect(cmp(b, a)).toBe(expected === 0 ? 0 : -expected);
  });

  test('property: the order of whole numbers of a unit is the order of the numbers', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 10n ** 15n }),
        fc.constantFrom('', 'm', 'Ki', 'Mi', 'Gi', 'k', 'G'),
        (a, b, unit) => {
          expect(cmp(`${a}${unit}`, `${b}${unit}`)).toBe(a < b ? -1 : a > b ? 1 : 0);
        },
      ),
    );
  });

  test('property: n Gi equals 1024 n Mi and exceeds 1000 n Mi', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), (n) => {
        expect(cmp(`${n}Gi`, `${n * 1024}Mi`)).toBe(0);
        expect(cmp(`${n}Gi`, `${n * 1000}Mi`)).toBe(1);
      }),
    );
  });
});

describe('quantitySign (Go ParseQuantity: accepted or not, and the sign)', () => {
  test.each<[string, -1 | 0 | 1]>([
    ['10Gi', 1],
    ['-1Gi', -1],
    ['0', 0],
    ['-0', 0],
    ['0Gi', 0],
    ['1.5G', 1],
    ['1e3', 1],
    ['1E+3', 1],
    ['1E', 1],
    ['500m', 1],
    // Forms Go accepts that the CRDs' quantity pattern refuses (a plain string field lets them through).
    ['.', 0],
    ['+', 0],
    ['-', 0],
    ['1.', 1],
    ['Ki', 0],
    ['Ti', 0],
    ['.e-9', 0],
    ['e5', 0],
    ['1e500', 1],
    ['1e-500', 1],
  ])('%s is accepted with sign %d', (text, sign) => {
    expect(quantitySign(text)).toBe(sign);
  });

  test.each(['', ' 1Gi', '1Gi ', '10GB', '10Gibberish', '1K', '1ee5', '1+5', '1.5.5', 'e', 'Pi', 'Ei', '.e-10', '1e9223372036854775808', 'constructor'])(
    '%j is refused',
    (text) => {
      expect(quantitySign(text)).toBeUndefined();
    },
  );

  test('property: wherever parseQuantity reads a value, Go accepts it with that sign', () => {
    const text = fc
      .tuple(
        fc.constantFrom('', '+', '-'),
        fc.stringMatching(/^[0-9]{0,6}$/),
        fc.option(fc.stringMatching(/^[0-9]{0,4}$/)),
        fc.constantFrom('', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'e3', 'E-2', 'Ei'),
      )
      .map(([sign, whole, fraction, suffix]) => `${sign}${whole}${fraction === null ? '' : `.${fraction}`}${suffix}`);
    fc.assert(
      fc.property(text, (t) => {
        const value = parseQuantity(t);
        if (value === undefined) return;
        expect(quantitySign(t)).toBe(value.num === 0n ? 0 : value.num < 0n ? -1 : 1);
      }),
    );
  });
});
