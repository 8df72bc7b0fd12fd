/*
 * CNPGI398: `cnpg.io/validation: disabled` makes the validating webhook accept the object
 * unjudged (cloudnative-pg v1.30.0 internal/webhook/v1/common.go), and the doctor's admission
 * rules then say nothing on it.
 */
import { analyzeManifests } from '../../../../../src/doctor/check-manifests';
import { ofRule } from '../../../helpers';

const object = (kind: string, annotations?: Record<string, unknown>, spec: object = {}, apiVersion = 'postgresql.cnpg.io/v1') => ({
  apiVersion,
  kind,
  metadata: { name: 'pg', namespace: 'db', ...(annotations ? { annotations } : {}) },
  spec,
});
const findings = (...objects: object[]) => ofRule(analyzeManifests(objects).findings, 'CNPGI398');
const disabled = { 'cnpg.io/validation': 'disabled' };
const storage = { instances: 1, storage: { size: '1Gi' } };

describe('CNPGI398 validation-disabled', () => {
  test.each(['Cluster', 'Backup', 'Pooler', 'Database'])('trips on a %s', (kind) => {
    const [f, ...more] = findings(object(kind, disabled));
    expect(more).toEqual([]);
    expect(f).toMatchObject({
      severity: 'warning',
      object: `${kind}/db/pg`,
      path: 'metadata.annotations.cnpg.io/validation',
      message:
        `is "disabled": the ${kind} webhook accepts this ${kind} without judging it, with the warning "validation webhook is disabled — all changes are accepted without validation. ` +
        'This may lead to unsafe or destructive operations. Proceed with extreme caution."; a mistake it would refuse reaches the operator, ' +
        'and the doctor does not judge it either (its admission rules report nothing on this object)',
      fix: 'remove the annotation, or set it to "enabled", once the change that needed it is applied',
    });
  });

  test("the admission rules report nothing on the object: the webhook's refusals become this one warning", () => {
    const bad = { ...storage, imagePullPolicy: 'Sometimes', bootstrap: { recovery: { source: 'nowhere' } } };
    const judged = analyzeManifests([object('Cluster', {}, bad)]).findings.map((f) => f.ruleId);
    expect(judged).toEqual(expect.arrayContaining(['CNPGI100', 'CNPGI300']));
    const unjudged = analyzeManifests([object('Cluster', disabled, bad)]).findings.map((f) => f.ruleId);
    expect(unjudged).toContain('CNPGI398');
    expect(unjudged).not.toContain('CNPGI100');
    expect(unjudged).not.toContain('CNPGI300');
  });

  test.each([
    ['no annotation', object('Cluster', undefined, storage)],
    ['enabled', object('Cluster', { 'cnpg.io/validation': 'enabled' }, storage)],
    ['an empty value (validation on)', object('Cluster', { 'cnpg.io/validation': '' }, storage)],
    ['another value (CNPGI399)', object('Cluster', { 'cnpg.io/validation': 'off' }, storage)],
    ['a ScheduledBackup, whose webhook does not read it', object('ScheduledBackup', disabled, { cluster: { name: 'pg' }, schedule: '0 0 0 * * *' })],
    ['a Cluster of another API group', object('Cluster', disabled, storage, 'example.com/v1')],
    ['another annotation', object('Cluster', { 'cnpg.io/validations': 'disabled' }, storage)],
  ])('passes: %s', (_what, o) => {
    expect(findings(o)).toEqual([]);
  });
});
