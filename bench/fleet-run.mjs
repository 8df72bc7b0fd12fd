// Runs bench/fleet.ts (compiled by bench/run.mjs) in fresh processes for each N.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, ms, ratio, table } from './stats.mjs';

function run(root, built, args) {
  const out = execFileSync(process.execPath, ['--max-old-space-size=8192', join(built, 'bench', 'fleet.js'), ...args], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

export function fleetBench({ root, built, quick }) {
  const sizes = quick ? [2, 5] : [10, 100, 1000, 5000];
  // The sub-second sizes are the ones the load on a shared machine moves most: more rounds.
  const roundsFor = (n) => (quick ? 1 : n <= 1000 ? 7 : 3);
  const work = mkdtempSync(join(tmpdir(), 'cnpg-i-fleet-'));
  const { pluginObjects } = requireLib(root, built);
  const pluginsPath = join(work, 'plugins.json');
  writeFileSync(pluginsPath, JSON.stringify(pluginObjects()));
  const rows = [];
  const times = {};
  for (const n of sizes) {
    const lib = [];
    const base = [];
    let libRun;
    let baseRun;
    // Interleaved, one warm-up round for the small sizes only (the large ones warm themselves).
    for (let r = 0; r < roundsFor(n) + (n <= 100 ? 1 : 0); r++) {
      libRun = run(root, built, ['library', String(n)]);
      baseRun = run(root, built, ['baseline', String(n), pluginsPath]);
      if (r >= (n <= 100 ? 1 : 0)) {
        lib.push(libRun.ms);
        base.push(baseRun.ms);
      }
    }
    if (libRun.sha256 !== baseRun.sha256) {
      throw new Error(`fleet N=${n}: the library's YAML and the L1 baseline's differ (${libRun.sha256} vs ${baseRun.sha256})`);
    }
    const l = median(lib);
    const b = median(base);
    times[n] = l;
    rows.push([String(n), ms(l), `${libRun.maxRssMb} MB`, ms(b), `${baseRun.maxRssMb} MB`, ratio(l, b), `${(libRun.bytes / 1e6).toFixed(1)} MB`]);
  }
  rmSync(work, { recursive: true, force: true });
  let text = table(['N clusters', 'library: build + synth', 'library: peak RSS', 'L1 baseline', 'baseline: peak RSS', 'library / baseline', 'YAML'], rows);
  text +=
    '\n\nBoth sides produce byte-identical YAML (SHA-256 compared for every N). Time is building the constructs and `app.synthYaml()`, in-process, after module load.';
  if (times[5000] && times[1000]) text += `\n\nLinearity: time(5000) / time(1000) = ${(times[5000] / times[1000]).toFixed(2)} (5.0 is linear).`;
  return text;
}

function requireLib(root, built) {
  // The compiled bench module exports the plugin objects the baseline reuses.
  return createRequireFrom(root)(join(built, 'bench', 'fleet.js'));
}
function createRequireFrom(root) {
  return createRequire(join(root, 'package.json'));
}
