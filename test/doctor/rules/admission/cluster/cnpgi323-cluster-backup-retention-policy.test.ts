import { clusterDoc, findingsOf } from './webhook-findings';

const of = (retentionPolicy: unknown) => findingsOf('CNPGI323', clusterDoc({ backup: { retentionPolicy } }));

describe('CNPGI323 cluster-backup-retention-policy', () => {
  test('no unit (the upstream test)', () => {
    expect(of('09')).toEqual([
      {
        path: 'spec.backup.retentionPolicy',
        message:
          'the Cluster webhook refuses retentionPolicy \'09\' ("not a valid retention policy"): Barman keeps backups for a number of days, weeks or months',
        fix: "write a recovery window such as '30d', '4w' or '6m'",
      },
    ]);
  });

  test.each(['30 days', '0d', '30y', '30D'])('refused: %s', (policy) => {
    expect(of(policy).map((f) => f.path)).toEqual(['spec.backup.retentionPolicy']);
  });

  test.each([
    ['a number of days (the upstream test)', '90d'],
    ['weeks', '4w'],
    ['months', '12m'],
    ['empty', ''],
    ['text before the window: the pattern is not anchored at the start', 'x30d'],
  ])('accepted: %s', (_what, policy) => {
    expect(of(policy)).toEqual([]);
  });

  test('accepted: no retention policy (the upstream test)', () => {
    expect(findingsOf('CNPGI323', clusterDoc({ backup: {} }))).toEqual([]);
  });
});
