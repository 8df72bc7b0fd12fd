// Small helpers shared by the benchmarks: process timing, medians, tables.
import { spawnSync } from 'node:child_process';

/** Median of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs a command to completion and returns its wall time in ms; throws on failure. */
export function timeCommand(cmd, args, opts = {}) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return ms;
}

/**
 * Measures several commands side by side: a warm-up round, then `rounds` rounds in which each
 * command runs once, in turn, so that load on this shared machine hits all of them alike.
 * A case with `rounds` of its own (a slow one) runs in that many of the first rounds only.
 */
export function interleave(cases, rounds, warmup = 1) {
  const times = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let r = 0; r < warmup + rounds; r++) {
    for (const c of cases) {
      if (c.rounds !== undefined && r >= warmup + c.rounds) continue;
      c.before?.();
      const ms = timeCommand(c.cmd, c.args, c.opts);
      if (r >= warmup) times[c.name].push(ms);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

/** Formats a Markdown table. */
export function table(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const ms = (x) => `${x.toFixed(0)} ms`;
export const ratio = (a, b) => `${(a / b).toFixed(2)}x`;
