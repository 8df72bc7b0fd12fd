import * as fs from 'fs';
import * as path from 'path';
import { admissionDocument, doctorTable, planTable, rulesDocument } from '../../scripts/doctor-rules-docs';
import { ruleFiles } from '../../scripts/rule-index';
import { analyzeManifests } from '../../src/doctor/check-manifests';
import { DOCTOR_RULES } from '../../src/doctor/registry';
import { DOCTOR_RULE_DEFINITIONS } from '../../src/doctor/rules/index';
import { fixture } from './helpers';

const ROOT = path.join(__dirname, '..', '..');
const REGENERATE = 'run `npm run docs:rules` to regenerate it';

describe('the rule registry', () => {
  test('docs/doctor-rules.md is generated from the registry', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'doctor-rules.md'), 'utf8');
    if (doc !== rulesDocument()) throw new Error(`docs/doctor-rules.md is stale: ${REGENERATE}`);
  });

  test('the table of docs/admission.md is generated from the admission checks and the rules that report them', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'admission.md'), 'utf8');
    if (doc !== admissionDocument(doc)) throw new Error(`the table in docs/admission.md is stale: ${REGENERATE}`);
    expect(doc).toContain('| Cluster | `cluster_webhook.go` `validateImagePullPolicy` | CNPGI300 |');
    expect(doc).toContain('| Cluster | `validateReplicaClusterExternalClusters`, which the function above calls | CNPGI100 |');
  });

  test('docs/doctor-rules.md opens with the table of every doctor rule and holds the table of every plan rule', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'doctor-rules.md'), 'utf8');
    const doctor = doc.indexOf(doctorTable());
    expect(doctor).toBeGreaterThan(0);
    expect(doc.indexOf('\n## ')).toBeGreaterThan(doctor);
    expect(doc.indexOf(planTable())).toBeGreaterThan(doc.indexOf('\n# Plan rules\n'));
    for (const r of DOCTOR_RULES) expect(doctorTable()).toContain(`| ${r.id} \`${r.name}\` |`);
  });

  test('the README and the guides link to the generated tables instead of holding a copy that could go stale', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('](docs/doctor-rules.md)');
    expect(readme).toContain('](docs/doctor-rules.md#plan-rules)');
    for (const file of ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs', 'guides')).map((f) => path.join('docs', 'guides', f))]) {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      expect([file, /\| CNPGI\d{3} `/.test(text)]).toEqual([file, false]);
    }
  });

  test('ids are unique, well formed and sorted; DOCTOR_RULES is the registry', () => {
    const ids = DOCTOR_RULE_DEFINITIONS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^CNPGI\d{3}$/);
    expect(DOCTOR_RULES.map((r) => r.id)).toEqual([...ids].sort());
    expect(new Set(DOCTOR_RULES.map((r) => r.name)).size).toBe(ids.length);
  });

  test('each rule file declares the rule of its file name, and the index lists every rule file', () => {
    const files = ruleFiles(ROOT, 'src/doctor/rules');
    expect(files.length).toBe(DOCTOR_RULE_DEFINITIONS.length);
    for (const f of files) {
      const { rule } = require(path.join(ROOT, 'src', 'doctor', 'rules', f));
      expect(`${path.basename(f, '.ts')}`).toBe(`${rule.id.toLowerCase()}-${rule.name}`);
      expect(DOCTOR_RULE_DEFINITIONS).toContain(rule);
    }
  });

  test('every rule declares what decides each severity, cites upstream code, and names the kinds it reads', () => {
    for (const r of DOCTOR_RULES) {
      expect(r.severities.length).toBeGreaterThan(0);
      expect(new Set(r.severities.map((s) => s.severity)).size).toBe(r.severities.length);
      for (const s of r.severities) expect(s.when.length).toBeGreaterThan(3);
      expect(r.kinds.length).toBeGreaterThan(0);
    }
    // the rules about the operator's behaviour cite a pinned tag
    const cited = DOCTOR_RULES.filter((r) => / v\d+\.\d+\.\d+ /.test(r.why)).map((r) => r.id);
    expect(DOCTOR_RULES.filter((r) => !cited.includes(r.id)).map((r) => r.id)).toEqual(['CNPGI090', 'CNPGI091']);
  });

  test('a check that reports a severity its rule does not declare fails the run', () => {
    const spec = DOCTOR_RULE_DEFINITIONS.find((r) => r.id === 'CNPGI090')! as { severities: unknown };
    const saved = spec.severities;
    spec.severities = [{ severity: 'error', when: 'test' }];
    try {
      expect(() => analyzeManifests([42])).toThrow('CNPGI090 reported warning, but the rule declares only error');
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
