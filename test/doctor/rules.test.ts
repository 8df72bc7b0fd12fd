import * as fs from 'fs';
import * as path from 'path';
import { readmeWithTable, rulesDocument } from '../../scripts/doctor-rules-docs';
import { analyzeManifests } from '../../src/doctor/check-manifests';
import { DOCTOR_RULES } from '../../src/doctor/rules';
import { RULE_FAMILIES, RULE_SPECS } from '../../src/doctor/rules/index';
import { fixture } from './helpers';

const ROOT = path.join(__dirname, '..', '..');
const RULES_SRC = path.join(ROOT, 'src', 'doctor', 'rules');
const REGENERATE = 'run `npm run docs:rules` to regenerate it';

describe('the rule registry', () => {
  test('docs/doctor-rules.md is generated from the registry', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'doctor-rules.md'), 'utf8');
    if (doc !== rulesDocument()) throw new Error(`docs/doctor-rules.md is stale: ${REGENERATE}`);
  });

  test("the README's rule table is generated from the registry", () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    if (readme !== readmeWithTable(readme)) throw new Error(`the rule table in README.md is stale: ${REGENERATE}`);
  });

  test('ids are unique, well formed and sorted; DOCTOR_RULES is the registry', () => {
    const ids = RULE_SPECS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^CNPGI\d{3}$/);
    expect(DOCTOR_RULES.map((r) => r.id)).toEqual(ids);
    expect(new Set(RULE_SPECS.map((r) => r.name)).size).toBe(ids.length);
  });

  test('every rule declares what decides each severity, cites upstream code, and names the kinds it reads', () => {
    for (const r of RULE_SPECS) {
      expect(r.severities.length).toBeGreaterThan(0);
      expect(new Set(r.severities.map((s) => s.severity)).size).toBe(r.severities.length);
      for (const s of r.severities) expect(s.when.length).toBeGreaterThan(3);
      expect(r.kinds.length).toBeGreaterThan(0);
    }
    // the rules about the operator's behaviour cite a pinned tag
    const cited = RULE_SPECS.filter((r) => / v\d+\.\d+\.\d+ /.test(r.why)).map((r) => r.id);
    expect(RULE_SPECS.filter((r) => !cited.includes(r.id)).map((r) => r.id)).toEqual(['CNPGI090', 'CNPGI091']);
  });

  test('every registered id is reported by its family source, and no source reports an unregistered id', () => {
    const used = new Set<string>();
    for (const f of fs.readdirSync(RULES_SRC).filter((x) => x.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(RULES_SRC, f), 'utf8');
      for (const m of text.matchAll(/report\(\s*'(CNPGI\d{3})'/g)) used.add(m[1]);
      for (const m of text.matchAll(/\? '(CNPGI\d{3})' : '(CNPGI\d{3})'/g)) used.add(m[1]).add(m[2]);
    }
    // CNPGI010 to CNPGI013 are recorded by the model (plugin-service-rules.ts) and reported as read
    for (const m of fs.readFileSync(path.join(ROOT, 'src', 'doctor', 'plugin-service-rules.ts'), 'utf8').matchAll(/'(CNPGI01[0-3])'/g)) used.add(m[1]);
    expect([...used].sort()).toEqual(RULE_SPECS.map((r) => r.id));
  });

  test('a check that reports a severity its rule does not declare fails the run', () => {
    const family = RULE_FAMILIES.find((f) => f.rules.some((r) => r.id === 'CNPGI090'))!;
    const spec = family.rules.find((r) => r.id === 'CNPGI090')! as { severities: unknown };
    const saved = spec.severities;
    spec.severities = [{ severity: 'error', when: 'test' }];
    try {
      expect(() => analyzeManifests([42])).toThrow('CNPGI090 reported warning, but its registry entry declares only error');
    } finally {
      spec.severities = saved;
    }
  });

  test('CNPGI012 for an empty pluginServerName is a warning, which the registry declares', () => {
    const docs = fixture('good-plugin.yaml');
    const svc = docs.find((d) => d.kind === 'Service' && d.metadata?.labels?.['cnpg.io/pluginName'])!;
    svc.metadata.annotations['cnpg.io/pluginServerName'] = '';
    const f = analyzeManifests(docs).findings.filter((x) => x.ruleId === 'CNPGI012');
    expect(f.map((x) => `${x.ruleId} ${x.ruleName} ${x.severity}`)).toEqual(['CNPGI012 plugin-empty-value warning']);
    expect(DOCTOR_RULES.find((r) => r.id === 'CNPGI012')!.severity).toBe('error or warning');
  });

  test('the runner stamps the rule name, and the rule fix when a check gives none', () => {
    const f = analyzeManifests([], {}).findings[0];
    expect(f).toMatchObject({ ruleId: 'CNPGI001', ruleName: 'operator-namespace' });
    expect(f.fix.length).toBeGreaterThan(0);
  });
});
