import { findingsOf, reported } from './cluster-warnings';

const RULE = 'CNPGI354';
const QUOTE = (v: string) =>
  `the Cluster webhook warns ("\`shared_buffers\` value '${v}' is missing a unit (e.g., MB, GB). While this is currently allowed, ` +
  `future releases will require an explicit unit. Please update your configuration to specify a valid unit, such as '${v}MB'.")`;
const withBuffers = (value: unknown) => (s: Record<string, any>) => (s.postgresql = { parameters: { shared_buffers: value } });

describe('CNPGI354 cluster-shared-buffers-unit', () => {
  test.each([
    ['a bare count of blocks, which the fix turns into megabytes', '16384', "'128MB'"],
    ['a count that is no whole number of megabytes, in kilobytes', '1000', "'8000kB'"],
  ])('trips: %s', (_what, value, same) => {
    expect(reported(findingsOf(RULE, withBuffers(value)))).toEqual([
      {
        severity: 'warning',
        path: 'spec.postgresql.parameters.shared_buffers',
        message: `is '${value}', without a unit; ${QUOTE(value)}; PostgreSQL reads a bare shared_buffers as blocks of 8kB, so '${value}' is ${same}`,
        fix: `write the unit: ${same} keeps the size PostgreSQL uses now (the webhook's example, '${value}MB', is 128 times more)`,
      },
    ]);
  });

  test('trips: a signed integer, which Go reads as one too', () => {
    expect(reported(findingsOf(RULE, withBuffers('-1')))).toEqual([
      {
        severity: 'warning',
        path: 'spec.postgresql.parameters.shared_buffers',
        message: `is '-1', without a unit; ${QUOTE('-1')}`,
        fix: 'write shared_buffers as a positive size with a unit, e.g. 256MB',
      },
    ]);
  });

  test.each([
    ['a size in megabytes', '128MB'],
    ['a size in gigabytes', '1GB'],
    ['a fraction, which is no integer', '1.5'],
    ['an integer with a space', '1024 '],
    ['an integer beyond int64', '99999999999999999999'],
  ])('passes: %s', (_what, value) => {
    expect(findingsOf(RULE, withBuffers(value))).toEqual([]);
  });

  test('passes: no shared_buffers at all', () => {
    expect(findingsOf(RULE, (s) => (s.postgresql = { parameters: { max_connections: '100' } }))).toEqual([]);
  });
});
