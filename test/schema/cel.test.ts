import { listCrdCelRules, SchemaIssue, StructuralSchema, validateAgainstSchema, validateCustomResource } from '../../src/schema';

const kinds = (issues: SchemaIssue[]) => issues.map((i) => `${i.kind} ${i.path}`);

function initdb(initdbSpec: Record<string, unknown>) {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg' },
    spec: { instances: 1, storage: { size: '1Gi' }, bootstrap: { initdb: initdbSpec } },
  };
}

describe('every CEL rule of the pinned CRDs', () => {
  test('is either evaluated or listed as not evaluated, with the reason', () => {
    const rules = listCrdCelRules();
    const skipped = rules.filter((r) => r.notEvaluated !== undefined);
    // The counts are the pinned CRDs' (every CRD of the CNPG v1.30.0 release manifest,
    // cert-manager v1.21.1, barman-cloud v0.14.0); the skipped ones are the transition rules.
    expect(rules).toHaveLength(65);
    expect(skipped.map((r) => `${r.crd} ${r.path}: ${r.rule}`)).toEqual([
      'postgresql.cnpg.io/v1/Backup spec: oldSelf == self',
      'postgresql.cnpg.io/v1/Cluster spec.serviceAccountName: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.builtinLocale: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.cluster: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.collationVersion: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.encoding: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.icuLocale: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.icuRules: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.locale: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.localeCType: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.localeCollate: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.localeProvider: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.name: self == oldSelf',
      'postgresql.cnpg.io/v1/Database spec.template: self == oldSelf',
      'postgresql.cnpg.io/v1/DatabaseRole spec: self.name == oldSelf.name',
      'postgresql.cnpg.io/v1/DatabaseRole spec.cluster: self == oldSelf',
      'postgresql.cnpg.io/v1/Pooler spec.cluster: self == oldSelf',
      'postgresql.cnpg.io/v1/Pooler spec.serviceAccountName: self == oldSelf',
      'postgresql.cnpg.io/v1/Publication spec.cluster: self == oldSelf',
      'postgresql.cnpg.io/v1/Publication spec.dbname: self == oldSelf',
      'postgresql.cnpg.io/v1/Publication spec.name: self == oldSelf',
      'postgresql.cnpg.io/v1/Publication spec.target.allTables: self == oldSelf',
      'postgresql.cnpg.io/v1/ScheduledBackup spec.cluster: self == oldSelf',
      'postgresql.cnpg.io/v1/Subscription spec.cluster: self == oldSelf',
      'postgresql.cnpg.io/v1/Subscription spec.dbname: self == oldSelf',
      'postgresql.cnpg.io/v1/Subscription spec.name: self == oldSelf',
    ]);
    for (const r of skipped) expect(r.notEvaluated).toMatch(/transition rule/);
  });
});

describe('the Cluster CRD rules', () => {
  test('icuLocale needs localeProvider: icu', () => {
    const issues = validateCustomResource(initdb({ icuLocale: 'en-US', localeProvider: 'libc' }));
    expect(kinds(issues)).toEqual(['cel spec.bootstrap.initdb']);
    expect(issues[0].rule).toBe("!has(self.icuLocale) || self.localeProvider == 'icu'");
    expect(issues[0].message).toBe(
      "spec.bootstrap.initdb fails the CRD rule `!has(self.icuLocale) || self.localeProvider == 'icu'`, so the API server refuses the object; " +
        'icuLocale is only available when localeProvider is set to `icu`',
    );
  });
  test('icuLocale without any localeProvider fails as on the API server (no such key)', () => {
    const issues = validateCustomResource(initdb({ icuLocale: 'en-US' }));
    expect(kinds(issues)).toEqual(['cel spec.bootstrap.initdb']);
    expect(issues[0].message).toContain('no such key: localeProvider');
  });
  test('icuLocale with localeProvider: icu passes', () => {
    expect(validateCustomResource(initdb({ icuLocale: 'en-US', localeProvider: 'icu' }))).toEqual([]);
  });
  test('imageName and imageCatalogRef are exclusive', () => {
    const pg = initdb({});
    const issues = validateCustomResource({
      ...pg,
      spec: { ...pg.spec, imageName: 'postgres:17', imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'c', major: 17 } },
    });
    expect(kinds(issues)).toEqual(['cel spec']);
  });
  test('an integer rule sees CEL ints: synchronous.number must be above zero', () => {
    const pg = initdb({});
    const sync = (number: number) => ({ ...pg, spec: { ...pg.spec, postgresql: { synchronous: { method: 'any', number } } } });
    expect(kinds(validateCustomResource(sync(0)))).toEqual(['cel spec.postgresql.synchronous.number']);
    expect(validateCustomResource(sync(1))).toEqual([]);
  });
  test('the ObjectStore rule reports at its fieldPath', () => {
    const store = {
      apiVersion: 'barmancloud.cnpg.io/v1',
      kind: 'ObjectStore',
      metadata: { name: 's' },
      spec: { configuration: { destinationPath: 's3://b/', serverName: 'x', s3Credentials: { inheritFromIAMRole: true } } },
    };
    const issues = validateCustomResource(store);
    expect(kinds(issues)).toEqual(['cel spec.configuration.serverName']);
    expect(issues[0].message).toMatch(/use the 'serverName' plugin parameter in the Cluster resource$/);
  });
  test('transition rules are reported only when asked for', () => {
    const pg = initdb({});
    const withSa = { ...pg, spec: { ...pg.spec, serviceAccountName: 'sa' } };
    expect(validateCustomResource(withSa)).toEqual([]);
    const verbose = validateCustomResource(withSa, { reportNotEvaluated: true });
    expect(kinds(verbose)).toEqual(['cel-not-evaluated spec.serviceAccountName']);
    expect(verbose[0].message).toContain('transition rule');
  });
});

