import { findingsOf, reported } from './cluster-warnings';

const RULE = 'CNPGI355';
const withTtl = (ttl: unknown) => (s: Record<string, any>) => (s.monitoring = { metricsQueriesTTL: ttl });

describe('CNPGI355 cluster-metrics-queries-ttl-zero', () => {
  test.each(['0', '0s', '0h0m0s'])('trips: %s', (ttl) => {
    expect(reported(findingsOf(RULE, withTtl(ttl)))).toEqual([
      {
        severity: 'warning',
        path: 'spec.monitoring.metricsQueriesTTL',
        message:
          `is '${ttl}'; the Cluster webhook warns ("spec.monitoring.metricsQueriesTTL is explicitly set to 0; this disables automatic TTL behavior ` +
          'and can cause heavy load on the PostgreSQL server."): every scrape runs every monitoring query again',
        fix: 'remove spec.monitoring.metricsQueriesTTL (30s by default) or set a positive duration such as 30s',
      },
    ]);
  });

  test.each([
    ['the default (unset)', () => undefined],
    ['30s', withTtl('30s')],
    ['a millisecond', withTtl('1ms')],
    ['a negative duration, which is not 0', withTtl('-5s')],
    ['monitoring without a TTL', (s: Record<string, any>) => (s.monitoring = { disableDefaultQueries: true })],
  ])('passes: %s', (_what, edit) => {
    expect(findingsOf(RULE, edit)).toEqual([]);
  });
});
