import { analyzeManifests, checkManifests } from '../../src/doctor/check-manifests';
import { IGNORE_ANNOTATION, nearestRuleId } from '../../src/rules/suppressions';
import { Doc, doc, fixture, ofRule, summary } from '../doctor/helpers';

/** The good fixture with a plugin pod that mounts an extra Secret (CNPGI027) and runs as root (CNPGI050). */
function noisy(): Doc[] {
  const docs = fixture('good-plugin.yaml');
  const deployment = doc(docs, 'Deployment', 'backup');
  const spec = deployment.spec.template.spec;
  spec.volumes.push({ name: 'creds', secret: { secretName: 'cloud-credentials' } });
  spec.containers[0].volumeMounts.push({ name: 'creds', mountPath: '/creds' });
  delete spec.securityContext;
  return docs;
}

describe('suppressions', () => {
  test('the noisy fixture reports CNPGI027 and CNPGI050', () => {
    expect(
      checkManifests(noisy())
        .map((f) => f.ruleId)
        .sort(),
    ).toEqual(['CNPGI027', 'CNPGI050']);
  });

  test('disable switches rules off for the run, and counts what it silenced', () => {
    const report = analyzeManifests(noisy(), { disable: ['CNPGI050'] });
    expect(report.findings.map((f) => f.ruleId)).toEqual(['CNPGI027']);
    expect(report.suppressed.map((f) => `${f.ruleId} ${f.suppressedBy}`)).toEqual(['CNPGI050 disable']);
  });

  test('an unknown id in disable throws, naming the nearest rule', () => {
    expect(() => analyzeManifests([], { disable: ['CNPGI05'] })).toThrow(
      "checkManifests: options.disable[0] 'CNPGI05' is not a rule of the doctor; did you mean CNPGI050? (the rules are listed in docs/doctor-rules.md)",
    );
    expect(() => analyzeManifests([], { disable: ['nope-at-all'] })).toThrow(
      "checkManifests: options.disable[0] 'nope-at-all' is not a rule of the doctor; use an id from docs/doctor-rules.md, e.g. CNPGI050",
    );
    expect(() => analyzeManifests([], { disable: 'CNPGI050' as any })).toThrow("checkManifests: options.disable 'CNPGI050' must be an array of rule ids");
  });

  test('the ignore annotation silences the listed rules for that object only', () => {
    const docs = noisy();
    const deployment = doc(docs, 'Deployment', 'backup');
    deployment.metadata.annotations = { [IGNORE_ANNOTATION]: 'CNPGI027, CNPGI050' };
    const report = analyzeManifests(docs);
    expect(report.findings).toEqual([]);
    expect(report.suppressed.map((f) => `${f.ruleId} ${f.suppressedBy}`).sort()).toEqual(['CNPGI027 annotation', 'CNPGI050 annotation']);
    // on another object it silences nothing there
    const other = noisy();
    doc(other, 'Service', 'backup').metadata.annotations[IGNORE_ANNOTATION] = 'CNPGI027,CNPGI050';
    expect(
      checkManifests(other)
        .map((f) => f.ruleId)
        .sort(),
    ).toEqual(['CNPGI027', 'CNPGI050']);
  });

  test('an unknown id in the annotation is itself a warning (CNPGI091), naming the nearest rule', () => {
    const docs = noisy();
    const deployment = doc(docs, 'Deployment', 'backup');
    deployment.metadata.annotations = { [IGNORE_ANNOTATION]: 'CNPGI027,CNPG050' };
    const findings = checkManifests(docs);
    expect(summary(ofRule(findings, 'CNPGI091'))).toEqual([`CNPGI091 warning Deployment/cnpg-system/${deployment.metadata.name}`]);
    expect(ofRule(findings, 'CNPGI091')[0].message).toBe(
      `annotation ${IGNORE_ANNOTATION} names 'CNPG050', which is no rule of the doctor (did you mean CNPGI050?); it silences nothing`,
    );
    expect(ofRule(findings, 'CNPGI050')).toHaveLength(1);
    expect(ofRule(findings, 'CNPGI027')).toEqual([]);
  });

  test('nearestRuleId', () => {
    const ids = ['CNPGI010', 'CNPGI050'];
    expect(nearestRuleId('cnpgi050', ids)).toBe('CNPGI050');
    expect(nearestRuleId('CNPGI05', ids)).toBe('CNPGI050');
    expect(nearestRuleId('zzz', ids)).toBeUndefined();
  });
});
