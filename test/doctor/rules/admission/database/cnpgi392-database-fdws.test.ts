import { database, findingsOf } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI392', ...objects);

describe('CNPGI392 database-fdws', () => {
  test('a repeated wrapper', () => {
    const [f, ...rest] = findings(database({ fdws: [{ name: 'postgres_fdw' }, { name: 'postgres_fdw', ensure: 'absent' }] }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Database/app/app',
      path: 'spec.fdws[1].name',
      message: `the Database webhook refuses a second foreign data wrapper named 'postgres_fdw' (spec.fdws[1].name: Duplicate value: "postgres_fdw"): the operator manages each name once`,
      fix: 'remove spec.fdws[1], or merge it into spec.fdws[0]',
    });
  });

  test('a repeated usage: the webhook names usages, the JSON field is usage', () => {
    const [f, ...rest] = findings(database({ fdws: [{ name: 'postgres_fdw', usage: [{ name: 'app' }, { name: 'app', type: 'revoke' }] }] }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      path: 'spec.fdws[0].usage[1].name',
      message: `the Database webhook refuses a second usage of foreign data wrapper 'postgres_fdw' named 'app' (spec.fdws[0].usages[1].name: Duplicate value: "app"): the operator manages each name once`,
      fix: 'remove spec.fdws[0].usage[1], or merge it into spec.fdws[0].usage[0]',
    });
  });

  test('a repeated option, in the webhook order (name, options, usages per wrapper)', () => {
    const found = findings(
      database({
        fdws: [
          {
            name: 'w',
            options: [
              { name: 'o', value: '1' },
              { name: 'o', value: '2' },
            ],
            usage: [{ name: 'u' }, { name: 'u' }],
          },
          { name: 'w' },
        ],
      }),
    );
    expect(found.map((f) => f.path)).toEqual(['spec.fdws[0].options[1].name', 'spec.fdws[0].usage[1].name', 'spec.fdws[1].name']);
    expect(found[0].message).toBe(
      `the Database webhook refuses a second option of foreign data wrapper 'w' named 'o' (spec.fdws[0].options[1].name: Duplicate value: "o"): the operator manages each name once`,
    );
  });

  test.each([
    [{ fdws: [{ name: 'postgres_fdw' }, { name: 'mysql_fdw' }] }],
    // the same option or usage name in two wrappers
    [
      {
        fdws: [
          { name: 'a', options: [{ name: 'host', value: 'x' }], usage: [{ name: 'app' }] },
          { name: 'b', options: [{ name: 'host', value: 'y' }], usage: [{ name: 'app' }] },
        ],
      },
    ],
    // a wrapper and a server may share a name
    [{ fdws: [{ name: 'x' }], servers: [{ name: 'x', fdw: 'x' }] }],
    [{ fdws: [] }],
  ])('accepted: %j', (spec) => {
    expect(findings(database(spec))).toEqual([]);
  });
});
