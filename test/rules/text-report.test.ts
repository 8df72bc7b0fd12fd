import { Finding } from '../../src/rules/finding';
import { findingSections, plural, severityCounts } from '../../src/rules/text-report';

const base: Finding = { ruleId: 'CNPGI901', ruleName: 'r', severity: 'error', object: 'Cluster/db/pg', message: 'is wrong', fix: 'fix it' };

describe('the text report pieces', () => {
  test('findings grouped by object in the order of their first finding, each printed the same way', () => {
    const findings: Finding[] = [
      { ...base, path: 'spec.x' },
      { ...base, ruleId: 'CNPGI902', severity: 'warning', object: 'Service/db/svc' },
      { ...base, ruleId: 'CNPGI903', severity: 'warning' },
    ];
    expect(findingSections(findings)).toEqual([
      '',
      'Cluster/db/pg',
      '  error   CNPGI901  is wrong',
      '          at spec.x',
      '          fix: fix it',
      '  warning CNPGI903  is wrong',
      '          fix: fix it',
      '',
      'Service/db/svc',
      '  warning CNPGI902  is wrong',
      '          fix: fix it',
    ]);
    expect(findingSections(findings, (object, first) => `${object}  (${first.ruleId})`).filter((l) => !l.startsWith(' '))).toEqual([
      '',
      'Cluster/db/pg  (CNPGI901)',
      '',
      'Service/db/svc  (CNPGI902)',
    ]);
  });

  test('a finding about a change shows the value before and after, shortened, (none) for no value', () => {
    const change = (before: unknown, after: unknown) => findingSections([{ ...base, path: 'spec.size', before, after }])[3];
    expect(change('10Gi', '5Gi')).toBe('          at spec.size: 10Gi -> 5Gi');
    expect(change(null, { initdb: {} })).toBe('          at spec.size: (none) -> {"initdb":{}}');
    expect(change(7, 'x'.repeat(200))).toBe(`          at spec.size: 7 -> ${'x'.repeat(200)}`);
    expect(change({ a: 'y'.repeat(200) }, undefined)).toBe(`          at spec.size: {"a":"${'y'.repeat(91)}... -> (none)`);
  });

  test('counts', () => {
    expect([plural(0, 'error'), plural(1, 'error'), plural(2, 'warning')]).toEqual(['0 errors', '1 error', '2 warnings']);
    expect(severityCounts([base, { ...base, severity: 'warning' }, base])).toEqual({ errors: 2, warnings: 1 });
  });
});
