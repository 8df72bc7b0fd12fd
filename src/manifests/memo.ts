/*
 * A bounded memo for pure readings of short strings (an image reference, a cron schedule, a
 * PostgreSQL size): a fleet repeats a few values thousands of times, and each is read once.
 */

/**
 * `read`, remembering its answer for each text. The memo holds at most `limit` answers and
 * starts over when full, so odd inputs cannot grow it without bound. `read` must be pure and its
 * answers must not be changed by the callers, which share them.
 * @internal
 */
export function memoized<T>(read: (text: string) => T, limit = 1000): (text: string) => T {
  const memo = new Map<string, T>();
  return (text: string): T => {
    if (memo.has(text)) return memo.get(text) as T;
    const answer = read(text);
    if (memo.size >= limit) memo.clear();
    memo.set(text, answer);
    return answer;
  };
}
