import * as fs from 'fs';
import * as path from 'path';
import { DOCTOR_RULES } from '../../src/doctor/rules';

const SRC = path.join(__dirname, '..', '..', 'src', 'doctor');

function table(): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return ['| id | severity | what | why | fix |', '| --- | --- | --- | --- | --- |',
    ...DOCTOR_RULES.map((r) => `| ${r.id} \`${r.name}\` | ${r.severity} | ${esc(r.what)} | ${esc(r.why)} | ${esc(r.fix)} |`)].join('\n');
}

describe('DOCTOR_RULES', () => {
  test('docs/doctor-rules.md holds the current rule table', () => {
    const doc = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'doctor-rules.md'), 'utf8');
    expect(doc).toContain(table());
  });

  test('every rule id the sources report is documented, and every documented rule is reported', () => {
    const used = new Set<string>();
    for (const f of fs.readdirSync(SRC).filter((x) => x.endsWith('.ts') && x !== 'rules.ts')) {
      for (const m of fs.readFileSync(path.join(SRC, f), 'utf8').matchAll(/'(CNPGI\d{3})'/g)) used.add(m[1]);
    }
    expect([...used].sort()).toEqual(DOCTOR_RULES.map((r) => r.id).sort());
  });
});
