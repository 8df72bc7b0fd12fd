import { checkManifests } from '../../../../../src/doctor/check-manifests';
import { ofRule } from '../../../helpers';

const ANNOTATION = 'cnpg.io/volumeSnapshotDeadline';
const PATH = `metadata.annotations.${ANNOTATION}`;
const FIX = "write the minutes as a plain integer string, e.g. '30', or remove the annotation (the operator then waits 10 minutes)";

function backup(annotations: Record<string, unknown>, spec: Record<string, unknown> = { method: 'volumeSnapshot' }) {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Backup',
    metadata: { name: 'snap', namespace: 'app', annotations },
    spec: { cluster: { name: 'pg' }, ...spec },
  };
}

function scheduled(annotations: Record<string, unknown>) {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'ScheduledBackup',
    metadata: { name: 'nightly', namespace: 'app', annotations },
    spec: { cluster: { name: 'pg' }, method: 'volumeSnapshot', schedule: '0 0 2 * * *' },
  };
}

const findings = (...objects: unknown[]) => ofRule(checkManifests(objects), 'CNPGI370');

describe('CNPGI370 backup-volume-snapshot-deadline', () => {
  test.each(['ten', '30m', '1.5', ' 30', '0x1e', '9223372036854775808'])('a Backup with %p is refused', (value) => {
    const [f, ...rest] = findings(backup({ [ANNOTATION]: value }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Backup/app/snap',
      path: PATH,
      message: `the Backup webhook refuses the annotation ${ANNOTATION} '${value}' is no integer for Go's strconv.Atoi ("must be an integer"): it is the number of minutes the operator waits for a volume snapshot`,
      fix: FIX,
    });
  });

  test('a ScheduledBackup with it: every Backup it creates is refused', () => {
    const [f, ...rest] = findings(scheduled({ [ANNOTATION]: 'ten' }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'ScheduledBackup/app/nightly',
      path: PATH,
      message: `the ScheduledBackup webhook accepts the annotation ${ANNOTATION} 'ten' is no integer for Go's strconv.Atoi, but it is copied to every Backup the ScheduledBackup creates, and the Backup webhook refuses each of them ("must be an integer")`,
      fix: FIX,
    });
  });

  test.each(['30', '0', '+5', '-1', '9223372036854775807', ''])('%p is an integer for Go, or unset: no finding', (value) => {
    expect(findings(backup({ [ANNOTATION]: value }), scheduled({ [ANNOTATION]: value }))).toEqual([]);
  });

  test('no annotation, another annotation, or validation disabled on the Backup: no finding', () => {
    expect(findings(backup({}), scheduled({}), backup({ 'cnpg.io/volumeSnapshotDeadlines': 'ten' }))).toEqual([]);
    expect(findings(backup({ [ANNOTATION]: 'ten', 'cnpg.io/validation': 'disabled' }))).toEqual([]);
  });

  test('the webhook reads the annotation whatever the method', () => {
    expect(findings(backup({ [ANNOTATION]: 'ten' }, { method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } }))).toHaveLength(1);
  });

  test('an object of another API group is not CloudNativePG’s', () => {
    expect(
      findings({ ...backup({ [ANNOTATION]: 'ten' }), apiVersion: 'example.com/v1' }, { ...scheduled({ [ANNOTATION]: 'ten' }), apiVersion: 'example.com/v1' }),
    ).toEqual([]);
  });
});
