import { clusterFindings } from '../cluster-findings';

const run = (roles: unknown[]) => clusterFindings('CNPGI337', (c) => (c.spec.managed = { roles }));

describe('CNPGI337 cluster-managed-roles', () => {
  test("streaming_replica is the operator's", () => {
    expect(run([{ name: 'streaming_replica', login: true }])).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses the managed role \'streaming_replica\' ("This role is reserved for operator use"): the operator owns postgres and streaming_replica, and the cnpg_ and pg_ prefixes',
        fix: 'manage a role of your own name; the operator keeps the superuser (spec.superuserSecret) and the replication user itself',
        path: 'spec.managed.roles[0].name',
      },
    ]);
  });

  test('a repeated role, a bad connection limit, a password set and disabled', () => {
    expect(
      run([
        { name: 'app', connectionLimit: -1 },
        { name: 'app', connectionLimit: -3 },
        { name: 'report', disablePassword: true, passwordSecret: { name: 'report-pw' } },
      ]),
    ).toEqual([
      {
        severity: 'error',
        message: 'the Cluster webhook refuses the role \'app\' declared twice ("Role name is duplicate of another")',
        fix: 'declare each role once',
        path: 'spec.managed.roles[1].name',
      },
      {
        severity: 'error',
        message: 'the Cluster webhook refuses the connection limit -3 of role \'app\' ("Connection limit should be positive, unless defaulting to -1")',
        fix: 'use -1 (no limit) or a number of connections of 0 or more',
        path: 'spec.managed.roles[1].connectionLimit',
      },
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses the role \'report\' ("This role both sets and disables a password"): disablePassword and passwordSecret contradict each other',
        fix: 'remove passwordSecret to leave the role without a password, or remove disablePassword',
        path: 'spec.managed.roles[2].passwordSecret',
      },
    ]);
    expect(run([{ name: 'postgres' }, { name: 'cnpg_monitor' }, { name: 'pg_read_all_data' }]).map((f) => f.path)).toEqual([
      'spec.managed.roles[0].name',
      'spec.managed.roles[1].name',
      'spec.managed.roles[2].name',
    ]);
  });

  test('near misses the webhook accepts', () => {
    expect(
      run([
        { name: 'app', connectionLimit: -1 },
        { name: 'reader', connectionLimit: 0 },
        { name: 'Postgres' },
        { name: 'streaming_replica2' },
        { name: 'my_pg_role' },
        { name: 'cnpg' },
        { name: 'nopw', disablePassword: true },
        { name: 'withpw', passwordSecret: { name: 'pw' }, disablePassword: false },
      ]),
    ).toEqual([]);
    expect(run([])).toEqual([]);
  });
});
