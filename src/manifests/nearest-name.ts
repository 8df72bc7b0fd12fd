/**
 * The declared name closest to `name`, when one is close enough to be a misspelling: the same
 * letters in another case, or a few letters changed, one for every four letters of `name` (one
 * at least), where swapping two neighbours counts as one change ({@link editDistance}). A looser bound suggested names
 * that only look alike (`serverName` -> `secretName`, three letters apart). Used for the "did
 * you mean" of unknown props keys and of fields the API server would prune, so both suggest the
 * same way.
 * @internal
 */
export function nearestName(name: string, declared: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const limit = Math.max(1, Math.floor(name.length / 4));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of declared) {
    if (candidate.toLowerCase() === lower) return candidate;
    // Names whose lengths differ by more than 8 are never close.
    const other = candidate.toLowerCase();
    if (Math.abs(other.length - lower.length) > 8) continue;
    const d = editDistance(lower, other, limit);
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/**
 * Options of {@link editDistance}.
 * @internal
 */
export interface EditDistanceOptions {
  /**
   * Whether swapping two neighbouring characters counts as one edit (the optimal string
   * alignment distance) rather than two (the Levenshtein distance).
   * @default true
   */
  readonly transpositions?: boolean;
}

/**
 * The edit distance of two strings, the one of the library: insertions, deletions and
 * substitutions, and (unless `transpositions: false`) swaps of neighbours, each counting one. The
 * exact distance when it is at most `max`, else `max + 1`: the computation stops as soon as
 * no alignment can stay within `max`.
 * @internal
 */
export function editDistance(a: string, b: string, max = Infinity, options: EditDistanceOptions = {}): number {
  const swaps = options.transpositions ?? true;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], before[j - 2] + 1);
      rowMin = Math.min(rowMin, cur[j]);
    }
    // Every later cell is at least the smallest of this row (a swap reaches back two rows, but
    // the cell it skips is then at most one more), so past `max` nothing comes back under it.
    if (rowMin > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return Math.min(prev[b.length], max + 1);
}
