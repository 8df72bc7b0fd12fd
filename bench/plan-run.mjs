// Runs bench/plan.ts (compiled by bench/run.mjs): two manifest sets of about 20,000 objects each
// (the generated fleet, and the same fleet with every Cluster's storage grown and one Cluster
// renamed, so that every Cluster is compared and one finding is reported), parsed and planned.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ms, table } from './stats.mjs';

export function planBench({ root, built, quick, workdir }) {
  const { fleetWithLibrary, pluginObjects } = createRequire(join(root, 'package.json'))(join(built, 'bench', 'fleet.js'));
  const fixed = pluginObjects().length;
  const target = quick ? 60 : 20000;
  const n = Math.max(1, Math.round((target - fixed) / 3));
  const previous = fleetWithLibrary(n);
  // Every Cluster grows (compared, no finding); pg-0 is renamed (one CNPGI201).
  const next = previous.replaceAll('size: 10Gi', 'size: 20Gi').replace(/name: pg-0\n/, 'name: pg-0-renamed\n');
  const previousFile = join(workdir, 'plan-previous.yaml');
  const nextFile = join(workdir, 'plan-next.yaml');
  writeFileSync(previousFile, previous);
  writeFileSync(nextFile, next);
  const out = execFileSync(process.execPath, ['--max-old-space-size=8192', join(built, 'bench', 'plan.js'), previousFile, nextFile, String(quick ? 1 : 7)], {
    cwd: root,
    encoding: 'utf8',
  });
  const r = JSON.parse(out.trim().split('\n').pop());
  if (r.findings < 1) throw new Error('the plan found nothing in a set with a renamed Cluster');
  const rows = [
    [
      `${r.objects / 2} + ${r.objects / 2}`,
      ms(r.parseMs),
      ms(r.planMs),
      `${(r.planMs / r.parseMs).toFixed(2)}x`,
      `${((r.parseMs + r.planMs) / r.parseMs).toFixed(2)}x`,
      String(r.findings),
    ],
  ];
  return (
    table(['objects (previous + next)', 'parse both (yaml)', 'planChanges', 'plan / parse', '(parse + plan) / parse', 'findings'], rows) +
    '\n\nMedians over interleaved rounds in one process after a warm-up. Target: planning at most 2.5x the time of parsing both sets.'
  );
}
