import { database, findingsOf } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI390', ...objects);

describe('CNPGI390 database-extensions', () => {
  test('a repeated extension', () => {
    const [f, ...rest] = findings(database({ extensions: [{ name: 'postgis' }, { name: 'cube' }, { name: 'postgis', version: '3.5' }] }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Database/app/app',
      path: 'spec.extensions[2].name',
      message: `the Database webhook refuses a second extension named 'postgis' (spec.extensions[2].name: Duplicate value: "postgis"): the operator manages each name once`,
      fix: 'remove spec.extensions[2], or merge it into spec.extensions[0]',
    });
  });

  test('three of one name: two findings, each pointing at the first', () => {
    const found = findings(database({ extensions: [{ name: 'a' }, { name: 'a' }, { name: 'a', ensure: 'absent' }] }));
    expect(found.map((f) => `${f.path} ${f.fix}`)).toEqual([
      'spec.extensions[1].name remove spec.extensions[1], or merge it into spec.extensions[0]',
      'spec.extensions[2].name remove spec.extensions[2], or merge it into spec.extensions[0]',
    ]);
  });

  test.each([
    [{}],
    [{ extensions: [] }],
    [{ extensions: [{ name: 'postgis' }, { name: 'PostGIS' }] }],
    [{ extensions: [{ name: 'postgis' }], schemas: [{ name: 'postgis' }] }],
  ])('accepted: %j', (spec) => {
    expect(findings(database(spec))).toEqual([]);
  });
});
