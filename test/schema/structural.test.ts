import * as fs from 'fs';
import * as path from 'path';
import { inspect } from 'util';
import * as YAML from 'yaml';
import { SchemaIssue, StructuralSchema, validateAgainstSchema } from '../../src/schema';
import { crdSchema } from '../../src/schema/crd-schemas';
import { applyDefaultsInPlace, cloneJson, cloneWithDefaults } from '../../src/schema/structural';

const kinds = (issues: SchemaIssue[]) => issues.map((i) => `${i.kind} ${i.path}`);
const thing = (spec: unknown) => ({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec });

// Small schemas of our own for the x-kubernetes-* keywords the pinned CRDs use rarely or not at all.
const schema: StructuralSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } },
        },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
        },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        note: { type: 'string', nullable: true },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer', format: 'int64' },
        empty: { type: 'object' },
      },
    },
  },
};

describe('structural schema keywords', () => {
  test('an embedded resource keeps apiVersion, kind and metadata, and prunes the rest', () => {
    const issues = validateAgainstSchema(
      thing({ template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { replicas: 1, extra: 1 } } }),
      schema,
    );
    expect(kinds(issues)).toEqual(['pruned-unknown-field spec.template.spec.extra']);
  });
  test('without x-kubernetes-embedded-resource, apiVersion below the root is pruned', () => {
    const plain: StructuralSchema = { type: 'object', properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } };
    expect(kinds(validateAgainstSchema(thing({ apiVersion: 'v1' }), plain))).toEqual(['pruned-unknown-field spec.apiVersion']);
  });
  test('preserve-unknown-fields keeps unknown keys but still prunes inside declared ones', () => {
    const issues = validateAgainstSchema(thing({ free: { anything: { deep: 1 }, known: { a: 'x', b: 1 } } }), schema);
    expect(kinds(issues)).toEqual(['pruned-unknown-field spec.free.known.b']);
  });
  test('an object with no declared fields prunes every field', () => {
    const [found] = validateAgainstSchema(thing({ empty: { x: 1 } }), schema);
    expect(found.message).toBe('spec.empty.x 1 is not a field the CRD declares, so the API server drops it; remove it: nothing may be set here');
  });
  test('a set refuses duplicates', () => {
    expect(kinds(validateAgainstSchema(thing({ tags: ['a', 'b', 'a'] }), schema))).toEqual(['duplicate spec.tags[2]']);
    expect(validateAgainstSchema(thing({ tags: ['a', 'b'] }), schema)).toEqual([]);
  });
  test('a map list is keyed by all its keys, after defaults', () => {
    expect(validateAgainstSchema(thing({ ports: [{ port: 80 }, { port: 80, protocol: 'UDP' }] }), schema)).toEqual([]);
    expect(kinds(validateAgainstSchema(thing({ ports: [{ port: 80 }, { port: 80, protocol: 'TCP' }] }), schema))).toEqual(['duplicate spec.ports[1]']);
  });
  test('nullable allows null; elsewhere a null is dropped', () => {
    expect(validateAgainstSchema(thing({ note: null }), schema)).toEqual([]);
    expect(kinds(validateAgainstSchema(thing({ tags: null }), schema))).toEqual(['null-dropped spec.tags']);
  });
  test('a null with a default gets the default, as on the API server', () => {
    expect(validateAgainstSchema(thing({ mode: null }), schema)).toEqual([]);
  });
  test('date-time is checked; int64 is ignored, as the API server ignores it', () => {
    expect(validateAgainstSchema(thing({ when: '2026-01-02T03:04:05Z', count: 2 ** 40 }), schema)).toEqual([]);
    expect(kinds(validateAgainstSchema(thing({ when: 'yesterday' }), schema))).toEqual(['format spec.when']);
  });
  test('a format the API server checks but this module does not is an error, never a silent pass', () => {
    const withEmail: StructuralSchema = { type: 'object', properties: { spec: { type: 'object', properties: { m: { type: 'string', format: 'email' } } } } };
    expect(() => validateAgainstSchema(thing({ m: 'x' }), withEmail)).toThrow(/format 'email'/);
  });
});