describe('rules the library cannot evaluate', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { size: { type: 'string' }, url: { type: 'string' }, name: { type: 'string' } },
        'x-kubernetes-validations': [
          { rule: "quantity(self.size).isGreaterThan(quantity('1Gi'))", message: 'at least 1Gi' },
          { rule: 'isURL(self.url)' },
          { rule: "self.name.startsWith('a')", message: 'starts with a' },
        ],
      },
    },
  };
  const obj = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: { size: '2Gi', url: 'x', name } });

  test('a Kubernetes-only function is reported as not evaluated, never passed silently', () => {
    const issues = validateAgainstSchema(obj('abc'), schema, { reportNotEvaluated: true });
    expect(kinds(issues)).toEqual(['cel-not-evaluated spec', 'cel-not-evaluated spec']);
    expect(issues[0].message).toContain('quantity() from the Kubernetes quantity library');
    expect(issues[1].message).toContain('isURL() from the Kubernetes URL library');
  });
  test('the rules that can be evaluated still are', () => {
    expect(kinds(validateAgainstSchema(obj('xyz'), schema))).toEqual(['cel spec']);
    expect(validateAgainstSchema(obj('abc'), schema)).toEqual([]);
  });
});

describe('CEL types follow the schema', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { even: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self % 2 == 0', message: 'must be even' }] } } },
    },
  };
  const obj = (even: number) => ({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: { even } });
  test('an integer field is a CEL int (modulo has no double overload)', () => {
    expect(validateAgainstSchema(obj(4), schema, { reportNotEvaluated: true })).toEqual([]);
    expect(kinds(validateAgainstSchema(obj(3), schema, { reportNotEvaluated: true }))).toEqual(['cel spec.even']);
  });
});

describe('messageExpression', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { replicas: { type: 'integer' } },
        'x-kubernetes-validations': [
          { rule: 'self.replicas <= 5', message: 'too many', messageExpression: "'replicas is ' + string(self.replicas) + ', at most 5 are allowed'" },
        ],
      },
    },
  };
  test('the message is computed from the object', () => {
    const [found] = validateAgainstSchema({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec: { replicas: 7 } }, schema);
    expect(found.message).toMatch(/; replicas is 7, at most 5 are allowed$/);
  });
});

describe('objects are read by CEL as maps converted on access', () => {
  // The conversion is lazy (only the keys a rule reads are converted): every way CEL reads a
  // map must still see every key and the schema's types.
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          limits: { type: 'object', additionalProperties: { type: 'integer' } },
          nested: { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } } },
        },
        'x-kubernetes-validations': [
          { rule: 'size(self.limits) == 2', message: 'size' },
          { rule: "'a' in self.limits && !('z' in self.limits)", message: 'in' },
          { rule: 'self.limits.all(k, self.limits[k] > 0)', message: 'all' },
          { rule: "self.limits.exists(k, k == 'b')", message: 'exists' },
          { rule: 'self.nested.items.all(i, i.n == 1)', message: 'nested ints' },
          { rule: 'has(self.nested) && !has(self.missing)', message: 'has' },
        ],
      },
    },
  };
  const obj = (limits: Record<string, number>, n = 1) => ({
    apiVersion: 'example.com/v1',
    kind: 'Thing',
    metadata: { name: 't' },
    spec: { limits, nested: { items: [{ n }, { n }] } },
  });
  const failed = (o: Record<string, unknown>) => validateAgainstSchema(o, schema).map((i) => i.fix);

  test('size, in, all, exists, nested lists of maps and has() all pass on a valid object', () => {
    expect(failed(obj({ a: 1, b: 2 }))).toEqual([]);
  });
  test('and each trips on the value it reads', () => {
    expect(failed(obj({ a: 1, b: 2, c: 3 }))).toEqual(['size']);
    expect(failed(obj({ c: 1, d: 2 }))).toEqual(['in', 'exists']);
    expect(failed(obj({ a: 1, b: 0 }))).toEqual(['all']);
    expect(failed(obj({ a: 1, b: 2 }, 2))).toEqual(['nested ints']);
  });
});

