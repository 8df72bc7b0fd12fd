import { ApiObject, App, Chart, Cron, Names, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import fc from 'fast-check';
import { childObjectName, deriveName, NameKind } from '../../src/common/names';
import { isDns1035Label, isDnsLabel, isDnsSubdomain } from '../../src/manifests/k8s-names';
import { isValidName } from '../../src/schema/object-meta';

const KINDS: NameKind[] = ['subdomain', 'label', 'dns1035'];
const VALID: Record<NameKind, (n: string) => boolean> = { subdomain: isDnsSubdomain, label: isDnsLabel, dns1035: isDns1035Label };
const RULE = { subdomain: 'dns-1123-subdomain', label: 'dns-1123-label', dns1035: 'dns-1035-label' } as const;

/** Valid for the kind by both validators of the project (src/common and the schema layer). */
function validFor(kind: NameKind, name: string): boolean {
  return VALID[kind](name) && isValidName(RULE[kind], name);
}

// Ids a user might write: cdk8s-friendly ones and the awkward characters seen in issue #13.
const friendlyId = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).filter((s) => !(s in Object.prototype));
const anyId = fc
  .string({ unit: fc.constantFrom(...'abcXYZ019-_. /:é\n'.split('')), minLength: 1, maxLength: 30 })
  .filter((s) => s.trim() !== '' && s !== 'Default');
// Any string at all (full Unicode, control characters), as a JavaScript caller may pass; but not
// the names of Object.prototype ('constructor', 'valueOf'...), which constructs itself refuses as
// ids ("There is already a Construct with name 'constructor'").
const wildId = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((s) => s !== 'Default' && !(s in Object.prototype));
const id = fc.oneof(friendlyId, anyId, wildId, fc.constantFrom('Resource', 'resource', 'default', '2024', 'barman_payments54', 'hello.barman18', '-a-', '...'));

interface Tree {
  chart: Chart;
  parent: Construct;
}

function tree(chartId: string, parentIds: string[], app = Testing.app()): Tree {
  const chart = new Chart(app, chartId);
  let parent: Construct = chart;
  for (const p of parentIds) parent = new Construct(parent, p);
  return { chart, parent };
}

const FAKE = { apiVersion: 'v1', kind: 'ConfigMap' };

