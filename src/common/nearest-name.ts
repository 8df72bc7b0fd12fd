/**
 * The declared name closest to `name`, when one is close enough to be a misspelling: the same
 * letters in another case, or at most a third of the letters changed (one at least). Used for
 * the "did you mean" of unknown props keys and of fields the API server would prune, so both
 * suggest the same way.
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
  const limit = Math.max(1, Math.floor(name.length / 3));
  return bestDistance <= limit ? best : undefined;
}

/** Levenshtein distance; names whose lengths differ by more than 8 are never close. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 8) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
