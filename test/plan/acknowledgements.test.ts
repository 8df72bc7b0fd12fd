import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, App, Chart, Size } from 'cdk8s';
import { PostgresCluster, addPlanValidation, formatPlanJson, formatPlanSarif, formatPlanText, planChanges } from '../../src';
import { runPlan } from '../../src/cli/plan';
import { runCli } from '../cli/run-cli';

/** An app with the Cluster `orders` (or, renamed, `orders-db`) and `billing` in namespace `apps`. */
function databases(outdir: string, ordersId = 'orders', billingId = 'billing'): App {
  const app = new App({ outdir });
  const chart = new Chart(app, 'databases', { namespace: 'apps' });
  new PostgresCluster(chart, ordersId, { storage: { size: Size.gibibytes(10) } });
  new PostgresCluster(chart, billingId, { storage: { size: Size.gibibytes(10) } });
  return app;
}

function objects(app: App): unknown[] {
  return app.node
    .findAll()
    .filter(ApiObject.isApiObject)
    .map((o) => o.toJson());
}

const BEFORE = objects(databases('unused'));
const RENAMED = objects(databases('unused', 'orders-db'));
const REASON = 'orders moved to orders-db on purpose (ticket 42)';
const ACK = { rule: 'CNPGI201', object: 'Cluster/apps/orders', reason: REASON };

describe('planChanges with acknowledge', () => {
  test('without it, the rename is an error', () => {
    expect(planChanges(BEFORE, RENAMED).findings.map((f) => [f.ruleId, f.severity, f.object])).toEqual([['CNPGI201', 'error', 'Cluster/apps/orders']]);
  });

  test('an acknowledged finding moves to acknowledged, with its reason, and fails nothing', () => {
    const report = planChanges(BEFORE, RENAMED, { acknowledge: [ACK] });
    expect(report.findings).toEqual([]);
    expect(report.staleAcknowledgements).toEqual([]);
    expect(report.acknowledged.map((f) => [f.ruleId, f.object, f.reason])).toEqual([['CNPGI201', 'Cluster/apps/orders', REASON]]);
    const text = formatPlanText(report);
    expect(text).toContain(
      [
        'Acknowledged (deliberate, not failing):',
        "  acknowledged CNPGI201  Cluster/apps/orders (metadata.name): is renamed to 'orders-db' (same namespace and the same spec): with pruning the Cluster is deleted with its PVCs, and an empty Cluster is created, with new Services and a new backup server name",
        `          reason: ${REASON}`,
        '',
        '0 errors, 0 warnings, 1 acknowledged.',
      ].join('\n'),
    );
    const json = JSON.parse(formatPlanJson(report));
    expect(json.findings).toEqual([]);
    expect(json.acknowledged).toEqual([expect.objectContaining({ ruleId: 'CNPGI201', object: 'Cluster/apps/orders', reason: REASON })]);
    const sarif = JSON.parse(formatPlanSarif(report, '0.0.0'));
    expect(sarif.runs[0].results).toEqual([
      expect.objectContaining({ ruleId: 'CNPGI201', suppressions: [{ kind: 'external', justification: `acknowledged: ${REASON}` }] }),
    ]);
  });

  test('an acknowledgement naming another object does not help, and is stale', () => {
    const other = { ...ACK, object: 'Cluster/apps/billing' };
    const report = planChanges(BEFORE, RENAMED, { acknowledge: [other] });
    expect(report.findings.map((f) => [f.ruleId, f.object])).toEqual([['CNPGI201', 'Cluster/apps/orders']]);
    expect(report.acknowledged).toEqual([]);
    expect(report.staleAcknowledgements).toEqual([other]);
    expect(formatPlanText(report)).toContain(
      'warning acknowledgement CNPGI201 Cluster/apps/billing matched no finding (stale): remove it, or correct its rule or object\n\n1 error, 0 warnings, 1 stale acknowledgement.',
    );
  });

  test('an acknowledgement of another rule on the same object does not help', () => {
    const report = planChanges(BEFORE, RENAMED, { acknowledge: [{ ...ACK, rule: 'CNPGI210' }] });
    expect(report.findings.map((f) => f.ruleId)).toEqual(['CNPGI201']);
    expect(report.staleAcknowledgements.map((a) => a.rule)).toEqual(['CNPGI210']);
  });

  test('a stale acknowledgement, where nothing changes', () => {
    const report = planChanges(BEFORE, BEFORE, { acknowledge: [ACK] });
    expect(report).toMatchObject({ findings: [], acknowledged: [], staleAcknowledgements: [ACK] });
  });

  test.each([
    [
      'a wildcard over objects',
      { ...ACK, object: 'Cluster/apps/*' },
      "planChanges: options.acknowledge[0].object 'Cluster/apps/*' is a wildcard: an acknowledgement accepts the change of one object; name the object, e.g. 'Cluster/payments/ledger', with one entry per object",
    ],
    [
      'a wildcard namespace',
      { ...ACK, object: 'Cluster/*/orders' },
      "planChanges: options.acknowledge[0].object 'Cluster/*/orders' is a wildcard: an acknowledgement accepts the change of one object; name the object, e.g. 'Cluster/payments/ledger', with one entry per object",
    ],
    [
      'no namespace for a namespaced kind',
      { ...ACK, object: 'Cluster/orders' },
      "planChanges: options.acknowledge[0].object 'Cluster/orders' lacks the namespace; write 'Cluster/<namespace>/orders', as the finding names it",
    ],
    [
      'a namespace for a cluster-scoped kind',
      { ...ACK, object: 'ClusterRole/apps/reader' },
      "planChanges: options.acknowledge[0].object 'ClusterRole/apps/reader' names a namespace, but ClusterRole is cluster-scoped; write 'ClusterRole/reader'",
    ],
    [
      'not a reference',
      { ...ACK, object: 'orders' },
      "planChanges: options.acknowledge[0].object 'orders' is not an object reference; write Kind/namespace/name as the finding names it, e.g. 'Cluster/payments/ledger'",
    ],
    [
      'a misspelt rule',
      { ...ACK, rule: 'CNPGI21' },
      "planChanges: options.acknowledge[0].rule 'CNPGI21' is not a rule of the plan; did you mean CNPGI210? (the plan's rules are CNPGI2xx, listed in docs/doctor-rules.md)",
    ],
    [
      'a doctor rule',
      { ...ACK, rule: 'CNPGI050' },
      "planChanges: options.acknowledge[0].rule 'CNPGI050' is not a rule of the plan; name the plan rule of the finding, e.g. 'CNPGI201' (the doctor's findings are silenced with its disable option or the cnpg-i.dev/doctor-ignore annotation)",
    ],
    [
      'no reason',
      { rule: 'CNPGI201', object: 'Cluster/apps/orders', reason: ' ' },
      'planChanges: options.acknowledge[0].reason \' \' must be a non-empty string; say why the change is deliberate, e.g. "ledger moved to the new cluster (ticket 123)": review reads it',
    ],
    [
      'an unknown key',
      { ...ACK, objects: ['x'] },
      'planChanges: options.acknowledge[0].objects ["x"] is not a declared key of options.acknowledge[0]; did you mean \'object\'?',
    ],
  ])('%s is refused', (_, entry, message) => {
    expect(() => planChanges(BEFORE, RENAMED, { acknowledge: [entry as any] })).toThrow(message);
  });

  test('the same entry twice is refused', () => {
    expect(() => planChanges(BEFORE, RENAMED, { acknowledge: [ACK, { ...ACK, reason: 'again' }] })).toThrow(
      "planChanges: options.acknowledge[1] 'CNPGI201 Cluster/apps/orders' acknowledges the same finding as an earlier entry; keep one entry per rule and object",
    );
  });

  test('unknown option keys are refused, disable with the way to acknowledge', () => {
    expect(() => planChanges(BEFORE, RENAMED, { disable: ['CNPGI201'] } as any)).toThrow(
      "planChanges: options.disable [\"CNPGI201\"] is not a declared key of options; the plan switches no rule off: accept a deliberate change per object with acknowledge: [{ rule: 'CNPGI201', object: 'Cluster/payments/ledger', reason: '...' }]",
    );
    expect(() => planChanges(BEFORE, RENAMED, { defaultNamespce: 'x' } as any)).toThrow(
      "planChanges: options.defaultNamespce 'x' is not a declared key of options; did you mean 'defaultNamespace'?",
    );
  });
});

