import { annotate, clusterFindings } from '../cluster-findings';

const run = (env: unknown[]) => clusterFindings('CNPGI335', (c) => (c.spec.env = env));
const FIX =
  'use a name that does not start with PG or CNPG_ and is not POD_NAME, NAMESPACE or CLUSTER_NAME (any case); PostgreSQL settings belong in spec.postgresql.parameters';

describe('CNPGI335 cluster-env', () => {
  test("PGDATA is the operator's", () => {
    expect(
      run([
        { name: 'TZ', value: 'UTC' },
        { name: 'PGDATA', value: '/tmp' },
      ]),
    ).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses the environment variable PGDATA ("the usage of this environment variable is reserved for the operator"): the operator sets PGDATA, PGPORT, PGHOST, POD_NAME, NAMESPACE, CLUSTER_NAME and the like in every instance, so it keeps these names for itself',
        fix: FIX,
        path: 'spec.env[1].name',
      },
    ]);
  });

  test('the reserved names in any case', () => {
    const found = run(['pgpassword', 'cnpg_x', 'Pod_Name', 'namespace', 'CLUSTER_NAME'].map((name) => ({ name, value: 'x' })));
    expect(found.map((f) => f.path)).toEqual(['spec.env[0].name', 'spec.env[1].name', 'spec.env[2].name', 'spec.env[3].name', 'spec.env[4].name']);
    expect(found[1].message).toContain('refuses the environment variable cnpg_x ("the usage of this environment variable is reserved for the operator")');
  });

  test('near misses the webhook accepts', () => {
    for (const name of ['TZ', 'MY_PGDATA', 'CNPG', 'CNPGX', 'POD_NAMES', 'NAMESPACES', 'CLUSTERNAME', 'P_G', '']) {
      expect([name, run([{ name, value: 'x' }])]).toEqual([name, []]);
    }
    expect(run([])).toEqual([]);
  });

  test('nothing is judged when the Cluster switches validation off', () => {
    expect(
      clusterFindings('CNPGI335', (c) => {
        c.spec.env = [{ name: 'PGDATA', value: '/tmp' }];
        annotate(c, 'cnpg.io/validation', 'disabled');
      }),
    ).toEqual([]);
  });
});
