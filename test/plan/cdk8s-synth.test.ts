/*
 * The plan under the real `cdk8s synth` (cdk8s-cli), in a git repository made here: cdk8s-cli
 * empties the output folder before it runs the app, so the plan compares with the output as
 * committed at git HEAD. The app imports the library's sources and runs with tsx.
 */
import { SpawnSyncReturns, execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** The app: Clusters `orders` (its storage) and one more (its id), with the plan check. */
function app(ordersSize: number, otherId: string, addValidation = 'addPlanValidation(app);'): string {
  return [
    "import { App, Chart, Size } from 'cdk8s';",
    `import { PlanBaseline, PostgresCluster, addPlanValidation } from ${JSON.stringify(path.join(ROOT, 'src'))};`,
    'void PlanBaseline;',
    'const app = new App();',
    "const chart = new Chart(app, 'databases', { namespace: 'apps' });",
    `new PostgresCluster(chart, 'orders', { storage: { size: Size.gibibytes(${ordersSize}) } });`,
    `new PostgresCluster(chart, ${JSON.stringify(otherId)}, { storage: { size: Size.gibibytes(5) } });`,
    addValidation,
    'app.synth();',
    '',
  ].join('\n');
}

/** The app: Cluster `orders` and, when `databases`, its Databases `app` (reclaim policy delete) and `logs` (retain). */
function databaseApp(databases: boolean): string {
  return [
    "import { App, Chart, Size } from 'cdk8s';",
    `import { DatabaseReclaimPolicy, PostgresCluster, addPlanValidation } from ${JSON.stringify(path.join(ROOT, 'src'))};`,
    'const app = new App();',
    "const chart = new Chart(app, 'databases', { namespace: 'apps' });",
    "const orders = new PostgresCluster(chart, 'orders', { storage: { size: Size.gibibytes(10) } });",
    databases
      ? "orders.addDatabase('app', { owner: 'app', databaseReclaimPolicy: DatabaseReclaimPolicy.DELETE }); orders.addDatabase('logs', { owner: 'app' });"
      : '',
    'addPlanValidation(app);',
    'app.synth();',
    '',
  ].join('\n');
}

/** An app of one Cluster with the given lines after it (`orders` is the Cluster). */
function managedApp(...lines: string[]): string {
  return [
    "import { App, Chart, Size } from 'cdk8s';",
    `import { DatabaseReclaimPolicy, EnsureOption, PostgresCluster, addPlanValidation } from ${JSON.stringify(path.join(ROOT, 'src'))};`,
    'const app = new App();',
    "const chart = new Chart(app, 'databases', { namespace: 'apps' });",
    "const orders = new PostgresCluster(chart, 'orders', { storage: { size: Size.gibibytes(10) } });",
    ...lines,
    'addPlanValidation(app);',
    'app.synth();',
    '',
  ].join('\n');
}

let repo: string;

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8' });
}

function synth(): SpawnSyncReturns<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, CDK8S_CHECK_UPGRADE: 'false' };
  delete env.CDK8S_OUTDIR;
  delete env.CDK8S_RECORD_CONSTRUCT_METADATA;
  return spawnSync(CDK8S, ['synth'], { cwd: repo, env, encoding: 'utf8', timeout: 240_000 });
}

function output(r: SpawnSyncReturns<string>): string {
  return `${r.stdout}\n${r.stderr}`;
}

beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-cdk8s-synth-'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(repo, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(repo, '.gitignore'), 'node_modules\n');
  fs.writeFileSync(path.join(repo, 'cdk8s.yaml'), `language: typescript\napp: ${TSX} main.ts\noutput: dist\n`);
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Plan Test');
  git('config', 'user.email', 'plan-test@example.com');
  git('config', 'commit.gpgsign', 'false');
});

afterEach(() => {
  fs.rmSync(repo, { recursive: true, force: true });
});

