/*
 * CNPGI399: a `cnpg.io/validation` value other than `enabled` and `disabled` makes the webhook
 * warn, and validate as usual (cloudnative-pg v1.30.0 internal/webhook/v1/common.go).
 */
import { analyzeManifests } from '../../../../../src/doctor/check-manifests';
import { ofRule } from '../../../helpers';

const object = (kind: string, annotations?: Record<string, unknown>, spec: object = {}) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind,
  metadata: { name: 'pg', namespace: 'db', ...(annotations ? { annotations } : {}) },
  spec,
});
const findings = (...objects: object[]) => ofRule(analyzeManifests(objects).findings, 'CNPGI399');
const storage = { instances: 1, storage: { size: '1Gi' } };

describe('CNPGI399 validation-annotation-value', () => {
  test.each([
    ['Cluster', 'false'],
    ['Backup', 'Disabled'],
    ['Pooler', 'off'],
    ['Database', ' disabled'],
  ])('trips on a %s with %j', (kind, value) => {
    const [f, ...more] = findings(object(kind, { 'cnpg.io/validation': value }));
    expect(more).toEqual([]);
    expect(f).toMatchObject({
      severity: 'warning',
      object: `${kind}/db/pg`,
      path: 'metadata.annotations.cnpg.io/validation',
      message:
        `is ${JSON.stringify(value)}, which the ${kind} webhook does not know: it answers the warning ` +
        `'invalid "cnpg.io/validation" annotation: ${JSON.stringify(value)} (expected "enabled" or "disabled")' and validates the ${kind} as usual`,
      fix: 'write "enabled" (or leave the annotation out) to keep validation on; "disabled" switches it off',
    });
  });

  test('validation runs: the admission rules still report', () => {
    const ids = analyzeManifests([object('Cluster', { 'cnpg.io/validation': 'no' }, { ...storage, imagePullPolicy: 'Sometimes' })]).findings.map(
      (f) => f.ruleId,
    );
    expect(ids).toEqual(expect.arrayContaining(['CNPGI399', 'CNPGI300']));
  });

  test.each([
    ['no annotation', object('Cluster', undefined, storage)],
    ['enabled', object('Cluster', { 'cnpg.io/validation': 'enabled' }, storage)],
    ['disabled (CNPGI398)', object('Cluster', { 'cnpg.io/validation': 'disabled' }, storage)],
    ['empty', object('Cluster', { 'cnpg.io/validation': '' }, storage)],
    [
      'a ScheduledBackup, whose webhook does not read it',
      object('ScheduledBackup', { 'cnpg.io/validation': 'maybe' }, { cluster: { name: 'pg' }, schedule: '0 0 0 * * *' }),
    ],
  ])('passes: %s', (_what, o) => {
    expect(findings(o)).toEqual([]);
  });
});
