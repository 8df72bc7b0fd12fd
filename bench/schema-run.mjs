// Runs bench/schema.ts (compiled by bench/run.mjs): 20,000 objects parsed, against parsed and
// run through the schema layer, each in fresh processes, in interleaved rounds.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { median, ms, ratio, table } from './stats.mjs';

function run(root, built, args) {
  const out = execFileSync(process.execPath, ['--max-old-space-size=8192', join(built, 'bench', 'schema.js'), ...args], { cwd: root, encoding: 'utf8' });
  return out.trim() === '' ? undefined : JSON.parse(out.trim().split('\n').pop());
}

export function schemaBench({ root, built, quick, workdir }) {
  const n = quick ? 600 : 20000;
  const rounds = quick ? 1 : 5;
  const file = join(workdir, `schema-fleet-${n}.yaml`);
  run(root, built, ['generate', String(n), file]);
  const parse = [];
  const validate = [];
  const inProcess = [];
  let last;
  for (let r = 0; r < rounds + 1; r++) {
    const p = run(root, built, ['parse', file]);
    last = run(root, built, ['validate', file]);
    if (r > 0) {
      parse.push(p.ms);
      validate.push(last.ms);
      inProcess.push(last.validateMs / last.parseMs);
    }
  }
  if (last.issues !== 0) throw new Error(`the schema layer found ${last.issues} issues in the generated fleet`);
  const p = median(parse);
  const v = median(validate);
  const share = median(inProcess);
  return (
    table(
      ['objects', 'parse only (yaml)', 'parse + schema layer', 'ratio', 'peak RSS'],
      [[String(last.objects), ms(p), ms(v), ratio(v, p), `${last.maxRssMb} MB`]],
    ) +
    `\n\nWithin the validating process, the schema layer took ${share.toFixed(2)}x the time of parsing (median of the rounds), ` +
    `first use (loading the schemas and their generated validators, and the CEL library when a rule reads more than field presence) included.`
  );
}