describe('rules that only test which fields are present are evaluated without the CEL library', () => {
  const { presenceTest, planRule, toCelValue } = require('../../src/schema/cel') as typeof import('../../src/schema/cel');
  const PRESENCE_RULES = [
    '!(has(self.imageCatalogRef) && has(self.imageName))', // Cluster spec
    '!has(self.serverName)', // ObjectStore spec.configuration
    'has(self.a) || !has( self . b )',
    '!(has(self.a) || has(self.b)) && (has(self.c) || !has(self.a))',
  ];
  const FIELDS = ['imageCatalogRef', 'imageName', 'serverName', 'a', 'b', 'c'];

  test('recognized: a boolean combination of has(self.<field>)', () => {
    for (const rule of PRESENCE_RULES) expect({ rule, fast: presenceTest(rule) !== null }).toEqual({ rule, fast: true });
    for (const rule of [
      'self.x',
      "!has(self.icuLocale) || self.localeProvider == 'icu'",
      'has(self.a.b)',
      'has(self.namespace)',
      '(has(self.a)',
      'has(self.a))',
      '',
      'has(self.a) has(self.b)',
      '!!',
      'oldSelf == self',
    ]) {
      expect({ rule, fast: presenceTest(rule) !== null }).toEqual({ rule, fast: false });
    }
  });

  test('gives what the CEL evaluator gives, for every combination of present fields', () => {
    // an object with properties, where a null-valued field is absent (b is null when set)
    const objectSchema: StructuralSchema = { type: 'object', properties: Object.fromEntries(FIELDS.map((f) => [f, { type: 'string', nullable: true }])) };
    for (const rule of PRESENCE_RULES) {
      const test = presenceTest(rule)!;
      const plan = planRule({ rule });
      if (!plan.evaluated) throw new Error(`${rule} is not evaluated`);
      for (let mask = 0; mask < 1 << FIELDS.length; mask++) {
        const self = Object.fromEntries(FIELDS.filter((_, i) => mask & (1 << i)).map((f) => [f, f === 'b' ? null : 'x']));
        // self as the schema layer hands it to CEL (a JSON object read as a map)
        const viaCel = plan.run({ self: toCelValue(self, objectSchema) });
        expect({ rule, self, result: test(self) }).toEqual({ rule, self, result: viaCel });
      }
    }
  });

  test('the Cluster spec rule still refuses imageName with imageCatalogRef', () => {
    const issues = validateCustomResource({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg' },
      spec: {
        instances: 1,
        storage: { size: '1Gi' },
        imageName: 'ghcr.io/cloudnative-pg/postgresql:17',
        imageCatalogRef: { apiGroup: 'postgresql.cnpg.io', kind: 'ImageCatalog', name: 'c', major: 17 },
      },
    });
    expect(kinds(issues)).toEqual(['cel spec']);
    expect(issues[0].rule).toBe('!(has(self.imageCatalogRef) && has(self.imageName))');
  });
});

