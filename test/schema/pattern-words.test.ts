import { patternWords } from '../../src/schema/pattern-words';

const QUANTITY = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

describe('patternWords: what to write instead of a regular expression', () => {
  test.each([
    ['20 GB', 'write 20Gi'],
    ['20G', 'write 20Gi'],
    ['1.5 Ti', 'write 1.5Ti'],
    ['512 kb', 'write 512Ki'],
    ['100', 'write 100'],
    ['twenty gigs', 'write 20Gi'],
  ])('a quantity %p', (value, fix) => {
    expect(patternWords(QUANTITY, value)?.fix).toBe(fix);
  });

  test.each([
    ['30 days', 'write 30d'],
    ['1 week', 'write 1w'],
    ['6 Months', 'write 6m'],
    ['0d', 'write 30d'],
    ['a month', 'write 30d'],
  ])('a retention period %p', (value, fix) => {
    expect(patternWords('^[1-9][0-9]*[dwm]$', value)?.fix).toBe(fix);
  });

  test('any other pattern is quoted as it is', () => {
    expect(patternWords('^[a-z]+$', 'A')).toBeUndefined();
  });
});
