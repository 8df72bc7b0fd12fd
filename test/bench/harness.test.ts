import { execFileSync } from 'child_process';
import * as path from 'path';
import { parseManifests } from '../../bench/doctor';
import { fleetBaseline, fleetWithLibrary, pluginObjects } from '../../bench/fleet';
import { checkManifests } from '../../src/doctor';

// The benchmarks themselves are not timed here (timed tests are flaky on shared machines);
// this proves the harness works and that the comparisons are fair.
describe('benchmark harness', () => {
  test('the fleet baseline built from L1 classes gives byte-identical YAML', () => {
    for (const n of [1, 3]) expect(fleetBaseline(n, pluginObjects())).toBe(fleetWithLibrary(n));
  });

  test('the generated fleet is clean for the doctor', () => {
    const objects = parseManifests(fleetWithLibrary(3));
    expect(objects).toHaveLength(pluginObjects().length + 3 * 3);
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' }).filter((f) => f.severity === 'error')).toEqual([]);
  });

  test('`npm run bench -- --quick` runs every benchmark on tiny sizes', () => {
    const root = path.join(__dirname, '..', '..');
    const out = execFileSync(process.execPath, [path.join(root, 'bench', 'run.mjs'), '--quick'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const heading of ['1. Main job', '2. Library load', '3. Fleet scale', '4. Doctor throughput', '5. Plan throughput', "6. A user's app command"])
      expect(out).toContain(heading);
    expect(out).toContain('smoke run, not a result');
  }, 240_000);
});
