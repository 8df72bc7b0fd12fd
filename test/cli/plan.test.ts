import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { main } from '../../src/cli/doctor';
import { runPlan } from '../../src/cli/plan';
import { CliEntry, runCli } from './run-cli';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'plan');
const ROOT = path.join(__dirname, '..', '..');

const run = (argv: string[], stdin = '', entry: CliEntry = main) => runCli(entry, argv, { stdin, cwd: FIXTURES });

describe('cnpg-i-doctor plan', () => {
  test('a renamed Cluster: exit 1, the object, old and new values, and the fix', async () => {
    const r = await run(['plan', 'old', 'renamed.yaml']);
    expect(r.err).toBe('');
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      [
        'cnpg-i-doctor plan: 3 objects before, 3 objects after; 1 added, 1 removed, 1 changed',
        '',
        'Cluster/databases/databases-pg-c8505f9f',
        "  error   CNPGI201  is renamed to 'pg' (same namespace and the same spec): with pruning the Cluster is deleted with its PVCs, " +
          'and an empty Cluster is created, with new Services and a new backup server name',
        '          at metadata.name: databases-pg-c8505f9f -> pg',
        "          fix: pin `metadata.name: databases-pg-c8505f9f` on the Cluster now named 'pg'",
        '',
        'Service/cnpg-system/barman-cloud',
        "  warning CNPGI252  points the operator at Secret 'barman-cloud-server-tls-v2' instead of 'barman-cloud-server-tls': new certificates " +
          "and a re-registration of 'barman-cloud.cloudnative-pg.io' for Cluster/databases/pg, failing until the new Secret exists",
        '          at metadata.annotations.cnpg.io/pluginServerSecret: barman-cloud-server-tls -> barman-cloud-server-tls-v2',
        "          fix: keep `cnpg.io/pluginServerSecret: barman-cloud-server-tls` (pin the Certificate's secretName)",
        '',
        '1 error, 1 warning.',
        '',
      ].join('\n'),
    );
  });

  test('no change: exit 0; warnings only: exit 0', async () => {
    expect(await run(['plan', 'old', 'old'])).toMatchObject({ code: 0, out: expect.stringContaining('No destructive or refused change.') });
    const text = fs.readFileSync(path.join(FIXTURES, 'renamed.yaml'), 'utf8');
    const r = await run(['plan', 'renamed.yaml', '-'], text.replace('barman-cloud-server-tls-v2', 'barman-cloud-server-tls-v3'));
    expect(r.code).toBe(0);
    expect(r.out).toContain('0 errors, 1 warning.');
  });

  test('--format json: findings with before, after and fix; summary', async () => {
    const r = await run(['plan', '--format', 'json', 'old', 'renamed.yaml']);
    const json = JSON.parse(r.out);
    expect(json.summary).toEqual({ errors: 1, warnings: 1 });
    expect(json.findings[0]).toEqual({
      ruleId: 'CNPGI201',
      ruleName: 'cluster-removed',
      severity: 'error',
      object: 'Cluster/databases/databases-pg-c8505f9f',
      path: 'metadata.name',
      before: 'databases-pg-c8505f9f',
      after: 'pg',
      message: expect.stringMatching(/^is renamed to 'pg'/),
      fix: "pin `metadata.name: databases-pg-c8505f9f` on the Cluster now named 'pg'",
    });
  });

  test('--format sarif: SARIF 2.1.0 with the rules and one result per finding', async () => {
    const r = await run(['plan', 'old', 'renamed.yaml', '--format=sarif']);
    const sarif = JSON.parse(r.out);
    expect(sarif.version).toBe('2.1.0');
    const run0 = sarif.runs[0];
    expect(run0.tool.driver.rules.map((x: any) => x.id)).toContain('CNPGI201');
    expect(run0.results.map((x: any) => [x.ruleId, x.level])).toEqual([
      ['CNPGI201', 'error'],
      ['CNPGI252', 'warning'],
    ]);
    expect(run0.tool.driver.rules[run0.results[0].ruleIndex].id).toBe('CNPGI201');
    expect(run0.results[0].locations[0].logicalLocations[0].fullyQualifiedName).toBe('Cluster/databases/databases-pg-c8505f9f#metadata.name');
  });

  test("--format sarif has the shape of the doctor's log: the same driver and rule fields, invocation, run figures", async () => {
    const plan = JSON.parse((await run(['plan', 'old', 'renamed.yaml', '--format=sarif'])).out).runs[0];
    const doctor = JSON.parse((await run(['--format=sarif', '-'], '42\n')).out).runs[0];
    expect(plan.tool.driver.name).toBe('cnpg-i-doctor plan');
    expect(Object.keys(plan.tool.driver).sort()).toEqual(Object.keys(doctor.tool.driver).sort());
    expect(Object.keys(plan.tool.driver.rules[0]).sort()).toEqual(Object.keys(doctor.tool.driver.rules[0]).sort());
    expect(plan.tool.driver.version).toBe(doctor.tool.driver.version);
    expect(plan.invocations).toEqual([{ executionSuccessful: true }]);
    expect(plan.properties).toEqual({ previousCount: 3, nextCount: 3, added: 1, removed: 1, changed: 1 });
    expect(plan.results[0].message.text).toBe(
      "Cluster/databases/databases-pg-c8505f9f (metadata.name): is renamed to 'pg' (same namespace and the same spec): with pruning the Cluster is deleted " +
        'with its PVCs, and an empty Cluster is created, with new Services and a new backup server name; ' +
        "fix: pin `metadata.name: databases-pg-c8505f9f` on the Cluster now named 'pg'",
    );
    expect(plan.results[0].properties).toEqual({ before: 'databases-pg-c8505f9f', after: 'pg' });
  });

  test('unusable input: exit 2 with one line', async () => {
    expect(await run(['plan', 'old'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^cnpg-i-doctor plan: expected two manifest sets \(old and new\), got 1\n/),
    });
    expect(await run(['plan', '-', '-'])).toMatchObject({ code: 2, err: "cnpg-i-doctor plan: only one of the two sets can be read from stdin ('-')\n" });
    expect(await run(['plan', 'old', 'missing.yaml'])).toMatchObject({ code: 2 });
    expect(await run(['plan', '--format', 'xml', 'old', 'old'])).toMatchObject({
      code: 2,
      err: "cnpg-i-doctor plan: --format must be text, json or sarif, not 'xml'\n",
    });
    expect(await run(['plan', 'old', '-'], 'a: [')).toMatchObject({ code: 2 });
    expect(await run(['--help'], '', runPlan)).toMatchObject({ code: 0, out: expect.stringContaining('usage: cnpg-i-doctor plan') });
  });

  test('the installed command runs it', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'cnpg-i-doctor.js'), 'plan', 'old', 'renamed.yaml', '--format', 'json'], {
      cwd: FIXTURES,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).summary).toEqual({ errors: 1, warnings: 1 });
  });
});
