import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateValidators } from '../../scripts/schema-validators';
import { validateCustomResource } from '../../src/schema';
import { crdSchema, crdSchemaKeys, pinnedValidator } from '../../src/schema/crd-schemas';
import { compiledValidator, createAjv, toAjvSchema } from '../../src/schema/openapi';

const root = join(__dirname, '..', '..');
const validatorsDir = join(root, 'imports', 'schemas', 'validators');

describe('the generated validators (imports/schemas/validators)', () => {
  test('are what `npm run import` writes today: regenerated here, byte for byte', () => {
    const fresh = generateValidators(join(root, 'imports', 'schemas'));
    const committed = readdirSync(validatorsDir).sort();
    expect(committed).toEqual([...fresh.keys()].sort());
    for (const [name, text] of fresh) {
      // (a stale file fails here: run `npm run import`, or `node --import tsx scripts/schema-validators.ts`)
      expect({ name, same: readFileSync(join(validatorsDir, name), 'utf8') === text }).toEqual({ name, same: true });
    }
  });

  test('cover every pinned kind, and are used for its create schema instead of compiling', () => {
    for (const key of crdSchemaKeys()) {
      const [group, version, kind] = key.split('/');
      const entry = crdSchema(`${group}/${version}`, kind)!;
      const generated = pinnedValidator(entry.createSchema);
      expect(typeof generated).toBe('function');
      expect(compiledValidator(entry.createSchema)).toBe(generated);
    }
    // any other schema object (a copy, a schema of the caller's) is compiled by ajv
    const cluster = crdSchema('postgresql.cnpg.io/v1', 'Cluster')!;
    expect(pinnedValidator({ ...cluster.createSchema })).toBeUndefined();
  });

  test('give the errors ajv gives when it compiles the same schema at run time', () => {
    const cluster = crdSchema('postgresql.cnpg.io/v1', 'Cluster')!;
    const ajv = createAjv();
    const runtime = ajv.compile(toAjvSchema(cluster.createSchema, false));
    const generated = pinnedValidator(cluster.createSchema)!;
    const bad = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg' },
      spec: {
        instances: 'three',
        storage: { size: 1 },
        primaryUpdateStrategy: 'sometimes',
        resources: { claims: [{ name: 'a' }, { name: 'a' }, { name: 'b' }, { name: 'a' }] },
      },
    };
    expect(generated(bad)).toBe(false);
    expect(runtime(bad)).toBe(false);
    // The generated code keeps large subschemas as functions of their own (`$ref`), whose errors'
    // schemaPath starts at that subschema; everything the issues are made of is the same.
    const withoutSchemaPath = (errors: typeof runtime.errors) => (errors ?? []).map(({ schemaPath: _schemaPath, ...rest }) => rest);
    expect(withoutSchemaPath(generated.errors)).toEqual(withoutSchemaPath(runtime.errors));
    expect(generated.errors!.length).toBeGreaterThan(3);
    expect(generated.errors!.filter((e) => e.keyword === 'k8sListMapKeys').map((e) => e.params)).toEqual([
      { keys: ['name'], first: 0, duplicate: 1 },
      { keys: ['name'], first: 0, duplicate: 3 },
    ]);
  });

  test('report a list-map duplicate through the pinned Cluster schema', () => {
    const issues = validateCustomResource({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg' },
      spec: { instances: 1, storage: { size: '1Gi' }, resources: { claims: [{ name: 'gpu' }, { name: 'gpu' }] } },
    });
    expect(issues.map((i) => `${i.kind} ${i.path}`)).toEqual(['duplicate spec.resources.claims[1]']);
  });
});

describe('the generated validators split large subschemas into functions', () => {
  test('each pinned validator of a large CRD is many functions, so a first call compiles only what the object uses', () => {
    const { readFileSync } = require('node:fs') as typeof import('node:fs');
    const { join } = require('node:path') as typeof import('node:path');
    const dir = join(__dirname, '..', '..', 'imports', 'schemas', 'validators');
    const count = (file: string) => (readFileSync(join(dir, file), 'utf8').match(/^function validate\d+/gm) ?? []).length;
    expect(count('postgresql.cnpg.io_clusters_v1.js')).toBeGreaterThan(40);
    expect(count('cert-manager.io_clusterissuers_v1.js')).toBeGreaterThan(40);
  });
});