describe('the evaluator: what the Kubernetes CEL environment has, and what it lacks', () => {
  const { planRule, toCelValue } = require('../../src/schema/cel') as typeof import('../../src/schema/cel');
  const run = (rule: string, self: unknown, schema?: StructuralSchema) => {
    const plan = planRule({ rule });
    if (!plan.evaluated) throw new Error(`${rule} is not evaluated: ${plan.reason}`);
    return plan.run({ self: toCelValue(self, schema) });
  };

  test('charAt and replace of the strings extension (cel-go ext.Strings, version 2) are there', () => {
    expect(run("self.charAt(4) == 'o' && self.charAt(5) == ''", 'hello')).toBe(true);
    expect(run("self.replace('he', 'we')", 'hello hello')).toBe('wello wello');
    expect(run("self.replace('he', 'we', -1)", 'hello hello')).toBe('wello wello');
    expect(run("self.replace('he', 'we', 1)", 'hello hello')).toBe('wello hello');
    expect(run("self.replace('he', 'we', 0)", 'hello hello')).toBe('hello hello');
    // Go's strings.Replace: an empty pattern matches before each code point and at the end
    expect(run("self.replace('', '-')", 'ab')).toBe('-a-b-');
    expect(run("self.replace('', '-', 2)", 'ab')).toBe('-a-b');
    expect(run('self.charAt(1)', 'a😀b')).toBe('😀');
  });

  test('charAt past the end is an error, which refuses the object', () => {
    const schema: StructuralSchema = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { name: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.charAt(9) == 'x'" }] } } } },
    };
    const issues = validateAgainstSchema({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' }, spec: { name: 'abc' } }, schema);
    expect(kinds(issues)).toEqual(['cel spec.name']);
    expect(issues[0].message).toContain('index out of range: 9');
  });

  test('the other string functions and the macros of the standard environment are there', () => {
    for (const rule of [
      "self.startsWith('a') && self.endsWith('c') && self.contains('b')",
      "self.lowerAscii() == 'abc' && self.upperAscii() == 'ABC'",
      "self.indexOf('b') == 1 && self.lastIndexOf('c') == 2 && self.substring(1, 2) == 'b'",
      "self.split('b') == ['a', 'c'] && ['a', 'c'].join('b') == self",
      "self.matches('^a.c$') && size(self) == 3 && self.size() == 3",
      '[1, 2].all(x, x > 0) && [1, 2].exists(x, x == 2) && [1, 2].exists_one(x, x == 1) && [1, 2].map(x, x * 2) == [2, 4] && [1, 2].filter(x, x > 1) == [2]',
    ]) {
      expect({ rule, result: run(rule, 'abc') }).toEqual({ rule, result: true });
    }
  });

  test('the differences from cel-go that src/schema/cel.ts and the doctor guide list still hold (update both when one goes)', () => {
    // cel-go: 'ÉA'.lowerAscii() == 'Éa'; 'a😀b'.indexOf('b') == 2; size() counts code points in both
    expect(run("'ÉA'.lowerAscii()", null)).toBe('éa');
    expect(run("'a😀b'.indexOf('b')", null)).toBe(3n);
    expect(run("'a😀b'.size()", null)).toBe(3n);
  });

  test('a null field is absent in an object with properties and present in a map, as on the API server', () => {
    const object: StructuralSchema = { type: 'object', properties: { a: { type: 'string', nullable: true } } };
    const map: StructuralSchema = { type: 'object', additionalProperties: { type: 'string', nullable: true } };
    expect(run('has(self.a)', { a: null }, object)).toBe(false);
    expect(run('has(self.a)', { a: null }, map)).toBe(true);
    expect(run('has(self.a)', { a: 'x' }, object)).toBe(true);
    expect(() => run('self.a == null', { a: null }, object)).toThrow(/No such key: a/);
    expect(run('self.a == null', { a: null }, map)).toBe(true);
  });

  test('a function the evaluator lacks is named, with its Kubernetes library, and the rule is not evaluated', () => {
    const reason = (rule: string) => {
      const plan = planRule({ rule });
      return plan.evaluated ? 'evaluated' : plan.reason;
    };
    expect(reason('sets.contains(self.a, self.b)')).toBe(
      "calls sets.contains() from the Kubernetes sets library, which this library's CEL evaluator does not provide",
    );
    expect(reason('strings.quote(self.a) != ""')).toBe(
      "calls strings.quote() from the Kubernetes strings extension library, which this library's CEL evaluator does not provide",
    );
    expect(reason("'%s'.format([self.a]) != ''")).toMatch(/^calls format\(\) from the Kubernetes strings extension library/);
    expect(reason('self.items.isSorted() && self.a.reverse() == ""')).toBe(
      "calls isSorted() from the Kubernetes lists library, reverse(), which this library's CEL evaluator does not provide",
    );
    expect(reason("url(self.a).getHost() == 'x'")).toBe(
      "calls getHost(), url() from the Kubernetes URL library, which this library's CEL evaluator does not provide",
    );
    expect(reason("self.a.startsWith('x') && has(self.b) && self.c.exists(e, e == 1)")).toBe('evaluated');
  });

  test("a rule that does not parse is not evaluated, with the parser's first line", () => {
    const plan = planRule({ rule: 'self.a ==' });
    expect(plan.evaluated).toBe(false);
    if (!plan.evaluated) expect(plan.reason).toMatch(/^does not parse: [^\n]+$/);
  });
});
