#!/usr/bin/env node
// Runs the doctor once per repository of a corpus folder and prints, per repository, the errors,
// warnings, withheld findings, objects and files it could not read, then a summary. It never uses
// the network: each repository is a folder already on disk (see docs/development/corpus.md).
//
//   node scripts/corpus-measure.mjs [--kustomize none|path] [--doctor bin.js] [--json out.json] CORPUS
//
// --kustomize none  reads kustomize folders file by file (CNPG_I_KUSTOMIZE=none); without the
//                   flag the doctor finds kustomize or kubectl on the PATH, as a user's run would.
// --doctor          the doctor to run (default: this checkout's bin/cnpg-i-doctor.js), so that
//                   another checkout's figures can be taken with the same runner.
// --json            also writes every finding that is an error, with its repository, to a file.
// Exit code: 0 when every run ended with 0, 1 (findings) or 2 (files it could not read); 1 when
// a run crashed (exit 3 or a signal) or printed no JSON.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
let doctor = path.join(here, '..', 'bin', 'cnpg-i-doctor.js');
let kustomize;
let jsonOut;
let corpus;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--doctor') doctor = path.resolve(args[++i]);
  else if (a === '--kustomize') kustomize = args[++i];
  else if (a === '--json') jsonOut = path.resolve(args[++i]);
  else if (a.startsWith('-')) {
    process.stderr.write(`corpus-measure: unknown flag ${a}\n`);
    process.exit(2);
  } else corpus = path.resolve(a);
}
if (!corpus || !fs.existsSync(corpus) || !fs.statSync(corpus).isDirectory()) {
  process.stderr.write('usage: node scripts/corpus-measure.mjs [--kustomize none|path] [--doctor bin.js] [--json out.json] CORPUS\n');
  process.exit(2);
}

const env = { ...process.env };
if (kustomize !== undefined) env.CNPG_I_KUSTOMIZE = kustomize;
const repos = fs
  .readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
  .map((e) => e.name)
  .sort();

const rows = [];
const errors = [];
const total = { errors: 0, warnings: 0, withheld: 0, objects: 0, unreadable: 0, crashes: 0 };
const byRule = new Map();
for (const repo of repos) {
  const run = spawnSync(process.execPath, [doctor, '--format', 'json', repo], {
    cwd: corpus,
    env,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  let report;
  try {
    report = JSON.parse(run.stdout);
  } catch {
    report = undefined;
  }
  const crashed = run.status === null || run.status === 3 || !report;
  if (crashed) {
    total.crashes++;
    rows.push({ repo, crashed: true, status: run.status, signal: run.signal, stderr: (run.stderr ?? '').split('\n').slice(0, 3).join(' | ') });
    continue;
  }
  const errs = report.findings.filter((f) => f.severity === 'error');
  const warns = report.findings.filter((f) => f.severity === 'warning');
  const unreadable = (report.notRead ?? []).length;
  for (const f of errs) {
    errors.push({ repo, ...f });
    byRule.set(f.ruleId, (byRule.get(f.ruleId) ?? 0) + 1);
  }
  const row = { repo, errors: errs.length, warnings: warns.length, withheld: (report.withheld ?? []).length, objects: report.objectCount, unreadable };
  rows.push(row);
  total.errors += row.errors;
  total.warnings += row.warnings;
  total.withheld += row.withheld;
  total.objects += row.objects;
  total.unreadable += unreadable;
}

const pad = (s, n) => String(s).padEnd(n);
const num = (s, n) => String(s).padStart(n);
const width = Math.max(10, ...repos.map((r) => r.length));
process.stdout.write(`${pad('repository', width)} ${num('errors', 6)} ${num('warnings', 8)} ${num('withheld', 8)} ${num('objects', 7)} ${num('unread', 6)}\n`);
for (const r of rows) {
  if (r.crashed) process.stdout.write(`${pad(r.repo, width)} CRASH (exit ${r.status ?? r.signal}): ${r.stderr}\n`);
  else
    process.stdout.write(
      `${pad(r.repo, width)} ${num(r.errors, 6)} ${num(r.warnings, 8)} ${num(r.withheld, 8)} ${num(r.objects, 7)} ${num(r.unreadable, 6)}\n`,
    );
}
process.stdout.write(
  `\n${repos.length} repositories; ${total.objects} objects; ${total.errors} errors in ${rows.filter((r) => r.errors > 0).length} repositories; ` +
    `${total.warnings} warnings; ${total.withheld} withheld; ${total.unreadable} files not read; ${total.crashes} crashes\n`,
);
const rules = [...byRule].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
if (rules.length > 0) process.stdout.write(`errors by rule: ${rules.map(([r, n]) => `${r} ${n}`).join(', ')}\n`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ rows, errors }, null, 2) + '\n');
process.exit(total.crashes > 0 ? 1 : 0);