describe('coercion copies only what it changes', () => {
  const { coerceResource } = require('../../src/schema/structural') as typeof import('../../src/schema/structural');
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          clean: {
            type: 'object',
            properties: { a: { type: 'string' }, list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } },
          },
          pruned: { type: 'object', properties: { keep: { type: 'string' } } },
          defaulted: { type: 'object', properties: { mode: { type: 'string', default: 'fast' } } },
        },
      },
    },
  };

  test('a subtree that needs no change is shared; a changed one is a new object; the input is left as it was', () => {
    const input = {
      apiVersion: 'x/v1',
      kind: 'X',
      metadata: { name: 'x' },
      spec: { clean: { a: 'b', list: [{ n: 1 }, { n: 2 }] }, pruned: { keep: 'k', typo: 1 }, defaulted: {} },
    };
    const before = JSON.stringify(input);
    const issues: SchemaIssue[] = [];
    const out = coerceResource(input, schema, issues) as any;
    expect(kinds(issues)).toEqual(['pruned-unknown-field spec.pruned.typo']);
    expect(out.spec.clean).toBe(input.spec.clean);
    expect(out.spec.pruned).not.toBe(input.spec.pruned);
    expect(out.spec.pruned).toEqual({ keep: 'k' });
    expect(out.spec.defaulted).toEqual({ mode: 'fast' });
    expect(JSON.stringify(input)).toBe(before);
  });

  test('metadata without a cycle is shared; with one (a YAML alias of an ancestor) it is copied with the cycle cut', () => {
    const input = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x', labels: { a: 'b' } }, spec: {} };
    expect((coerceResource(input, schema, []) as any).metadata).toBe(input.metadata);
    const meta: any = { name: 'x', labels: {} };
    meta.labels.self = meta;
    const out = coerceResource({ ...input, metadata: meta }, schema, []) as any;
    expect(out.metadata).toEqual({ name: 'x', labels: { self: null } });
    expect(validateAgainstSchema({ ...input, metadata: meta }, schema).map((i) => i.message)).toEqual([
      'metadata.labels.self null must be a string; quote the value',
    ]);
  });

  test('a default subtree is made once and shared, frozen, by the copies that need it', () => {
    const defaulted: StructuralSchema = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { slots: { type: 'object', default: {}, properties: { on: { type: 'boolean', default: true } } } } } },
    };
    const make = () => coerceResource({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' }, spec: {} }, defaulted, []) as any;
    const [one, two] = [make(), make()];
    expect(one.spec.slots).toEqual({ on: true });
    expect(two.spec.slots).toBe(one.spec.slots);
    expect(Object.isFrozen(one.spec.slots)).toBe(true);
  });

  test('a list with one changed item is a new list, its clean items shared', () => {
    const input = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' }, spec: { clean: { list: [{ n: 1 }, { n: 2, extra: true }, { n: 3 }] } } };
    const out = coerceResource(input, schema, []) as any;
    expect(out.spec.clean.list).not.toBe(input.spec.clean.list);
    expect(out.spec.clean.list).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(out.spec.clean.list[0]).toBe(input.spec.clean.list[0]);
    expect(input.spec.clean.list[1]).toEqual({ n: 2, extra: true });
  });
});

describe('defaulting skips only the parts of a schema with no default below', () => {
  const obj = (properties: Record<string, StructuralSchema>): StructuralSchema => ({ type: 'object', properties });
  // Defaults three levels down, under nodes that declare none themselves: in a property, in
  // list items and in the values of a map; and a branch without any default.
  const schema = obj({
    spec: obj({
      deep: obj({ deeper: obj({ mode: { type: 'string', default: 'fast' } }) }),
      list: { type: 'array', items: obj({ inner: obj({ on: { type: 'boolean', default: true } }) }) },
      map: { type: 'object', additionalProperties: obj({ inner: obj({ size: { type: 'integer', default: 3 } }) }) },
      plain: obj({ a: obj({ b: { type: 'string' } }) }),
    }),
  });

  test('a default deep under nodes without their own is applied; a branch without defaults is left as it is', () => {
    const plain = { a: { b: 'x' } };
    const x = { spec: { deep: { deeper: {} }, list: [{ inner: {} }, { inner: { on: false } }], map: { one: { inner: {} } }, plain } };
    applyDefaultsInPlace(x as never, schema);
    expect(x).toEqual({
      spec: {
        deep: { deeper: { mode: 'fast' } },
        list: [{ inner: { on: true } }, { inner: { on: false } }],
        map: { one: { inner: { size: 3 } } },
        plain: { a: { b: 'x' } },
      },
    });
    expect(x.spec.plain).toBe(plain);
    // the same schema nodes a second time (what is known about them is kept)
    const y = { spec: { deep: { deeper: { mode: 'slow' } }, list: [{ inner: {} }] } };
    applyDefaultsInPlace(y as never, schema);
    expect(y).toEqual({ spec: { deep: { deeper: { mode: 'slow' } }, list: [{ inner: { on: true } }] } });
  });
});

