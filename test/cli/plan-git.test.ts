/*
 * `cnpg-i-doctor plan --base <ref>` as a pull-request pipeline runs it, against a real git
 * repository made here: the base branch's committed output against the branch's.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runPlan } from '../../src/cli/plan';
import { runCli } from './run-cli';

const ROOT = path.join(__dirname, '..', '..');

let repo: string;
/** The app's folder inside the repository: paths are read from a subfolder, as git reads them. */
let appDir: string;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
}

function cluster(name: string, size: string): string {
  return [
    'apiVersion: postgresql.cnpg.io/v1',
    'kind: Cluster',
    'metadata:',
    `  name: ${name}`,
    '  namespace: apps',
    'spec:',
    '  instances: 3',
    '  storage:',
    `    size: ${size}`,
  ].join('\n');
}

function writeOutput(...docs: string[]): void {
  fs.mkdirSync(path.join(appDir, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(appDir, 'dist', 'databases.k8s.yaml'), docs.join('\n---\n') + '\n');
}

const plan = (argv: string[]) => runCli(runPlan, argv, { cwd: appDir });

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-plan-git-'));
  appDir = path.join(repo, 'platform');
  fs.mkdirSync(appDir);
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Plan Test');
  git('config', 'user.email', 'plan-test@example.com');
  git('config', 'commit.gpgsign', 'false');
  writeOutput(cluster('orders', '10Gi'), cluster('billing', '5Gi'));
  fs.writeFileSync(path.join(appDir, 'dist', 'construct-metadata.json'), '{"version":"1.0.0","resources":{}}\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'the output on main');
  git('checkout', '-q', '-b', 'feature');
});

afterAll(() => {
  fs.rmSync(repo, { recursive: true, force: true });
});

describe('cnpg-i-doctor plan --base (a pull request against its base branch)', () => {
  test('a branch that shrinks storage and renames a Cluster: exit 1, both named, and what was compared on stderr', async () => {
    writeOutput(cluster('orders', '5Gi'), cluster('billing-db', '5Gi'));
    const r = await plan(['--base', 'main', 'dist']);
    expect(r.err).toBe('cnpg-i-doctor plan: compared main:dist (1 file) with dist (1 file)\n');
    expect(r.code).toBe(1);
    expect(r.out).toContain('cnpg-i-doctor plan: 2 objects before, 2 objects after; 1 added, 1 removed, 1 changed');
    expect(r.out).toMatch(/Cluster\/apps\/billing\n {2}error {3}CNPGI201 {2}is renamed to 'billing-db'/);
    expect(r.out).toMatch(/Cluster\/apps\/orders\n {2}error {3}CNPGI210 {2}shrinks from 10Gi to 5Gi/);
  });

  test('SARIF for code scanning: each result at the file and line of its object, the new one or (removed) the old one', async () => {
    writeOutput(cluster('orders', '5Gi'), cluster('billing-db', '5Gi'));
    const r = await plan(['--base', 'main', 'dist', '--format', 'sarif']);
    expect(r.code).toBe(1);
    const results = JSON.parse(r.out).runs[0].results;
    expect(results.map((x: any) => [x.ruleId, x.locations[0].physicalLocation.artifactLocation.uri, x.locations[0].physicalLocation.region.startLine])).toEqual(
      [
        // billing is gone from the new output: shown where the base branch had it (document 2)
        ['CNPGI201', 'dist/databases.k8s.yaml', 11],
        ['CNPGI210', 'dist/databases.k8s.yaml', 1],
      ],
    );
    expect(results[1].locations[0].logicalLocations[0].fullyQualifiedName).toBe('Cluster/apps/orders#spec.storage.size');
  });

  test('near misses: storage grown, a Cluster added, the same output: exit 0', async () => {
    writeOutput(cluster('orders', '20Gi'), cluster('billing', '5Gi'), cluster('reports', '1Gi'));
    const r = await plan(['--base', 'main', 'dist']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: 'cnpg-i-doctor plan: compared main:dist (1 file) with dist (1 file)\n' });
    expect(r.out).toContain('No destructive or refused change.');
    // a committed change is read from the branch too: HEAD against main
    git('add', '-A');
    git('commit', '-q', '-m', 'grow orders');
    expect((await plan(['--base', 'main', 'dist'])).code).toBe(0);
    expect((await plan(['--base', 'HEAD', 'dist'])).out).toContain('0 added, 0 removed, 0 changed');
  });

  test('a base without manifests there is said loudly; an unknown revision or a bad call is exit 2', async () => {
    fs.mkdirSync(path.join(appDir, 'new-output'), { recursive: true });
    fs.writeFileSync(path.join(appDir, 'new-output', 'a.k8s.yaml'), cluster('fresh', '1Gi') + '\n');
    const first = await plan(['--base', 'main', 'new-output']);
    expect(first).toMatchObject({
      code: 0,
      err: 'cnpg-i-doctor plan: main has no manifests under new-output: compared new-output with nothing (a first output), so every object is new\n',
    });
    expect(await plan(['--base', 'no-such-branch', 'dist'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^cnpg-i-doctor plan: git has no commit 'no-such-branch'/),
    });
    // SARIF asked for: a valid log that says why, for the upload step
    const sarif = await plan(['--base', 'no-such-branch', 'dist', '--format', 'sarif']);
    expect(sarif.code).toBe(2);
    const run0 = JSON.parse(sarif.out).runs[0];
    expect(run0.results).toEqual([]);
    expect(run0.invocations[0]).toMatchObject({ executionSuccessful: false, exitCode: 2 });
    expect(run0.invocations[0].toolExecutionNotifications[0].message.text).toMatch(/^git has no commit 'no-such-branch'/);
    expect(await plan(['--base', '--output=x', 'dist'])).toMatchObject({
      code: 2,
      err: "cnpg-i-doctor plan: --base must name a git revision, not '--output=x'\n",
    });
    expect(await plan(['--base', 'main'])).toMatchObject({ code: 2, err: expect.stringMatching(/^cnpg-i-doctor plan: --base main takes the path to compare/) });
    expect(await plan(['--base', 'main', '-'])).toMatchObject({ code: 2 });
  });

  test('outside a repository: exit 2, saying so', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-plan-nogit-'));
    try {
      fs.mkdirSync(path.join(outside, 'dist'));
      fs.writeFileSync(path.join(outside, 'dist', 'a.yaml'), cluster('orders', '1Gi') + '\n');
      const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'cnpg-i-doctor.js'), 'plan', '--base', 'main', 'dist'], {
        cwd: outside,
        encoding: 'utf8',
        env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(outside) },
        timeout: 120_000,
      });
      expect({ status: r.status, err: r.stderr }).toEqual({ status: 2, err: 'cnpg-i-doctor plan: the working directory is not in a git repository\n' });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
