import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/cli/doctor';
import { DOCTOR_RULES } from '../../src/doctor/registry';
import { runCli } from './run-cli';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'doctor');

const run = (argv: string[], stdin = '', cwd = FIXTURES) => runCli(main, argv, { stdin, cwd });

/** The structure SARIF 2.1.0 requires of what we emit (a subset of the schema, checked offline). */
function expectSarifShape(log: any): void {
  expect(log.version).toBe('2.1.0');
  expect(typeof log.$schema).toBe('string');
  expect(Array.isArray(log.runs)).toBe(true);
  expect(log.runs).toHaveLength(1);
  const run = log.runs[0];
  expect(run.tool.driver.name).toBe('cnpg-i-doctor');
  for (const rule of run.tool.driver.rules) {
    expect(Object.keys(rule).sort()).toEqual(['defaultConfiguration', 'fullDescription', 'help', 'id', 'name', 'shortDescription']);
    expect(typeof rule.shortDescription.text).toBe('string');
    expect(typeof rule.fullDescription.text).toBe('string');
    expect(typeof rule.help.text).toBe('string');
    expect(['error', 'warning', 'note', 'none']).toContain(rule.defaultConfiguration.level);
  }
  for (const r of run.results) {
    expect(typeof r.ruleId).toBe('string');
    expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
    expect(['error', 'warning']).toContain(r.level);
    expect(typeof r.message.text).toBe('string');
    for (const loc of r.locations) {
      if (!loc.physicalLocation) continue;
      expect(loc.physicalLocation.artifactLocation.uri).not.toMatch(/^\/|\\/);
      expect(Number.isInteger(loc.physicalLocation.region.startLine) && loc.physicalLocation.region.startLine >= 1).toBe(true);
      expect(Number.isInteger(loc.physicalLocation.region.startColumn) && loc.physicalLocation.region.startColumn >= 1).toBe(true);
    }
  }
}

describe('cnpg-i-doctor --format sarif', () => {
  test('one rule per registry entry, results located at file:line:column relative to cwd', async () => {
    const r = await run(['--format', 'sarif', 'cli/nested', '--operator-namespace', 'cnpg-system']);
    expect(r.code).toBe(1);
    const log = JSON.parse(r.out);
    expectSarifShape(log);
    const rules = log.runs[0].tool.driver.rules;
    expect(rules.map((x: any) => x.id)).toEqual(DOCTOR_RULES.map((x) => x.id));
    const cnpgi012 = rules.find((x: any) => x.id === 'CNPGI012');
    expect(cnpgi012.defaultConfiguration.level).toBe('error');
    expect(rules.find((x: any) => x.id === 'CNPGI050').defaultConfiguration.level).toBe('warning');
    const f = log.runs[0].results.find((x: any) => x.ruleId === 'CNPGI010');
    expect(f.level).toBe('error');
    expect(f.locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'cli/nested/service.yml' }, region: { startLine: 1, startColumn: 1 } });
  });

  test('absolute paths become relative to cwd; stdin has no physical location', async () => {
    const r = await run(['--format=sarif', path.join(FIXTURES, 'cli', 'nested', 'service.yml')]);
    expect(JSON.parse(r.out).runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('cli/nested/service.yml');
    const s = await run(['--format=sarif', '-'], '42\n');
    const result = JSON.parse(s.out).runs[0].results.find((x: any) => x.ruleId === 'CNPGI090');
    expect(result.locations[0].physicalLocation).toBeUndefined();
    expect(result.locations[0].logicalLocations[0].fullyQualifiedName).toBe('document #1');
  });

  test('suppressed findings carry their suppression', async () => {
    const r = await run(['--format', 'sarif', '--disable', 'CNPGI090', '-'], '42\n');
    const results = JSON.parse(r.out).runs[0].results;
    const suppressed = results.find((x: any) => x.ruleId === 'CNPGI090');
    expect(suppressed.suppressions).toEqual([{ kind: 'external', justification: '--disable' }]);
  });

  test('unusable input is a SARIF log with a failed invocation, and exit 2', async () => {
    const r = await run(['--format', 'sarif', 'cli/broken.yaml.txt']);
    expect(r.code).toBe(2);
    const log = JSON.parse(r.out);
    expectSarifShape(log);
    const inv = log.runs[0].invocations[0];
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'cli/broken.yaml.txt' },
      region: { startLine: 6, startColumn: 1 },
    });
    expect(log.runs[0].results).toEqual([]);
  });

  test('a file that does not parse beside one that does: the results of the other, a failed invocation naming the file, exit 2', async () => {
    const r = await run(['--format', 'sarif', '--disable', 'CNPGI001', 'cli/broken.yaml.txt', '-'], '42\n');
    expect(r.code).toBe(2);
    const log = JSON.parse(r.out);
    expectSarifShape(log);
    const inv = log.runs[0].invocations[0];
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.exitCode).toBe(2);
    expect(inv.toolExecutionNotifications).toEqual([
      {
        level: 'error',
        message: { text: 'cli/broken.yaml.txt:6:1: Flow sequence in block collection must be sufficiently indented and end with a ]' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'cli/broken.yaml.txt' }, region: { startLine: 6, startColumn: 1 } } }],
      },
    ]);
    expect(log.runs[0].results.map((x: any) => x.ruleId)).toEqual(['CNPGI090', 'CNPGI001']);
  });

  test('a document that starts mid-line is located at its column', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sarif-'));
    fs.writeFileSync(path.join(dir, 'a.yaml'), 'a: 1\n---\n  - 42\n');
    const r = await run(['--format', 'sarif', 'a.yaml'], '', dir);
    const locs = JSON.parse(r.out)
      .runs[0].results.filter((x: any) => x.ruleId === 'CNPGI090')
      .map((x: any) => x.locations[0].physicalLocation.region);
    expect(locs).toEqual([
      { startLine: 1, startColumn: 1 },
      { startLine: 3, startColumn: 3 },
    ]);
  });
});
