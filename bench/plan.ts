// Plan throughput, in a fresh process:
//
//   node <built>/bench/plan.js <previous.yaml> <next.yaml> <rounds>
//
// Each round parses both files with the yaml package (as the CLI does) and then plans the two
// parsed sets, timing the two steps separately, side by side in this one process. Prints
// { objects, parseMs, planMs, findings } with the medians over the rounds after a warm-up.
import { readFileSync } from 'fs';
import { parseAllDocuments } from 'yaml';
import { planChanges } from '../src/plan';

function parse(text: string): unknown[] {
  return parseAllDocuments(text).map((d) => d.toJS());
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

if (require.main === module) {
  const [previousFile, nextFile, roundsArg] = process.argv.slice(2);
  const rounds = Number(roundsArg ?? '5');
  const previousText = readFileSync(previousFile, 'utf8');
  const nextText = readFileSync(nextFile, 'utf8');
  const parseMs: number[] = [];
  const planMs: number[] = [];
  let objects = 0;
  let findings = 0;
  for (let r = 0; r <= rounds; r++) {
    const t0 = process.hrtime.bigint();
    const previous = parse(previousText);
    const next = parse(nextText);
    const t1 = process.hrtime.bigint();
    const report = planChanges(previous, next);
    const t2 = process.hrtime.bigint();
    if (r === 0) continue; // warm-up
    parseMs.push(Number(t1 - t0) / 1e6);
    planMs.push(Number(t2 - t1) / 1e6);
    objects = report.previousCount + report.nextCount;
    findings = report.findings.length;
  }
  console.log(JSON.stringify({ objects, parseMs: median(parseMs), planMs: median(planMs), findings }));
}