describe('the plan under `cdk8s synth`', () => {
  test('a second synth that shrinks storage and renames a Cluster fails, naming both, compared with git HEAD', () => {
    fs.writeFileSync(path.join(repo, 'main.ts'), app(10, 'billing'));
    git('add', '-A');
    git('commit', '-q', '-m', 'the app');
    const first = synth();
    expect({ status: first.status, out: output(first) }).toMatchObject({ status: 0 });
    // nothing committed yet: said, not silent
    expect(first.stderr).toContain('plan: compared with nothing: dist has no manifests (cdk8s synth empties it first) and git HEAD has none under dist');
    git('add', '-A');
    git('commit', '-q', '-m', 'the output');

    fs.writeFileSync(path.join(repo, 'main.ts'), app(5, 'billing-db'));
    const second = synth();
    expect(second.status).not.toBe(0);
    const out = output(second);
    expect(out).toContain('plan: compared the new output with git HEAD:dist (1 file)');
    expect(out).toContain('CNPGI210 error Cluster/apps/orders (spec.storage.size): shrinks from 10Gi to 5Gi');
    expect(out).toMatch(/CNPGI201 error Cluster\/apps\/billing \(metadata\.name\): is renamed to 'billing-db'/);
    // the committed output is still there to restore
    expect(git('show', 'HEAD:dist/databases.k8s.yaml')).toContain('name: billing');
    // the findings come once, first, with the construct or the committed file of each object
    const refusal = second.stderr.slice(second.stderr.indexOf('synth refused'));
    expect(refusal.split('\n').slice(0, 6)).toEqual([
      'synth refused (nothing was written):',
      expect.stringMatching(/^ {2}CNPGI201 error Cluster\/apps\/billing \(metadata\.name\): is renamed to 'billing-db'/),
      '    at was in HEAD:dist/databases.k8s.yaml',
      expect.stringMatching(/^ {2}CNPGI210 error Cluster\/apps\/orders \(spec\.storage\.size\): shrinks from 10Gi to 5Gi/),
      '    at construct databases/orders',
      '  plan: dist holds the baseline again (1 file of git HEAD:dist): cdk8s synth had emptied it, and the refused output was not written',
    ]);
    // no cdk8s error block, no stack trace of the app, no `[]` for the App
    expect(out).not.toContain('Validation failed');
    expect(out).not.toContain('[]');
    expect(out).not.toMatch(/at validate|app\.ts:\d+/);
    // dist/ as committed: nothing for `git add -A` to prune
    expect(git('status', '--porcelain', '--', 'dist')).toBe('');
  }, 600_000);

  test('a doctor refusal under cdk8s synth: the finding once, first, with its construct', () => {
    fs.writeFileSync(
      path.join(repo, 'main.ts'),
      [
        "import { App, Chart, Size } from 'cdk8s';",
        `import { Doctor, Plugin, PostgresCluster } from ${JSON.stringify(path.join(ROOT, 'src'))};`,
        'const app = new App();',
        "const chart = new Chart(app, 'databases', { namespace: 'apps' });",
        "new PostgresCluster(chart, 'orders', { storage: { size: Size.gibibytes(1) } }).addPlugin(Plugin.fromPluginName('missing.example.com'));",
        "Doctor.addValidation(app, { operatorNamespace: 'cnpg-system', complete: true });",
        'app.synth();',
        '',
      ].join('\n'),
    );
    const refused = synth();
    expect(refused.status).not.toBe(0);
    const lines = refused.stderr.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'synth refused (nothing was written):',
      expect.stringMatching(/^ {2}CNPGI040 error Cluster\/apps\/orders \(spec\.plugins\[0\]\.name\): Cluster names plugin 'missing\.example\.com'/),
      '    at construct databases/orders',
    ]);
    expect(output(refused)).not.toContain('Validation failed');
  }, 600_000);

  test('near misses: a grown Cluster and a new one pass; an explicit folder baseline that cdk8s synth emptied is refused', () => {
    fs.writeFileSync(path.join(repo, 'main.ts'), app(10, 'billing'));
    expect(synth().status).toBe(0);
    git('add', '-A');
    git('commit', '-q', '-m', 'the app and its output');
    fs.writeFileSync(path.join(repo, 'main.ts'), app(20, 'billing'));
    const grown = synth();
    expect({ status: grown.status, out: output(grown) }).toMatchObject({ status: 0 });
    expect(grown.stderr).toContain('plan: compared the new output with git HEAD:dist (1 file)');

    fs.writeFileSync(path.join(repo, 'main.ts'), app(10, 'billing', "addPlanValidation(app, { baseline: PlanBaseline.folder('dist') });"));
    const refused = synth();
    expect(refused.status).not.toBe(0);
    expect(output(refused)).toContain('plan: the baseline folder dist is the output folder, which `cdk8s synth` empties before it runs the app');
  }, 600_000);
  test('a Database with databaseReclaimPolicy: delete that leaves the output fails the synth; pass: one with retain', () => {
    fs.writeFileSync(path.join(repo, 'main.ts'), databaseApp(true));
    expect(synth().status).toBe(0);
    git('add', '-A');
    git('commit', '-q', '-m', 'the app and its output');
    expect(git('show', 'HEAD:dist/databases.k8s.yaml')).toContain('databaseReclaimPolicy: delete');

    fs.writeFileSync(path.join(repo, 'main.ts'), databaseApp(false));
    const pruned = synth();
    expect(pruned.status).not.toBe(0);
    const out = output(pruned);
    expect(out).toContain(
      "CNPGI260 error Database/apps/orders-app (spec.databaseReclaimPolicy): disappears with databaseReclaimPolicy: delete: pruning deletes it, and for the database 'app' of Cluster 'orders' the operator runs DROP DATABASE",
    );
    // the Database with the default policy (retain) leaves PostgreSQL's database in place: not reported
    expect(out).not.toContain('orders-logs');
  }, 600_000);

  test('a reclaim policy switched to delete warns and writes; ensure: absent on a kept Database fails the synth', () => {
    fs.writeFileSync(path.join(repo, 'main.ts'), managedApp("orders.addDatabase('sales', { owner: 'app' });"));
    expect(synth().status).toBe(0);
    git('add', '-A');
    git('commit', '-q', '-m', 'a Database with the default policy');

    fs.writeFileSync(
      path.join(repo, 'main.ts'),
      managedApp("orders.addDatabase('sales', { owner: 'app', databaseReclaimPolicy: DatabaseReclaimPolicy.DELETE });"),
    );
    const switched = synth();
    expect(switched.status).toBe(0);
    expect(output(switched)).toMatch(/CNPGI261 warning Database\/apps\/orders-sales \(spec\.databaseReclaimPolicy\)/);
    expect(fs.readFileSync(path.join(repo, 'dist', 'databases.k8s.yaml'), 'utf8')).toContain('databaseReclaimPolicy: delete');
    git('add', '-A');
    git('commit', '-q', '-m', 'the policy switched');

    fs.writeFileSync(
      path.join(repo, 'main.ts'),
      managedApp("orders.addDatabase('sales', { owner: 'app', databaseReclaimPolicy: DatabaseReclaimPolicy.DELETE, ensure: EnsureOption.ABSENT });"),
    );
    const absent = synth();
    expect(absent.status).not.toBe(0);
    expect(output(absent)).toMatch(/CNPGI263 error Database\/apps\/orders-sales \(spec\.ensure\)/);
    // and the output folder is left as committed
    expect(git('status', '--short', '--', 'dist')).toBe('');
  }, 600_000);
});
