/*
 * CNPGI316 cluster-tablespace-names: the Cluster webhook's validateTablespaceNames as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI316';

describe('CNPGI316 cluster-tablespace-names', () => {
  test('trips: two tablespaces with the same name (an example from the issue)', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          tablespaces: [
            { name: 'data', storage: { size: '1Gi' } },
            { name: 'data', storage: { size: '1Gi' } },
          ],
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[1].name',
        message:
          'the Cluster webhook refuses tablespace \'data\' ("duplicate tablespace name", at spec.tablespaces[1]): an earlier tablespace has the same name, and PostgreSQL does not tell names apart by case',
        fix: 'give each tablespace its own name, or remove the repeated one',
      },
    ]);
  });
  test('trips: names that differ in case only', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          tablespaces: [
            { name: 'data', storage: { size: '1Gi' } },
            { name: 'DATA', storage: { size: '1Gi' } },
          ],
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[1].name',
        message:
          'the Cluster webhook refuses tablespace \'DATA\' ("duplicate tablespace name", at spec.tablespaces[1]): an earlier tablespace has the same name, and PostgreSQL does not tell names apart by case',
        fix: 'give each tablespace its own name, or remove the repeated one',
      },
    ]);
  });
  test('trips: a reserved name', () => {
    expect(findingsOf(RULE, cluster({ tablespaces: [{ name: 'pg_data', storage: { size: '1Gi' } }] }))).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[0].name',
        message: "the Cluster webhook refuses tablespace 'pg_data' (\"tablespace names beginning 'pg_' are reserved for Postgres\", at spec.tablespaces[0])",
        fix: "use a PostgreSQL identifier of at most 63 characters: letters, digits, '_' and '$', a letter or '_' first, not starting with 'pg_'",
      },
    ]);
  });
  test('trips: a name with a hyphen', () => {
    expect(findingsOf(RULE, cluster({ tablespaces: [{ name: 'hot-data', storage: { size: '1Gi' } }] }))).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[0].name',
        message:
          "the Cluster webhook refuses tablespace 'hot-data' (\"tablespace names must be valid Postgres identifiers: alphanumeric characters, '_', '$', and must start with a letter or an underscore\", at spec.tablespaces[0])",
        fix: "use a PostgreSQL identifier of at most 63 characters: letters, digits, '_' and '$', a letter or '_' first, not starting with 'pg_'",
      },
    ]);
  });
  test('trips: a name of 64 characters', () => {
    expect(
      findingsOf(RULE, cluster({ tablespaces: [{ name: 'tttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt', storage: { size: '1Gi' } }] })),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[0].name',
        message:
          'the Cluster webhook refuses tablespace \'tttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt\' ("the maximum length of an identifier is 63 characters", at spec.tablespaces[0])',
        fix: "use a PostgreSQL identifier of at most 63 characters: letters, digits, '_' and '$', a letter or '_' first, not starting with 'pg_'",
      },
    ]);
  });
  test('trips: names that give the same volume', () => {
    expect(
      findingsOf(
        RULE,
        cluster({
          tablespaces: [
            { name: 'hot_data', storage: { size: '1Gi' } },
            { name: 'hot$data', storage: { size: '1Gi' } },
          ],
        }),
      ),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.tablespaces[1].name',
        message:
          "the Cluster webhook refuses tablespace 'hot$data' (\"tablespace name results in duplicate volume name \"tbs-hot-data\" after sanitization (special characters are converted to hyphens)\", at spec.tablespaces[1]): the operator names each tablespace's volume after it, with '_' and '$' as '-' and in lower case",
        fix: "rename it so that it differs from the other tablespaces by more than '_', '$' and case",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'distinct names',
      {
        tablespaces: [
          { name: 'data', storage: { size: '1Gi' } },
          { name: 'indexes', storage: { size: '1Gi' } },
        ],
      },
      {},
    ],
    ['an underscore first', { tablespaces: [{ name: '_data', storage: { size: '1Gi' } }] }, {}],
    ['a dollar sign', { tablespaces: [{ name: 'data$1', storage: { size: '1Gi' } }] }, {}],
    ['upper case', { tablespaces: [{ name: 'Data', storage: { size: '1Gi' } }] }, {}],
    ['a name of 63 characters', { tablespaces: [{ name: 'ttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttttt', storage: { size: '1Gi' } }] }, {}],
    [
      'names that differ beyond _ and $',
      {
        tablespaces: [
          { name: 'hot_data', storage: { size: '1Gi' } },
          { name: 'hotdata', storage: { size: '1Gi' } },
        ],
      },
      {},
    ],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
