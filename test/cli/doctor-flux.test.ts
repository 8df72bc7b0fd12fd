/*
 * The doctor's command line on Flux repositories and kustomize folders: --var, --vars-from, Flux
 * Kustomizations' postBuild, and folders with a kustomization file.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/cli/doctor';
import { buildOracle, describeWithGo } from '../oracles/go-oracle';
import { runCli } from './run-cli';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

function run(argv: string[], cwd: string, env: Record<string, string> = { CNPG_I_KUSTOMIZE: 'none' }) {
  return runCli(main, argv, { cwd, env });
}

/** The rule ids and objects of a JSON report. */
function findings(out: string): string[] {
  const report = JSON.parse(out) as { findings: Array<{ ruleId: string; object: string; message: string }> };
  return report.findings.filter((f) => f.ruleId !== 'CNPGI001').map((f) => `${f.ruleId} ${f.object}`);
}

/** A copy of the Flux repository fixture in a fresh folder (optionally a git repository). */
function repository(git: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-flux-'));
  fs.cpSync(path.join(FIXTURES, 'flux-repo'), dir, { recursive: true });
  if (git) execFileSync('git', ['init', '-q', dir]);
  return dir;
}

// no rule judges the fields that hold ${APP} or ${STORAGE_SIZE}: CNPGI092 says so
const UNRENDERED = ['CNPGI092 Cluster/db/${APP}-db'];

