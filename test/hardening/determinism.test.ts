import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Size, Testing } from 'cdk8s';
import fc from 'fast-check';
import * as YAML from 'yaml';
import { BackupSchedule, BackupTarget, BarmanCloudPlugin, ExternalClusterSource, HelloWorldPlugin, Plugin, PostgresCluster } from '../../src';
import { announce, check } from './fc-config';

/*
 * The same program gives the same bytes: in two processes, under different time zones and
 * locales, with the clock and the random generator stubbed, and whatever order independent
 * objects are given their plugins and backups.
 */

announce('determinism');
const ROOT = path.join(__dirname, '..', '..');

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-determinism-'));
}

/** The files of a directory, by name. */
function files(dir: string): Record<string, Buffer> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f))]),
  );
}

/** Runs the example app as `npm run synth` does, into `outdir`, with extra environment. */
function synthExampleApp(outdir: string, env: Record<string, string>): string {
  const r = spawnSync(process.execPath, [path.join('scripts', 'run-app.mjs'), path.join('src', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, CDK8S_OUTDIR: outdir },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`run-app exited ${r.status}: ${r.stderr}`);
  expect(r.stdout).toBe('');
  return r.stderr;
}

describe('the example app', () => {
  const first = tmp();
  const second = tmp();
  const inProcess = tmp();
  afterAll(() => [first, second, inProcess].forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  test('two processes, different TZ and locale, give byte-identical files', () => {
    const printed = synthExampleApp(first, { TZ: 'UTC', LANG: 'C', LC_ALL: 'C' });
    synthExampleApp(second, { TZ: 'Pacific/Kiritimati', LANG: 'de_DE.UTF-8', LC_ALL: 'de_DE.UTF-8' });
    const a = files(first);
    const b = files(second);
    expect(Object.keys(a)).toEqual(['cnpg-system.k8s.yaml', 'databases.k8s.yaml']);
    expect(Object.keys(b)).toEqual(Object.keys(a));
    for (const f of Object.keys(a)) expect(b[f].equals(a[f])).toBe(true);
    // and the synth says what it wrote: one line per file, with its number of objects
    const count = (f: string) => YAML.parseAllDocuments(a[f].toString('utf8')).length;
    expect(printed.split('\n').filter((l) => l.includes('.k8s.yaml'))).toEqual(
      Object.keys(a).map((f) => `${path.relative(ROOT, path.join(first, f))}: ${count(f)} objects`),
    );
  });

  test('the clock and Math.random have no influence (stubbed in process, compared with the child process output)', () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(Date.UTC(2001, 0, 1));
    const random = jest.spyOn(Math, 'random').mockReturnValue(0.999);
    const saved = process.env.CDK8S_OUTDIR;
    process.env.CDK8S_OUTDIR = inProcess;
    try {
      jest.isolateModules(() => {
        require(path.join(ROOT, 'src', 'main'));
      });
    } finally {
      now.mockRestore();
      random.mockRestore();
      if (saved === undefined) delete process.env.CDK8S_OUTDIR;
      else process.env.CDK8S_OUTDIR = saved;
    }
    const a = files(first);
    const c = files(inProcess);
    expect(Object.keys(c)).toEqual(Object.keys(a));
    for (const f of Object.keys(a)) expect(c[f].toString()).toBe(a[f].toString());
  });
});

describe('independent additions in any order', () => {
  type Op = (ctx: { a: PostgresCluster; b: PostgresCluster; barman: BarmanCloudPlugin; hello: HelloWorldPlugin }) => void;
  // Each Cluster's own calls keep their order (spec.plugins lists plugins in the order added);
  // only the interleaving of the two Clusters' calls changes.
  const forA: Op[] = [
    ({ a }) => a.addBackup('before-upgrade', { plugin: Plugin.fromPluginName('barman-cloud.cloudnative-pg.io'), target: BackupTarget.PRIMARY }),
    ({ a, barman }) => a.addPlugin(barman, { isWalArchiver: true, parameters: { barmanObjectName: 'store' } }),
    ({ a, hello }) => a.addPlugin(hello, { parameters: HelloWorldPlugin.parameters({ labels: { team: 'a' } }) }),
    ({ a, barman }) => a.addScheduledBackup('nightly', { plugin: barman, schedule: BackupSchedule.daily(2) }),
    ({ a, barman }) => a.addExternalCluster('origin', ExternalClusterSource.fromPlugin(barman, { parameters: { serverName: 'origin' } })),
  ];
  const forB: Op[] = [
    ({ b, hello }) => b.addPlugin(hello),
    ({ b, barman }) => b.addPlugin(barman, { isWalArchiver: true, parameters: { barmanObjectName: 'store-b' } }),
    ({ b, barman }) => b.addScheduledBackup('hourly', { plugin: barman, schedule: BackupSchedule.expression('@hourly') }),
    ({ b, hello }) => b.addBackup('adhoc', { plugin: hello }),
    ({ b }) =>
      b.addExternalCluster('replica-source', ExternalClusterSource.fromConnection({ connectionParameters: { host: 'pg-rw.other', dbname: 'postgres' } })),
  ];

  function render(interleaving: boolean[]): string {
    const app = Testing.app();
    const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
    const barman = new BarmanCloudPlugin(system, 'barman');
    const hello = new HelloWorldPlugin(system, 'hello');
    const apps = new Chart(app, 'apps', { namespace: 'databases' });
    const ctx = {
      a: new PostgresCluster(apps, 'a', { storage: { size: Size.gibibytes(1) } }),
      b: new PostgresCluster(apps, 'b', { storage: { size: Size.gibibytes(1) } }),
      barman,
      hello,
    };
    let i = 0;
    let j = 0;
    for (const takeA of interleaving) {
      if (takeA && i < forA.length) forA[i++](ctx);
      else if (j < forB.length) forB[j++](ctx);
      else forA[i++](ctx);
    }
    while (i < forA.length) forA[i++](ctx);
    while (j < forB.length) forB[j++](ctx);
    return app.synthYaml();
  }

  test("every interleaving of two Clusters' addPlugin/addBackup/addScheduledBackup/addExternalCluster calls gives the same YAML", () => {
    const reference = render(new Array(10).fill(true));
    check(
      fc.property(fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), (interleaving) => {
        expect(render(interleaving)).toBe(reference);
      }),
    );
  });
});
