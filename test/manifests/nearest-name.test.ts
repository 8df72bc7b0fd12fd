import fc from 'fast-check';
import { nearMissOf } from '../../src/doctor/model/plugin-services';
import { editDistance, nearestName } from '../../src/manifests/nearest-name';
import { nearestRuleId } from '../../src/rules/suppressions';

/*
 * The library had two edit distances: the doctor's Levenshtein distance with a bound
 * (src/doctor/plugin-service-rules.ts levenshtein) and the optimal string alignment distance of
 * nearestName. One is left, src/common/nearest-name.ts editDistance; the two former functions are
 * kept here, as they were, as the references it must agree with.
 */

function formerLevenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      rowMin = Math.min(rowMin, cur[j]);
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

function formerEditDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(rows[i - 1][j] + 1, cur[j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], rows[i - 2][j - 2] + 1);
    }
    rows.push(cur);
  }
  return rows[a.length][b.length];
}

function formerNearestName(name: string, declared: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of declared) {
    if (candidate.toLowerCase() === lower) return candidate;
    const d = formerEditDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  const limit = Math.max(1, Math.floor(name.length / 4));
  return bestDistance <= limit ? best : undefined;
}

// A small alphabet makes near strings (and swaps) frequent; long strings reach the length cut-offs.
const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', 'İ', '-'), maxLength: 14 });
const longWord = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), minLength: 30, maxLength: 60 });
const RUNS = { numRuns: 2000, seed: 13 };

describe('editDistance, the one edit distance of the library', () => {
  test.each([
    ['', '', 0],
    ['abc', 'abc', 0],
    ['abc', 'acb', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
    ['isWalArchiver', 'iswalarchiver', 2],
  ])('%p to %p is %p (a swap of neighbours is one edit)', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
  });

  test('without transpositions a swap is two edits; past max the answer is max + 1', () => {
    expect(editDistance('abc', 'acb', Infinity, { transpositions: false })).toBe(2);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  test("without transpositions it is the doctor's former bounded Levenshtein distance, up to max + 1", () => {
    fc.assert(
      fc.property(word, word, fc.nat({ max: 4 }), (a, b, max) => {
        // The former function answered more than max + 1 when its early stop did not apply; its callers
        // only asked whether the answer was at most max.
        expect(editDistance(a, b, max, { transpositions: false })).toBe(Math.min(formerLevenshtein(a, b, max), max + 1));
      }),
      RUNS,
    );
  });

  test('with transpositions it is the former optimal string alignment distance, within max', () => {
    fc.assert(
      fc.property(word, word, fc.nat({ max: 6 }), (a, b, max) => {
        const d = formerEditDistance(a, b);
        if (d !== Infinity) expect(editDistance(a, b)).toBe(d);
        expect(editDistance(a, b, max)).toBe(Math.min(d, max + 1));
      }),
      RUNS,
    );
  });
});

describe('its callers answer as before', () => {
  test('nearestName', () => {
    fc.assert(
      fc.property(fc.oneof(word, longWord), fc.array(fc.oneof(word, longWord), { maxLength: 6 }), (name, declared) => {
        expect(nearestName(name, declared)).toBe(formerNearestName(name, declared));
      }),
      RUNS,
    );
  });

  test('nearestName on misspellings of real keys', () => {
    const declared = ['enabled', 'isWalArchiver', 'parameters', 'objectStore', 'serverName', 'secretName'];
    // Nine letters more is never close, even where a quarter of a long name would allow nine edits.
    expect(nearestName('a'.repeat(40), ['a'.repeat(49)])).toBeUndefined();
    expect(nearestName('a'.repeat(40), ['a'.repeat(48)])).toBe('a'.repeat(48));
    for (const name of ['isWALArchiver', 'paramters', 'parametres', 'enable', 'objectstore', 'serverNmae', 'replicas', 'x']) {
      expect(nearestName(name, declared)).toBe(formerNearestName(name, declared));
    }
  });

  test('the doctor: plugin key near-misses and rule ids', () => {
    expect(nearMissOf('cnpg.io/pluginNmae')).toBe('name');
    expect(nearMissOf('cnpg.io/pluginPrt')).toBe('port');
    expect(nearMissOf('cnpg.io/pluginClientSecrets')).toBe('clientSecret');
    expect(nearMissOf('cnpg.io/cluster')).toBeUndefined();
    const ids = ['CNPGI015', 'CNPGI050', 'CNPGI051'];
    expect(nearestRuleId('CNPGI05', ids)).toBe('CNPGI050');
    // Two edits without transpositions: a swap of neighbours is not one edit for rule ids.
    expect(nearestRuleId('CNPGI501', ['CNPGI510'])).toBe('CNPGI510');
    expect(nearestRuleId('CNPGI105', ['CNPGI015', 'CNPGI100'])).toBe('CNPGI100');
  });
});
