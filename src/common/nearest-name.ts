/**
 * The declared name closest to `name`, when one is close enough to be a misspelling: the same
 * letters in another case, or a few letters changed, one for every four letters of `name` (one
 * at least), where swapping two neighbours counts as one change. A looser bound suggested names
 * that only look alike (`serverName` -> `secretName`, three letters apart). Used for the "did
 * you mean" of unknown props keys and of fields the API server would prune, so both suggest the
 * same way.
 * @internal
 */
export function nearestName(name: string, declared: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of declared) {
    if (candidate.toLowerCase() === lower) return candidate;
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  const limit = Math.max(1, Math.floor(name.length / 4));
  return bestDistance <= limit ? best : undefined;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment); names whose lengths
 * differ by more than 8 are never close.
 */
function editDistance(a: string, b: string): number {
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