describe('addPlanValidation with acknowledge', () => {
  let dir: string;
  let stderr: string;
  let spy: jest.SpyInstance;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-ack-'));
    stderr = '';
    spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk);
      return true;
    });
  });
  afterEach(() => {
    spy.mockRestore();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the acknowledged rename writes, printed with its reason; without it the synth fails', () => {
    databases(dir).synth();
    const refused = databases(dir, 'orders-db');
    addPlanValidation(refused, { previousDir: dir });
    expect(() => refused.synth()).toThrow(/CNPGI201 error Cluster\/apps\/orders/);

    const accepted = databases(dir, 'orders-db');
    addPlanValidation(accepted, { previousDir: dir, acknowledge: [ACK] });
    expect(() => accepted.synth()).not.toThrow();
    expect(stderr).toContain(
      `plan: acknowledged CNPGI201 Cluster/apps/orders (${REASON}): CNPGI201 error Cluster/apps/orders (metadata.name): is renamed to 'orders-db'`,
    );
    expect(fs.readFileSync(path.join(dir, 'databases.k8s.yaml'), 'utf8')).toContain('name: orders-db');
  });

  test('one naming another object does not help; a stale one warns, and fails with failOnWarnings', () => {
    databases(dir).synth();
    const wrong = databases(dir, 'orders-db');
    addPlanValidation(wrong, { previousDir: dir, acknowledge: [{ ...ACK, object: 'Cluster/apps/billing' }] });
    expect(() => wrong.synth()).toThrow(/CNPGI201 error Cluster\/apps\/orders/);
    expect(stderr).toContain(
      'plan: warning: acknowledgement CNPGI201 Cluster/apps/billing matched no finding (stale): remove it, or correct its rule or object',
    );

    const strict = databases(dir);
    addPlanValidation(strict, { previousDir: dir, acknowledge: [ACK], failOnWarnings: true });
    expect(() => strict.synth()).toThrow(/plan: warning: acknowledgement CNPGI201 Cluster\/apps\/orders matched no finding \(stale\)/);
  });

  test('options are checked when added: unknown keys (disable), a wildcard', () => {
    expect(() => addPlanValidation(new App(), { disable: ['CNPGI201'] } as any)).toThrow(
      "addPlanValidation: options.disable [\"CNPGI201\"] is not a declared key of options; the plan switches no rule off: accept a deliberate change per object with acknowledge: [{ rule: 'CNPGI201', object: 'Cluster/payments/ledger', reason: '...' }]",
    );
    expect(() => addPlanValidation(new App(), { failOnWarning: true } as any)).toThrow(
      "addPlanValidation: options.failOnWarning true is not a declared key of options; did you mean 'failOnWarnings'?",
    );
    expect(() => addPlanValidation(new App(), { acknowledge: [{ ...ACK, object: '*' }] })).toThrow(
      "addPlanValidation: options.acknowledge[0].object '*' is a wildcard: an acknowledgement accepts the change of one object; name the object, e.g. 'Cluster/payments/ledger', with one entry per object",
    );
    expect(() => addPlanValidation(new App(), { failOnWarnings: 'yes' as any })).toThrow(
      "addPlanValidation: options.failOnWarnings 'yes' must be true or false; pass failOnWarnings: true, or leave it out",
    );
  });
});