describe('Flux post-build substitution', () => {
  test('unrendered, the app folder is judged as written', async () => {
    const r = await run(['--format', 'json', 'apps'], repository(false));
    expect(findings(r.out)).toEqual(UNRENDERED);
  });

  test("a Kustomization's substitute and substituteFrom render its spec.path: no finding is left", async () => {
    const r = await run(['--format', 'json', '.'], repository(false));
    expect(findings(r.out)).toEqual([]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  test('spec.path is taken from the git top folder, not the folder given', async () => {
    const dir = repository(true);
    const r = await run(['--format', 'json', 'clusters', 'apps'], dir);
    expect(findings(r.out)).toEqual([]);
    // without git, the first folder given is the root: ./apps/prod is not under it
    const plain = await run(['--format', 'json', 'clusters', 'apps'], repository(false));
    expect(findings(plain.out)).toEqual(UNRENDERED);
  });

  test('a substituteFrom source not in the input: a notice, and its variables stay unrendered (defaults too)', async () => {
    const dir = repository(false);
    fs.rmSync(path.join(dir, 'clusters/prod/cluster-settings.yaml'));
    const r = await run(['--format', 'json', '.'], dir);
    expect(findings(r.out)).toEqual(['CNPGI092 Cluster/db/orders-db']);
    expect(r.err).toBe(
      'cnpg-i-doctor: notice: Kustomization/flux-system/apps: postBuild.substituteFrom ConfigMap/flux-system/cluster-settings is not in the input; the variables it gives are unknown (give them with --var or --vars-from), and Flux fails the build if it does not exist\n',
    );
    // --var gives what the cluster holds
    const given = await run(['--format', 'json', '.', '--var', 'STORAGE_SIZE=5Gi', '--var', 'PG_REPLICAS=3'], dir);
    expect(findings(given.out)).toEqual([]);
  });

  test('the disabled annotation keeps an object unrendered', async () => {
    const dir = repository(false);
    const file = path.join(dir, 'apps/prod/cluster.yaml');
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('  namespace: db\n', '  namespace: db\n  annotations:\n    kustomize.toolkit.fluxcd.io/substitute: disabled\n'),
    );
    const r = await run(['--format', 'json', '.'], dir);
    // Flux applies the text as written, so it is judged as written
    expect(findings(r.out)).toEqual([
      'CNPGI060 Cluster/db/${APP}-db',
      'CNPGI063 Cluster/db/${APP}-db',
      'CNPGI311 Cluster/db/${APP}-db',
      'CNPGI315 Cluster/db/${APP}-db',
    ]);
  });

  test('a Kustomization without postBuild renders nothing', async () => {
    const dir = repository(false);
    const file = path.join(dir, 'clusters/prod/apps.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/ {2}postBuild:[\s\S]*$/, ''));
    const r = await run(['--format', 'json', '.', '--var', 'APP=x', '--var', 'STORAGE_SIZE=1Gi'], dir);
    expect(findings(r.out)).toEqual(UNRENDERED);
  });
});

describe('--var and --vars-from', () => {
  test('--var renders every object', async () => {
    const r = await run(['--format', 'json', 'apps', '--var', 'APP=orders', '--var=STORAGE_SIZE=1Gi'], repository(false));
    expect(findings(r.out)).toEqual([]);
  });

  test('--vars-from a ConfigMap, a Secret and a dotenv file', async () => {
    const dir = repository(false);
    fs.writeFileSync(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: v\ndata:\n  APP: orders\n');
    fs.writeFileSync(
      path.join(dir, 'secret.yaml'),
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  STORAGE_SIZE: ${Buffer.from('2Gi').toString('base64')}\n`,
    );
    fs.writeFileSync(path.join(dir, 'vars.env'), '# values\nAPP=orders\nSTORAGE_SIZE=3Gi\n');
    expect(findings((await run(['--format', 'json', 'apps', '--vars-from', 'cm.yaml', '--vars-from', 'secret.yaml'], dir)).out)).toEqual([]);
    expect(findings((await run(['--format', 'json', 'apps', '--vars-from', 'vars.env'], dir)).out)).toEqual([]);
    // a value that is not a quantity is judged as rendered
    expect(findings((await run(['--format', 'json', 'apps', '--vars-from', 'vars.env', '--var', 'STORAGE_SIZE=lots'], dir)).out)).toEqual([
      'CNPGI311 Cluster/db/orders-db',
    ]);
  });

  test.each([
    [['--var', 'FOO'], "cnpg-i-doctor: --var 'FOO' must be NAME=VALUE, e.g. --var APP=orders\n"],
    [
      ['--var', 'my-app=1'],
      "cnpg-i-doctor: --var 'my-app=1': 'my-app' is not a variable name Flux accepts (letters, digits and _, not starting with a digit), e.g. --var APP=orders\n",
    ],
    [
      ['--vars-from', 'missing.env'],
      'cnpg-i-doctor: --vars-from missing.env: cannot read it (ENOENT); pass a ConfigMap or Secret manifest, or a NAME=VALUE file\n',
    ],
    [
      ['--vars-from', 'apps/prod/cluster.yaml'],
      'cnpg-i-doctor: --vars-from apps/prod/cluster.yaml holds no ConfigMap or Secret (kind: ConfigMap or Secret, apiVersion: v1); pass a ConfigMap or Secret manifest, or a NAME=VALUE file\n',
    ],
  ])('%j is refused', async (flags, message) => {
    const r = await run(['apps', ...flags], repository(false));
    expect(r.code).toBe(2);
    expect(r.err).toBe(message);
  });
});

describe('kustomize folders', () => {
  test('without kustomize: the files but the patch, and one CNPGI093 warning', async () => {
    const r = await run(['--format', 'json', 'kustomize-app'], FIXTURES);
    const report = JSON.parse(r.out) as { objectCount: number; findings: Array<{ ruleId: string; source: { file: string } }> };
    expect(report.findings.filter((f) => f.ruleId === 'CNPGI093').map((f) => f.source.file)).toEqual([path.join('kustomize-app', 'kustomization.yaml')]);
    // the patch is not read: one Cluster, not two declarations of it, and its instances: 0 is not judged
    expect(report.findings.filter((f) => ['CNPGI060', 'CNPGI117', 'CNPGI310'].includes(f.ruleId))).toEqual([]);
    const text = await run(['kustomize-app'], FIXTURES);
    expect(text.out).toContain('kustomize build DIR | cnpg-i-doctor -');
  });

  describeWithGo('with kustomize (built from sigs.k8s.io/kustomize/kustomize/v5 v5.8.1)', () => {
    let kustomize: string;
    beforeAll(() => {
      kustomize = buildOracle('kustomize');
    }, 600_000);

    test('the folder is rendered: the patch applied, the namespace set, shown as DIR (kustomize build)', async () => {
      const r = await run(['--format', 'json', 'kustomize-app'], FIXTURES, { CNPG_I_KUSTOMIZE: kustomize });
      const report = JSON.parse(r.out) as { objectCount: number; findings: Array<{ ruleId: string; object: string; source?: { file: string } }> };
      expect(report.objectCount).toBe(1);
      expect(report.findings.filter((f) => f.ruleId === 'CNPGI093')).toEqual([]);
      // the patch sets instances to 0, which the CRD refuses: found on the rendered Cluster, in
      // namespace db, once (the webhook's maxSyncReplicas check never sees what the CRD refuses)
      const rendered = report.findings.filter((f) => f.object === 'Cluster/db/pg').map((f) => [f.ruleId, f.source?.file]);
      expect(rendered).toEqual([['CNPGI060', 'kustomize-app (kustomize build)']]);
    });

    test('a folder kustomize refuses is listed as not read', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-kustomize-'));
      fs.writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
      const r = await run(['.'], dir, { CNPG_I_KUSTOMIZE: kustomize });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^cnpg-i-doctor: \. \(kustomize build\): kustomize build failed: /);
    });
  });
});

describe('Flux targetNamespace and spec.components', () => {
  function fluxRepo(targetNamespace: boolean): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-flux-components-'));
    const files: Record<string, string> = {
      'clusters/apps.yaml': [
        'apiVersion: kustomize.toolkit.fluxcd.io/v1',
        'kind: Kustomization',
        'metadata: {name: orders, namespace: flux-system}',
        'spec:',
        '  path: ./apps/orders',
        ...(targetNamespace ? ['  targetNamespace: shop'] : []),
        '  components: [../../components/cnpg]',
        '  postBuild: {substitute: {APP: orders}}',
        '',
      ].join('\n'),
      'apps/orders/objectstore.yaml': [
        'apiVersion: barmancloud.cnpg.io/v1',
        'kind: ObjectStore',
        'metadata: {name: store}',
        'spec: {configuration: {destinationPath: "s3://b/orders", s3Credentials: {inheritFromIAMRole: true}}}',
        '',
      ].join('\n'),
      'components/cnpg/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [namespace.yaml, backup.yaml]\n',
      'components/cnpg/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: _}\n',
      // five fields: CNPGI102's error names the object as Flux renders it
      'components/cnpg/backup.yaml': [
        'apiVersion: postgresql.cnpg.io/v1',
        'kind: ScheduledBackup',
        'metadata: {name: "${APP}"}',
        'spec: {schedule: "0 0 * * *", cluster: {name: "${APP}"}}',
        '',
      ].join('\n'),
    };
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    return dir;
  }

  test("a Component's resources are read once per Kustomization naming it, in its targetNamespace and with its variables", async () => {
    const r = await run(['--format', 'json', '.'], fluxRepo(true));
    const found = findings(r.out);
    // never as written: no Namespace '_', no ${APP}
    expect(found.filter((f) => f.includes('_') || f.includes('${'))).toEqual([]);
    expect(found).toContain('CNPGI102 ScheduledBackup/shop/orders');
    expect(found.filter((f) => f.startsWith('CNPGI102'))).toEqual(['CNPGI102 ScheduledBackup/shop/orders']);
  });

  test('without targetNamespace the objects keep the namespace they have (none: the assumed one)', async () => {
    const r = await run(['--format', 'json', '--namespace', 'assumed', '.'], fluxRepo(false));
    expect(findings(r.out)).toContain('CNPGI102 ScheduledBackup/assumed/orders');
  });
});