describe('childObjectName equals what cdk8s generates whenever that is valid for the kind', () => {
  test('for an ApiObject child, over many paths', () => {
    fc.assert(
      fc.property(id, fc.array(id, { maxLength: 3 }), id, fc.constantFrom(...KINDS), (chartId, parentIds, childId, kind) => {
        const { parent } = tree(chartId, parentIds);
        const name = childObjectName(parent, childId, kind);
        const generated = new ApiObject(parent, childId, FAKE).name;
        if (validFor(kind, generated)) expect(name).toBe(generated);
        expect(validFor(kind, name)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  test("for cdk8s-plus constructs, whose ApiObject is the child's Resource", () => {
    fc.assert(
      fc.property(id, fc.array(id, { maxLength: 2 }), id, (chartId, parentIds, childId) => {
        const { parent } = tree(chartId, parentIds);
        const sa = childObjectName(parent, childId, 'subdomain', { apiObjectId: 'Resource' });
        const generated = new kplus.ServiceAccount(parent, childId).name;
        if (validFor('subdomain', generated)) expect(sa).toBe(generated);
        const deployment = childObjectName(parent, `${childId}x`, 'label', { apiObjectId: 'Resource' });
        const generatedDeployment = new kplus.Deployment(parent, `${childId}x`).name;
        if (validFor('label', generatedDeployment)) expect(deployment).toBe(generatedDeployment);
        expect(validFor('label', deployment)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  test('for a CronJob (cdk8s keeps its name within 52 characters)', () => {
    const { parent } = tree('a-rather-long-chart-id-for-a-cron-job', ['and-a-long-parent-id']);
    const name = childObjectName(parent, 'nightly-maintenance-job', 'label', { apiObjectId: 'Resource', apiKind: 'CronJob' });
    const cron = new kplus.CronJob(parent, 'nightly-maintenance-job', { schedule: Cron.daily(), containers: [{ image: 'busybox' }] });
    expect(name).toBe(cron.name);
    expect(name.length).toBeLessThanOrEqual(52);
  });

  test("with the chart's hashes disabled, and with extra components", () => {
    const app = Testing.app();
    const chart = new Chart(app, 'plain', { disableResourceNameHashes: true });
    expect(childObjectName(chart, 'db', 'dns1035')).toBe(new ApiObject(chart, 'db', FAKE).name);
    expect(childObjectName(chart, 'db2', 'subdomain')).toBe('plain-db2');
    const hashed = new Chart(app, 'hashed');
    expect(childObjectName(hashed, 'sa', 'subdomain', { extra: ['client'] })).toMatch(/^hashed-sa-client-c8[0-9a-f]{6}$/);
  });

  test('a name of the construct itself with extra components, as Names.toDnsLabel(this, { extra }) gives it', () => {
    fc.assert(
      fc.property(
        id,
        fc.array(id, { maxLength: 2 }),
        id,
        fc.array(fc.stringMatching(/^[a-z0-9-]{1,12}$/), { minLength: 1, maxLength: 2 }),
        (chartId, parentIds, ownId, extra) => {
          const { parent } = tree(chartId, parentIds);
          const own = new Construct(parent, ownId);
          const expected = Names.toDnsLabel(own, { extra });
          const name = childObjectName(parent, ownId, 'subdomain', { extra });
          if (validFor('subdomain', expected)) expect(name).toBe(expected);
          expect(validFor('subdomain', name)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  test('inside an App with no chart id clash: the root id does not appear', () => {
    const app = new App();
    const chart = new Chart(app, 'prod');
    expect(childObjectName(chart, 'web', 'label')).toBe(new ApiObject(chart, 'web', FAKE).name);
  });
});

describe('childObjectName derives a valid name from any id', () => {
  test('property: valid for the kind, deterministic, within the limit', () => {
    fc.assert(
      fc.property(
        id,
        fc.array(id, { maxLength: 3 }),
        id,
        fc.constantFrom(...KINDS),
        fc.constantFrom(undefined, 50),
        (chartId, parentIds, childId, kind, maxLength) => {
          const a = childObjectName(tree(chartId, parentIds).parent, childId, kind, { maxLength });
          const b = childObjectName(tree(chartId, parentIds).parent, childId, kind, { maxLength });
          expect(a).toBe(b);
          expect(validFor(kind, a)).toBe(true);
          expect(a.length).toBeLessThanOrEqual(maxLength ?? 63);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('the names issue #13 saw refused', () => {
    const { parent } = tree('system', []);
    const generated = new ApiObject(parent, 'barman_payments54', FAKE).name;
    expect(generated).toContain('_');
    const name = childObjectName(parent, 'barman_payments54', 'subdomain');
    expect(name).toBe(generated.replace('_', '-'));
    const dotted = tree('qjn635', []).parent;
    expect(childObjectName(dotted, 'hello.barman18', 'subdomain')).toMatch(/^qjn635-hello\.barman18-c8[0-9a-f]{6}$/);
    expect(childObjectName(dotted, 'hello.barman18', 'label')).toMatch(/^qjn635-hello-barman18-c8[0-9a-f]{6}$/);
    expect(childObjectName(dotted, 'hello.barman18', 'dns1035')).toMatch(/^qjn635-hello-barman18-c8[0-9a-f]{6}$/);
    // A chart id with a leading digit: cdk8s keeps it, a DNS-1035 label cannot start with it.
    const digits = tree('635', []).parent;
    expect(new ApiObject(digits, 'db', FAKE).name).toMatch(/^635-db-c8[0-9a-f]{6}$/);
    expect(childObjectName(digits, 'db', 'dns1035')).toMatch(/^db-c8[0-9a-f]{6}$/);
  });

  test('ids differing only in a refused character keep distinct names (the hash)', () => {
    const { parent } = tree('c', []);
    expect(childObjectName(parent, 'a_b', 'label')).not.toBe(childObjectName(parent, 'a-b', 'label'));
  });

  test("a construct outside any chart is refused with the library's error", () => {
    const root = new Construct(undefined as any, '');
    expect(() => childObjectName(new Construct(root, 'x'), 'y', 'label')).toThrow(
      "x: scope 'x' is not inside a cdk8s Chart; create the construct inside a Chart",
    );
  });
});

describe('deriveName', () => {
  test.each([
    ['abc', 'label', 'abc'],
    ['a_b.c', 'label', 'a-b-c'],
    ['a_b.c', 'subdomain', 'a-b.c'],
    ['a.-b', 'subdomain', 'a.b'],
    ['-._a__b_.', 'subdomain', 'a-b'],
    ['2024-db-c8abcdef', 'dns1035', 'db-c8abcdef'],
    ['2024-db-c8abcdef', 'label', '2024-db-c8abcdef'],
  ] as const)('%s as %s -> %s', (input, kind, expected) => {
    expect(deriveName(input, kind, 63)).toBe(expected);
  });

  test('a name too long keeps its end, where the hash is', () => {
    const long = `${'x'.repeat(60)}-c8abcdef`;
    expect(deriveName(long, 'dns1035', 50)).toBe(long.slice(long.length - 50));
  });
});
