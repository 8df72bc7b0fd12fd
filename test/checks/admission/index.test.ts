/*
 * admit: the CRD defaults and the defaulter, then every check of the kind in the webhook's order,
 * unless cnpg.io/validation switches validation off.
 */
import {
  ADMISSION_CHECKS,
  WEBHOOK_FUNCTIONS,
  admissionCheck,
  admissionErrors,
  admit,
  hasAdmissionChecks,
  validationEnabled,
  wholeValidatorChecked,
} from '../../../src/checks/admission/index';
import type { Json } from '../../../src/manifests/json';

const cluster = (spec: object, annotations?: Record<string, string>): Json => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'db', ...(annotations ? { annotations } : {}) },
  spec: { storage: { size: '1Gi' }, ...spec },
});

describe('admit', () => {
  test('every check names a function of its webhook (so that it runs in the webhook order), once', () => {
    for (const c of ADMISSION_CHECKS) expect([c.kind, c.upstream, WEBHOOK_FUNCTIONS[c.kind].flat().includes(c.upstream)]).toEqual([c.kind, c.upstream, true]);
    const keys = ADMISSION_CHECKS.map((c) => `${c.kind} ${c.upstream}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  test('the issues come in the webhook order, whatever the order of the family lists', () => {
    // validateImagePullPolicy is the webhook's 9th function, validateBootstrapPgBaseBackupSource its 20th,
    // validateReplicaMode its 27th and validateReplicaClusterExternalClusters the function it calls.
    const admission = admit(
      'Cluster',
      cluster({ imagePullPolicy: 'x', bootstrap: { pg_basebackup: { source: 'nowhere' } }, replica: { source: 'nowhere', enabled: true, primary: 'p' } }),
    );
    expect([...admission.issues.keys()]).toEqual([
      'validateImagePullPolicy',
      'validateBootstrapPgBaseBackupSource',
      'validateReplicaMode',
      'validateReplicaClusterExternalClusters',
    ]);
    expect(admissionErrors(admission).map((i) => i.path)).toEqual([
      'spec.imagePullPolicy',
      'spec.bootstrap.pg_basebackup.source',
      'spec.replica.enabled',
      'spec.replica.source',
      'spec.replica.primary',
    ]);
  });

  test('the checks judge the defaulted object, which admit returns; the object itself is not changed', () => {
    const o = cluster({ replica: { source: 'origin' }, externalClusters: [{ name: 'origin', connectionParameters: { host: 'h' } }] });
    const before = JSON.stringify(o);
    const admission = admit('Cluster', o);
    expect(JSON.stringify(o)).toBe(before);
    expect(admission.defaulted.spec).toMatchObject({ bootstrap: { initdb: { database: 'app', owner: 'app' } }, instances: 1 });
    // The initdb the defaulter writes is what validateReplicaMode refuses for a replica cluster.
    expect(admission.issues.get('validateReplicaMode')?.map((i) => i.path)).toEqual(['spec.replica']);
  });

  test('the context reaches the defaulter: the operator default image', () => {
    expect(admit('Cluster', cluster({}), { defaultImageName: 'registry.example.com/pg:17.6' }).defaulted.spec).toMatchObject({
      imageName: 'registry.example.com/pg:17.6',
    });
  });

  test('cnpg.io/validation: disabled skips every check; another value does not', () => {
    const bad = { imagePullPolicy: 'x' };
    const disabled = admit('Cluster', cluster(bad, { 'cnpg.io/validation': 'disabled' }));
    expect(disabled.validationDisabled).toBe(true);
    expect(disabled.issues.size).toBe(0);
    const unknown = admit('Cluster', cluster(bad, { 'cnpg.io/validation': 'off' }));
    expect(unknown.validationDisabled).toBe(false);
    expect([...unknown.issues.keys()]).toEqual(['validateImagePullPolicy']);
    // The ScheduledBackup webhook does not read the annotation.
    expect(validationEnabled('ScheduledBackup', cluster({}, { 'cnpg.io/validation': 'disabled' }))).toBe(true);
    expect(validationEnabled('Backup', cluster({}, { 'cnpg.io/validation': 'disabled' }))).toBe(false);
  });

  test('hasAdmissionChecks: whether any check judges the kind', () => {
    expect(hasAdmissionChecks('Cluster')).toBe(true);
    for (const kind of ['Backup', 'ScheduledBackup', 'Pooler', 'Database'] as const)
      expect(hasAdmissionChecks(kind)).toBe(ADMISSION_CHECKS.some((c) => c.kind === kind));
  });

  test('a kind without checks is admitted with its CRD defaults and no issue', () => {
    const admission = admit('Database', { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Database', metadata: { name: 'd' }, spec: {} });
    expect(admission.issues.size).toBe(0);
  });

  test('the whole validator of a kind is checked once each of its functions has a check', () => {
    const clusterFunctions = WEBHOOK_FUNCTIONS.Cluster.filter(([f]) => !f.startsWith('get'));
    const everyOne = clusterFunctions.every((names) => names.some((n) => admissionCheck('Cluster', n) !== undefined));
    expect(wholeValidatorChecked('Cluster')).toBe(everyOne);
    expect(wholeValidatorChecked('Database')).toBe(
      ['validateExtensions', 'validateSchemas', 'validateFDWs', 'validateForeignServers'].every((f) => admissionCheck('Database', f)),
    );
  });
});
