import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { main } from '../../src/cli/doctor';
import type { Finding } from '../../src/rules/finding';
import { runCli } from '../cli/run-cli';

/** A parsed manifest, loosely typed so tests can break any field. */
export type Doc = Record<string, any>;

/** The documents of a fixture in test/fixtures/doctor, freshly parsed (safe to mutate). */
export function fixture(name: string): Doc[] {
  const text = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'doctor', name), 'utf8');
  return YAML.parseAllDocuments(text)
    .map((d) => d.toJS())
    .filter((d) => d !== null);
}

/** The document of a kind and name. */
export function doc(docs: Doc[], kind: string, name: string): Doc {
  const found = docs.find((d) => d.kind === kind && d.metadata?.name === name);
  if (!found) throw new Error(`no ${kind}/${name} in fixture`);
  return found;
}

/** `ruleId severity object` of each finding, for compact assertions. */
export function summary(findings: Finding[]): string[] {
  return findings.map((f) => `${f.ruleId} ${f.severity} ${f.object}`);
}

/** The findings of one rule. */
export function ofRule(findings: Finding[], ruleId: string): Finding[] {
  return findings.filter((f) => f.ruleId === ruleId);
}

/**
 * The doctor's command line run in-process on `paths` (the folder itself by default) of the
 * folder `dir`, with its JSON report parsed and, in `lines`, `ruleId severity object: message`
 * of the findings of `rules`. `kustomize` is `CNPG_I_KUSTOMIZE`: `none` reads kustomize folders
 * file by file, a binary's path renders them.
 */
export async function doctorOnTree(dir: string, paths: readonly string[], rules: readonly string[], kustomize = 'none') {
  const r = await runCli(main, ['--format', 'json', '--operator-namespace', 'cnpg-system', ...(paths.length ? paths : ['.'])], {
    cwd: dir,
    env: { CNPG_I_KUSTOMIZE: kustomize },
  });
  const report = JSON.parse(r.out) as { objectCount: number; findings: Finding[] };
  return { ...r, report, lines: report.findings.filter((f) => rules.includes(f.ruleId)).map((f) => `${f.ruleId} ${f.severity} ${f.object}: ${f.message}`) };
}
