/*
 * CNPGI315 cluster-name: the Cluster webhook's validateName as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI315';

describe('CNPGI315 cluster-name', () => {
  test('trips: 56 characters (an example from the issue)', () => {
    expect(findingsOf(RULE, cluster({}, { name: 'orders-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' }))).toEqual([
      {
        severity: 'error',
        path: 'metadata.name',
        message:
          'the Cluster webhook refuses the Cluster name \'orders-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\', 56 characters long ("the maximum length of a cluster name is 50 characters"): the operator derives the names of Pods, Services and volumes from it',
        fix: 'shorten it to at most 50 characters',
      },
    ]);
  });
  test('trips: a dot', () => {
    expect(findingsOf(RULE, cluster({}, { name: 'orders.db' }))).toEqual([
      {
        severity: 'error',
        path: 'metadata.name',
        message:
          "the Cluster webhook refuses the Cluster name 'orders.db' (\"cluster name must be a valid DNS label\"): it must be a DNS-1035 label (lower-case letters, digits and '-', a letter first, alphanumeric last), since the operator names Services after it",
        fix: "use lower-case letters, digits and '-', starting with a letter, such as 'orders-db'",
      },
    ]);
  });
  test('trips: a digit first', () => {
    expect(findingsOf(RULE, cluster({}, { name: '1orders' }))).toEqual([
      {
        severity: 'error',
        path: 'metadata.name',
        message:
          "the Cluster webhook refuses the Cluster name '1orders' (\"cluster name must be a valid DNS label\"): it must be a DNS-1035 label (lower-case letters, digits and '-', a letter first, alphanumeric last), since the operator names Services after it",
        fix: "use lower-case letters, digits and '-', starting with a letter, such as 'orders-db'",
      },
    ]);
  });
  test('trips: upper case', () => {
    expect(findingsOf(RULE, cluster({}, { name: 'Orders' }))).toEqual([
      {
        severity: 'error',
        path: 'metadata.name',
        message:
          "the Cluster webhook refuses the Cluster name 'Orders' (\"cluster name must be a valid DNS label\"): it must be a DNS-1035 label (lower-case letters, digits and '-', a letter first, alphanumeric last), since the operator names Services after it",
        fix: "use lower-case letters, digits and '-', starting with a letter, such as 'orders-db'",
      },
    ]);
  });
  test('trips: a hyphen last', () => {
    expect(findingsOf(RULE, cluster({}, { name: 'orders-' }))).toEqual([
      {
        severity: 'error',
        path: 'metadata.name',
        message:
          "the Cluster webhook refuses the Cluster name 'orders-' (\"cluster name must be a valid DNS label\"): it must be a DNS-1035 label (lower-case letters, digits and '-', a letter first, alphanumeric last), since the operator names Services after it",
        fix: "use lower-case letters, digits and '-', starting with a letter, such as 'orders-db'",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['50 characters', {}, { name: 'orders-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' }],
    ['a short name', {}, { name: 'pg-1' }],
    ['one letter', {}, { name: 'p' }],
    ['digits and hyphens inside', {}, { name: 'pg-17-orders-2' }],
    ['50 characters of letters and hyphens', {}, { name: 'a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-a-bc' }],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
