// Runs bench/doctor.ts (compiled by bench/run.mjs) on generated manifests of about
// 1,000 and 20,000 objects, each in fresh processes, against parsing the same file alone.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { median, ms, ratio, table } from './stats.mjs';

function run(root, built, args) {
  const out = execFileSync(process.execPath, ['--max-old-space-size=8192', join(built, 'bench', 'doctor.js'), ...args], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

export function doctorBench({ root, built, quick, workdir }) {
  const { fleetWithLibrary, pluginObjects } = createRequire(join(root, 'package.json'))(join(built, 'bench', 'fleet.js'));
  // The plugin install, then 3 objects per Cluster.
  const fixed = pluginObjects().length;
  const targets = quick ? [60] : [1000, 20000];
  const rounds = quick ? 1 : 5;
  const rows = [];
  const totals = {};
  for (const target of targets) {
    const n = Math.max(1, Math.round((target - fixed) / 3));
    const file = join(workdir, `fleet-${target}.yaml`);
    writeFileSync(file, fleetWithLibrary(n));
    const parse = [];
    const doctor = [];
    let last;
    for (let r = 0; r < rounds + 1; r++) {
      const p = run(root, built, ['parse', file]);
      last = run(root, built, ['doctor', file]);
      if (r > 0) {
        parse.push(p.ms);
        doctor.push(last.ms);
      }
    }
    if (last.errors !== 0) throw new Error(`doctor found ${last.errors} errors in the generated fleet`);
    const p = median(parse);
    const d = median(doctor);
    totals[last.objects] = d;
    rows.push([String(last.objects), ms(p), ms(d), ratio(d, p), `${last.maxRssMb} MB`]);
  }
  let text = table(['objects', 'parse only (yaml)', 'doctor: parse + all checks', 'doctor / parse', 'doctor peak RSS'], rows);
  const [small, large] = Object.keys(totals)
    .map(Number)
    .sort((a, b) => a - b);
  if (large) {
    text += `\n\nScaling: ${(large / small).toFixed(1)}x the objects took ${(totals[large] / totals[small]).toFixed(1)}x the time (linear: ${(large / small).toFixed(1)}x).`;
  }
  return text;
}
