import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { hasCrdSchema, validateObject } from '../../src/schema';

// What `npm run synth` wrote for the example app (committed in dist/), object by object.
const distDir = join(__dirname, '..', '..', 'dist');

describe('the example app output', () => {
  let objects: Record<string, unknown>[] = [];
  beforeAll(() => {
    objects = readdirSync(distDir)
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .flatMap((f) => parseAllDocuments(readFileSync(join(distDir, f), 'utf8')).map((d) => d.toJS() as Record<string, unknown>))
      .filter((o) => o !== null);
  });

  test('has custom resources of the pinned CRDs and core objects', () => {
    expect(objects.filter((o) => hasCrdSchema(o.apiVersion, o.kind)).length).toBeGreaterThan(5);
    expect(objects.some((o) => o.kind === 'Service')).toBe(true);
  });

  test('every object passes the schema layer', () => {
    const found = objects.flatMap((o) =>
      validateObject(o, { reportNotEvaluated: false }).map((i) => `${String(o.kind)} ${String((o.metadata as { name?: string })?.name)}: ${i.message}`),
    );
    expect(found).toEqual([]);
  });
});