describe('copying and defaulting in one walk gives what copying, then defaulting, gives', () => {
  const obj = (properties: Record<string, StructuralSchema>, extra: Partial<StructuralSchema> = {}): StructuralSchema => ({
    type: 'object',
    properties,
    ...extra,
  });
  const schema = obj({
    spec: obj({
      mode: { type: 'string', default: 'fast' },
      nested: obj({ level: { type: 'integer', default: 1 }, keep: { type: 'string', nullable: true, default: 'k' } }, { default: {} }),
      list: { type: 'array', items: obj({ on: { type: 'boolean', default: true } }, { default: { on: false } }) },
      map: { type: 'object', additionalProperties: obj({ size: { type: 'integer', default: 3 } }, { default: { size: 9 } }) },
      plain: obj({ b: { type: 'string' } }),
    }),
  });
  /** The old way: a whole copy, then the defaults written into it. */
  const twoWalks = (x: unknown, s: StructuralSchema) => {
    const copy = cloneJson(x);
    applyDefaultsInPlace(copy, s);
    return copy;
  };
  const same = (x: unknown, s: StructuralSchema) => {
    const before = inspect(x, { depth: null });
    const one = cloneWithDefaults(x, s);
    // key order included: the defaulted copy is read in order by the checks
    expect(JSON.stringify(one)).toBe(JSON.stringify(twoWalks(x, s)));
    expect(inspect(x, { depth: null })).toBe(before);
    return one;
  };

  test('absent, null, nullable null, undefined, list items, map values and a branch without defaults', () => {
    expect(same({ spec: {} }, schema)).toEqual({ spec: { mode: 'fast', nested: { level: 1, keep: 'k' } } });
    same({ spec: { plain: { b: 'x' }, mode: null, nested: { keep: null, level: null } } }, schema);
    same({ spec: { list: [null, {}, { on: false }, undefined], map: { a: null, b: {}, c: { size: 1 } }, extra: { z: 1 }, mode: undefined } }, schema);
    same({ kind: 'X', spec: { nested: null, map: null, list: null } }, schema);
    same('text', schema);
    same([{ spec: {} }], schema.properties!.spec.properties!.list);
  });

  test('a value that holds itself: the inner reference becomes null, then is defaulted, as before', () => {
    const x: any = { spec: { nested: {}, map: {} } };
    x.spec.nested.self = x.spec;
    x.spec.map.loop = x.spec;
    x.spec.list = [x.spec];
    const one: any = same(x, schema);
    expect(one.spec.map.loop).toEqual({ size: 9 });
    expect(one.spec.list).toEqual([{ on: false }]);
  });

  test('a value nested deeper than the copies go unwatched is copied whole, the same shared value twice too', () => {
    let deep: any = { leaf: 'x' };
    for (let i = 0; i < 200; i++) deep = { n: deep };
    const shared = { a: 1 };
    const x = { spec: { plain: deep, map: { one: shared, two: shared } } };
    const one: any = same(x, schema);
    expect(one.spec.plain).toEqual(deep);
    expect(one.spec.plain).not.toBe(deep);
    expect(one.spec.map).toEqual({ one: { a: 1, size: 3 }, two: { a: 1, size: 3 } });
    expect(cloneJson(deep)).toEqual(deep);
  });

  test('every object of a pinned CRD in the test fixtures and dist/, against its CRD schema', () => {
    let checked = 0;
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.ya?ml$/.test(entry.name)) {
          for (const doc of YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
            let o: any;
            try {
              o = doc.toJS();
            } catch {
              continue; // the robustness fixtures include alias bombs
            }
            const pinned = o && typeof o === 'object' ? crdSchema(o.apiVersion, o.kind) : undefined;
            if (!pinned) continue;
            same(o, pinned.schema);
            checked++;
          }
        }
      }
    };
    walk(path.join(__dirname, '..', 'fixtures'));
    // and the example app's committed output
    walk(path.join(__dirname, '..', '..', 'dist'));
    expect(checked).toBeGreaterThan(20);
  });
});
