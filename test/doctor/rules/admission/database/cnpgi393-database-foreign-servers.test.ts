import { database, findingsOf } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI393', ...objects);

describe('CNPGI393 database-foreign-servers', () => {
  test('a server on a wrapper spec.fdws does not declare', () => {
    const [f, ...rest] = findings(database({ fdws: [{ name: 'postgres_fdw' }], servers: [{ name: 'remote', fdw: 'mysql_fdw' }] }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Database/app/app',
      path: 'spec.servers[0].fdw',
      message: `the Database webhook refuses foreign server 'remote' on foreign data wrapper 'mysql_fdw' ("referenced fdw not defined in spec.fdws"): the Database declares no such wrapper`,
      fix: "name one of the wrappers of spec.fdws ('postgres_fdw'), or add { name: 'mysql_fdw' } to spec.fdws",
    });
  });

  test('no wrapper at all', () => {
    const [f] = findings(database({ servers: [{ name: 'remote', fdw: 'postgres_fdw', ensure: 'present' }] }));
    expect(f.fix).toBe("add { name: 'postgres_fdw' } to spec.fdws");
  });

  test('a repeated server, option and usage', () => {
    const found = findings(
      database({
        fdws: [{ name: 'postgres_fdw' }],
        servers: [
          {
            name: 's',
            fdw: 'postgres_fdw',
            options: [
              { name: 'host', value: 'a' },
              { name: 'host', value: 'b' },
            ],
            usage: [{ name: 'app' }, { name: 'app' }],
          },
          { name: 's', fdw: 'postgres_fdw' },
        ],
      }),
    );
    expect(found.map((f) => [f.path, f.message])).toEqual([
      [
        'spec.servers[0].options[1].name',
        `the Database webhook refuses a second option of foreign server 's' named 'host' (spec.servers[0].options[1].name: Duplicate value: "host"): the operator manages each name once`,
      ],
      [
        'spec.servers[0].usage[1].name',
        `the Database webhook refuses a second usage of foreign server 's' named 'app' (spec.servers[0].usages[1].name: Duplicate value: "app"): the operator manages each name once`,
      ],
      [
        'spec.servers[1].name',
        `the Database webhook refuses a second foreign server named 's' (spec.servers[1].name: Duplicate value: "s"): the operator manages each name once`,
      ],
    ]);
    expect(found[2].fix).toBe('remove spec.servers[1], or merge it into spec.servers[0]');
  });

  test.each([
    [
      {
        fdws: [{ name: 'postgres_fdw' }],
        servers: [
          { name: 'a', fdw: 'postgres_fdw' },
          { name: 'b', fdw: 'postgres_fdw' },
        ],
      },
    ],
    // a server to be dropped need not name a declared wrapper
    [{ servers: [{ name: 'old', fdw: 'gone_fdw', ensure: 'absent' }] }],
    // a wrapper to be dropped still counts as declared
    [{ fdws: [{ name: 'postgres_fdw', ensure: 'absent' }], servers: [{ name: 'a', fdw: 'postgres_fdw' }] }],
    // the same option and usage names on two servers
    [
      {
        fdws: [{ name: 'postgres_fdw' }],
        servers: [
          { name: 'a', fdw: 'postgres_fdw', options: [{ name: 'host', value: 'x' }], usage: [{ name: 'app' }] },
          { name: 'b', fdw: 'postgres_fdw', options: [{ name: 'host', value: 'y' }], usage: [{ name: 'app' }] },
        ],
      },
    ],
  ])('accepted: %j', (spec) => {
    expect(findings(database(spec))).toEqual([]);
  });
});
