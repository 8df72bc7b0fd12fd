import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

// `npm run build` runs jsii through scripts/jsii-build.mjs, which leaves out the warnings listed in
// scripts/jsii/expected-warnings.txt and prints every other. Its --filter mode reads jsii output
// from stdin, so the filter is fed samples here in jsii's own format.
const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'jsii-build.mjs');
const LIST = fs.readFileSync(path.join(ROOT, 'scripts', 'jsii', 'expected-warnings.txt'), 'utf8');

function filter(output: string, env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [SCRIPT, '--filter'], { cwd: ROOT, input: output, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`scripts/jsii-build.mjs --filter exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** The 1-based line of `file` that holds `text`. */
function lineOf(file: string, text: string): number {
  const i = fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`${file} has no line with ${text}`);
  return i + 1;
}

/** One reserved-word warning with its code frame, as jsii 5.9 prints it. */
function reservedWord(file: string, line: number, word: string, languages: string): string {
  return [
    `${file}:${line}:12 - warning JSII5018: "${word}" is a reserved word in ${languages}. Using this name may cause problems when generating language bindings. Consider a different name. [language-compatibility/reserved-word]`,
    '',
    `${line}   readonly ${word}: string;`,
    `               ${'~'.repeat(word.length)}`,
    '',
  ].join('\n');
}

const SUMMARY = ['✨ Successful with warnings', 'Errors: 0 | Warnings: 3 | Time: 1.00s'].join('\n');

describe('scripts/jsii-build.mjs, the jsii warning filter of npm run build', () => {
  const certManager = 'imports/cert-manager.io.ts';
  const typeLine = lineOf(certManager, 'readonly type: CertificateSpecAdditionalOutputFormatsType;');
  const finding = 'src/rules/finding.ts';
  const objectLine = lineOf(finding, 'readonly object');
  const schedule = 'src/postgres/backup-schedule.ts';
  const weekDayLine = lineOf(schedule, 'readonly weekDay?: string;');

  test('the list names each expected warning by code, file, declaration and word', () => {
    expect(LIST).toContain('JSII5018 imports/cert-manager.io.ts CertificateSpecAdditionalOutputFormats type\n');
    expect(LIST.split('\n').filter((l) => l === 'JSII5018 src/rules/finding.ts Finding object')).toHaveLength(1);
  });

  test('an expected warning is left out with its code frame, and counted', () => {
    const out = filter(`${reservedWord(certManager, typeLine, 'type', 'Go')}\n${SUMMARY}\n`);
    expect(out).toBe(`${SUMMARY}\njsii: 1 expected warnings left out (scripts/jsii/expected-warnings.txt)\n`);
  });

  test('the line does not matter: a warning moved by a regenerated import is still known', () => {
    expect(filter(reservedWord(certManager, typeLine + 2, 'type', 'Go'))).toBe('jsii: 1 expected warnings left out (scripts/jsii/expected-warnings.txt)\n');
  });

  test('a new reserved word shows, with its code frame, among expected ones that do not', () => {
    const fresh = reservedWord(schedule, weekDayLine, 'weekDay', 'Go');
    const out = filter([reservedWord(certManager, typeLine, 'type', 'Go'), fresh, reservedWord(finding, objectLine, 'object', 'C#'), SUMMARY].join('\n'));
    expect(out).toBe(`${fresh}\n${SUMMARY}\njsii: 2 expected warnings left out (scripts/jsii/expected-warnings.txt)\n`);
  });

  test('an expected warning beyond its count shows: the list is a multiset', () => {
    const object = reservedWord(finding, objectLine, 'object', 'C#');
    expect(filter(`${object}\n${object}`)).toBe(`${object.trimEnd()}\njsii: 1 expected warnings left out (scripts/jsii/expected-warnings.txt)\n`);
  });

  test('any other diagnostic shows, whatever its file', () => {
    const other = [
      `${certManager}:${typeLine}:12 - warning JSII9998: a warning jsii has not given before`,
      'warning JSII6: A "peerDependency" on "constructs" does not match the "devDependency"',
      `${schedule}:1:1 - error TS2307: Cannot find module './missing'.`,
    ].join('\n');
    expect(filter(other)).toBe(`${other}\njsii: 0 expected warnings left out (scripts/jsii/expected-warnings.txt)\n`);
  });

  test('CNPG_I_JSII_ALL_WARNINGS=1 prints the expected ones too', () => {
    const expected = reservedWord(certManager, typeLine, 'type', 'Go');
    expect(filter(expected, { CNPG_I_JSII_ALL_WARNINGS: '1' })).toBe(
      `${expected.trimEnd()}\njsii: 0 expected warnings left out (scripts/jsii/expected-warnings.txt)\n`,
    );
  });
});