describe('cnpg-i-doctor plan --acknowledge FILE', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpgi-ack-cli-'));
    const yaml = (objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join('\n---\n');
    fs.writeFileSync(path.join(dir, 'old.yaml'), yaml(BEFORE));
    fs.writeFileSync(path.join(dir, 'new.yaml'), yaml(RENAMED));
    fs.writeFileSync(path.join(dir, 'ack.yaml'), `- rule: CNPGI201\n  object: Cluster/apps/orders\n  reason: ${REASON}\n`);
    fs.writeFileSync(path.join(dir, 'stale.yaml'), `- rule: CNPGI201\n  object: Cluster/apps/billing\n  reason: not this one\n`);
    fs.writeFileSync(path.join(dir, 'wild.yaml'), `- rule: CNPGI201\n  object: Cluster/apps/*\n  reason: all of them\n`);
    fs.writeFileSync(path.join(dir, 'map.yaml'), `rule: CNPGI201\nobject: Cluster/apps/orders\nreason: x\n`);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (argv: string[]) => runCli(runPlan, argv, { cwd: dir });

  test('without the file: exit 1; with it: exit 0, the finding printed as acknowledged with its reason', async () => {
    expect((await run(['old.yaml', 'new.yaml'])).code).toBe(1);
    const r = await run(['--acknowledge', 'ack.yaml', 'old.yaml', 'new.yaml']);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain('  acknowledged CNPGI201  Cluster/apps/orders (metadata.name): is renamed');
    expect(r.out).toContain(`          reason: ${REASON}`);
    const json = JSON.parse((await run(['--acknowledge=ack.yaml', '--format', 'json', 'old.yaml', 'new.yaml'])).out);
    expect(json.acknowledged.map((f: { reason: string }) => f.reason)).toEqual([REASON]);
  });

  test('an entry of another object: exit 1, and a stale warning', async () => {
    const r = await run(['--acknowledge', 'stale.yaml', 'old.yaml', 'new.yaml']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('warning acknowledgement CNPGI201 Cluster/apps/billing matched no finding (stale)');
  });

  test('a wildcard or a file that is not a list: exit 2 with the reason', async () => {
    expect(await run(['--acknowledge', 'wild.yaml', 'old.yaml', 'new.yaml'])).toMatchObject({
      code: 2,
      err: "cnpg-i-doctor plan: --acknowledge: wild.yaml[0].object 'Cluster/apps/*' is a wildcard: an acknowledgement accepts the change of one object; name the object, e.g. 'Cluster/payments/ledger', with one entry per object\n",
    });
    expect(await run(['--acknowledge', 'map.yaml', 'old.yaml', 'new.yaml'])).toMatchObject({
      code: 2,
      err: 'cnpg-i-doctor plan: --acknowledge map.yaml: must be one YAML list of { rule, object, reason } entries, e.g. [{ rule: CNPGI201, object: Cluster/payments/ledger, reason: moved to ledger-v2 }]\n',
    });
  });
});
