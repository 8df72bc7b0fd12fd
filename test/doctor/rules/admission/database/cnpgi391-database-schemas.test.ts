import { database, findingsOf } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI391', ...objects);

describe('CNPGI391 database-schemas', () => {
  test('a repeated schema', () => {
    const [f, ...rest] = findings(database({ schemas: [{ name: 'sales' }, { name: 'sales', owner: 'app' }] }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Database/app/app',
      path: 'spec.schemas[1].name',
      message: `the Database webhook refuses a second schema named 'sales' (spec.schemas[1].name: Duplicate value: "sales"): the operator manages each name once`,
      fix: 'remove spec.schemas[1], or merge it into spec.schemas[0]',
    });
  });

  test.each([[{ schemas: [{ name: 'sales' }, { name: 'hr' }] }], [{ schemas: [{ name: 'sales' }], extensions: [{ name: 'sales' }] }], [{ schemas: [] }]])(
    'accepted: %j',
    (spec) => {
      expect(findings(database(spec))).toEqual([]);
    },
  );
});
