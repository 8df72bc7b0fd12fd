import * as fs from 'fs';
import { BINDINGS, MANAGED_FIELDS, TARGET, renderPassthrough } from '../../scripts/cluster-spec-passthrough';
import { CLUSTER_SPEC_PASSTHROUGH_SPEC } from '../../src/postgres/cluster-spec-passthrough';

const CLUSTER_SPEC_PASSTHROUGH_KEYS = Object.keys(CLUSTER_SPEC_PASSTHROUGH_SPEC);

describe('ClusterSpecPassthrough', () => {
  test('is generated from the imported bindings and up to date (run npx tsx scripts/cluster-spec-passthrough.ts)', () => {
    expect(fs.readFileSync(TARGET, 'utf8')).toBe(renderPassthrough(fs.readFileSync(BINDINGS, 'utf8')));
  });

  test('holds every ClusterSpec field but those PostgresCluster writes', () => {
    const bindings = fs.readFileSync(BINDINGS, 'utf8');
    const start = bindings.indexOf('export interface ClusterSpec {');
    const all = [...bindings.slice(start, bindings.indexOf('\n}\n', start)).matchAll(/readonly (\w+)\??:/g)].map((m) => m[1]);
    expect([...CLUSTER_SPEC_PASSTHROUGH_KEYS, ...MANAGED_FIELDS].sort()).toEqual([...all].sort());
    expect(CLUSTER_SPEC_PASSTHROUGH_KEYS).not.toContain('plugins');
  });

  test('a changed bindings file gives another interface (the test above would fail)', () => {
    const bindings = fs.readFileSync(BINDINGS, 'utf8').replace('readonly enablePdb?: boolean;', 'readonly enablePdbs?: boolean;');
    expect(renderPassthrough(bindings)).toContain('readonly enablePdbs?: boolean;');
  });
});
