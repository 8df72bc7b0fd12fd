import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Size } from 'cdk8s';
import { Construct } from 'constructs';
import { CnpgIValidationError, ObjectStore, PlanBaseline, ObjectStoreCredentials, Plugin, PostgresCluster, addPlanValidation, planChanges } from '../../src';

const storage = { size: Size.gibibytes(10) };

/** The app of a small GitOps repository; `parent` and `id` are what refactors change. */
function databases(outdir: string, place: (chart: Chart) => Construct = (c) => c, id = 'orders'): App {
  const app = new App({ outdir });
  const chart = new Chart(app, 'databases', { namespace: 'apps' });
  const scope = place(chart);
  const store = new ObjectStore(scope, 'backups', { destinationPath: 's3://bucket/apps', credentials: ObjectStoreCredentials.s3IamRole() });
  const pg = new PostgresCluster(scope, id, { storage });
  pg.addPlugin(Plugin.fromPluginName('barman-cloud.cloudnative-pg.io'), { isWalArchiver: true, objectStore: store });
  return app;
}

function objects(app: App): unknown[] {
  return app.node
    .findAll()
    .filter(ApiObject.isApiObject)
    .map((o) => o.toJson());
}

describe('stable names seen by the plan', () => {
  test('moving the Cluster and its ObjectStore under another parent plans no change', () => {
    const before = objects(databases('unused'));
    const after = objects(databases('unused', (c) => new Construct(new Construct(c, 'Team'), 'Billing')));
    expect(planChanges(before, after).findings).toEqual([]);
    expect(planChanges(before, after)).toMatchObject({ findings: [], added: 0, removed: 0, changed: 0 });
  });

  test('changing the construct id is a rename the plan reports, with the name to pin', () => {
    const report = planChanges(objects(databases('unused')), objects(databases('unused', (c) => c, 'orders-db')));
    expect(report.findings.map((f) => [f.ruleId, f.object, f.fix])).toEqual([
      ['CNPGI201', 'Cluster/apps/orders', "pin `metadata.name: orders` on the Cluster now named 'orders-db'"],
    ]);
  });
});

describe('addPlanValidation', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-plan-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('first synth (an empty or missing folder), then an unchanged one: all write', () => {
    const empty = databases(dir);
    addPlanValidation(empty, { previousDir: dir });
    expect(() => empty.synth()).not.toThrow();
    const first = databases(dir);
    addPlanValidation(first, { previousDir: path.join(dir, 'does-not-exist') });
    first.synth();
    const second = databases(dir);
    addPlanValidation(second, { previousDir: dir });
    expect(() => second.synth()).not.toThrow();
  });

  test('a destructive change fails the synth before anything is written', () => {
    databases(dir).synth();
    const file = path.join(dir, 'databases.k8s.yaml');
    const written = fs.readFileSync(file, 'utf8');
    const renamed = databases(dir, (c) => c, 'orders-db');
    addPlanValidation(renamed, { previousDir: dir });
    expect(() => renamed.synth()).toThrow(/CNPGI201 error Cluster\/apps\/orders \(metadata.name\): is renamed to 'orders-db'/);
    expect(fs.readFileSync(file, 'utf8')).toBe(written);
  });

  test('warnings fail only with failOnWarnings', () => {
    databases(dir).synth();
    const moved = (failOnWarnings: boolean) => {
      const app = new App({ outdir: dir });
      const chart = new Chart(app, 'databases', { namespace: 'apps' });
      const store = new ObjectStore(chart, 'backups', { destinationPath: 's3://bucket/apps', credentials: ObjectStoreCredentials.s3IamRole() });
      const pg = new PostgresCluster(chart, 'orders', { storage });
      pg.addPlugin(Plugin.fromPluginName('barman-cloud.cloudnative-pg.io'), {
        isWalArchiver: true,
        objectStore: store,
        parameters: { serverName: 'orders-v2' },
      });
      addPlanValidation(app, { previousDir: dir, failOnWarnings });
      return app;
    };
    expect(() => moved(true).synth()).toThrow(/CNPGI240 warning Cluster\/apps\/orders/);
    expect(() => moved(false).synth()).not.toThrow();
  });

  test('bad options', () => {
    expect(() => addPlanValidation(new App(), { previousDir: '' })).toThrow(CnpgIValidationError);
    expect(() => addPlanValidation(new App(), { baseline: 'HEAD' as any })).toThrow(
      "addPlanValidation: options.baseline 'HEAD' is not a PlanBaseline; use PlanBaseline.previousOutput(), PlanBaseline.folder('previous-dist') or PlanBaseline.gitRef('origin/main')",
    );
    expect(() => addPlanValidation(new App(), { baseline: PlanBaseline.gitRef('HEAD'), previousDir: 'dist' })).toThrow(
      "addPlanValidation: options.previousDir 'dist' is given together with baseline; keep one: baseline: PlanBaseline.previousOutput('dist') is what previousDir means",
    );
    expect(() => PlanBaseline.gitRef('--output=x')).toThrow(
      "PlanBaseline.gitRef: revision '--output=x' starts with a dash, which git would read as an option; pass a branch, tag or commit, e.g. 'origin/main'",
    );
    expect(() => PlanBaseline.folder('')).toThrow(
      "PlanBaseline.folder: dir '' must be a non-empty string; pass the folder of the previous output, e.g. 'previous-dist'",
    );
    expect(() => addPlanValidation(undefined as any, { previousDir: 'dist' })).toThrow(
      'addPlanValidation: scope is not a construct; pass the cdk8s App or a Chart',
    );
  });
});
