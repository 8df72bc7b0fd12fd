import { checkManifests } from '../../../../../src/doctor/check-manifests';
import { ofRule } from '../../../helpers';

const WARNED = '("Schedule parameter may not have the right number of arguments (usually six arguments are needed)")';

function scheduled(schedule: unknown, annotations: Record<string, string> = {}) {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'ScheduledBackup',
    metadata: { name: 'nightly', namespace: 'app', annotations },
    spec: { cluster: { name: 'pg' }, method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' }, schedule },
  };
}

const all = (...objects: unknown[]) => checkManifests(objects);
const findings = (...objects: unknown[]) => ofRule(all(...objects), 'CNPGI371');

describe('CNPGI371 scheduled-backup-schedule-warning', () => {
  test.each([
    ['@daily', '0 0 0 * * *'],
    ['@hourly', '0 0 * * * *'],
    ['@weekly', '0 0 0 * * 0'],
    ['@annually', '0 0 0 1 1 *'],
  ])('a descriptor %p: a warning, with the 6-field form', (schedule, six) => {
    const [f, ...rest] = findings(scheduled(schedule));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'warning',
      object: 'ScheduledBackup/app/nightly',
      path: 'spec.schedule',
      message: `the ScheduledBackup webhook warns about schedule '${schedule}' ${WARNED}: it counts 1 field, although robfig/cron reads the descriptor as meant`,
      fix: `write the 6-field form '${six}' to silence the warning, or keep '${schedule}': it runs as written`,
    });
  });

  test('@every counts two fields, and has no 6-field form', () => {
    const [f] = findings(scheduled('@every 6h'));
    expect(f).toMatchObject({
      severity: 'warning',
      path: 'spec.schedule',
      message: `the ScheduledBackup webhook warns about schedule '@every 6h' ${WARNED}: it counts 2 fields, although robfig/cron reads the descriptor as meant`,
      fix: "keep '@every 6h': it runs as written (the warning changes nothing), or write 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *'",
    });
  });

  test('the ScheduledBackup webhook ignores cnpg.io/validation: the warning stays', () => {
    expect(findings(scheduled('@daily', { 'cnpg.io/validation': 'disabled' }))).toHaveLength(1);
  });

  test('a 5-field schedule: CNPGI102 reports the error, which subsumes the warning', () => {
    const found = all(scheduled('0 2 * * *')).filter((f) => f.path === 'spec.schedule');
    expect(found.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['CNPGI102 error']);
  });

  test.each(['0 0 2 * * *', '0 30 1 * * MON-FRI', '*/30 * * * * *', '\t0 0 2 * * *  '])('six fields %p: no warning', (schedule) => {
    expect(findings(scheduled(schedule))).toEqual([]);
  });

  test.each(['0 0 2 * * * *', '@daily ', '@every 1d', ''])(
    'a schedule the parser refuses %p is an error elsewhere (CNPGI102), not this warning',
    (schedule) => {
      expect(findings(scheduled(schedule))).toEqual([]);
      expect(ofRule(all(scheduled(schedule)), 'CNPGI102').map((f) => f.severity)).toEqual(['error']);
    },
  );
});
