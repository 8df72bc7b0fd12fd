import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/cli/doctor';
import { runCli } from './run-cli';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'doctor');
const ROOT = path.join(__dirname, '..', '..');

const run = (argv: string[], stdin = '') => runCli(main, argv, { stdin, cwd: FIXTURES });

describe('cnpg-i-doctor', () => {
  test('--verbose lists the CRD rules not evaluated here, in text and JSON', async () => {
    const cluster =
      'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: pg, namespace: db}\nspec:\n  instances: 1\n  storage: {size: 1Gi}\n  serviceAccountName: pg-sa\n';
    const text = await run(['-', '--operator-namespace', 'cnpg-system', '--verbose'], cluster);
    expect(text.code).toBe(0);
    expect(text.out).toContain(
      'Not evaluated here (check with kubectl apply --dry-run=server):\n  Cluster/db/pg at spec.serviceAccountName: has the CRD rule `self == oldSelf`',
    );
    expect((await run(['-', '--operator-namespace', 'cnpg-system'], cluster)).out).not.toContain('Not evaluated');
    const json = JSON.parse((await run(['-', '--operator-namespace', 'cnpg-system', '-v', '--format', 'json'], cluster)).out);
    expect(json.notEvaluated.map((n: { path: string }) => n.path)).toEqual(['spec.serviceAccountName']);
  });

  test('clean input: exit 0 and the discovered plugin', async () => {
    const r = await run(['good-plugin.yaml']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        "cnpg-i-doctor: 9 objects in 1 file; operator namespace 'cnpg-system'; CloudNativePG 1.30.0",
        '',
        'Plugins the operator would discover:',
        '  backup.example.com  (Service/cnpg-system/backup, backup.cnpg-system.svc:9090, client Secret backup-client-tls, server Secret backup-server-tls, verifies backup)',
        '',
        'No problems found.',
        '',
      ].join('\n'),
    );
  });

  test('errors: exit 1, findings grouped by object with file and line', async () => {
    const r = await run(['cli/nested', '--operator-namespace', 'cnpg-system']);
    expect(r.code).toBe(1);
    expect(r.out).toContain('Service/cnpg-system/lonely  (cli/nested/service.yml:1)\n  error   CNPGI010  label `cnpg.io/plugin` looks like a misspelling');
    expect(r.out).toContain('          at metadata.labels.cnpg.io/plugin\n          fix: rename it to `cnpg.io/pluginName`');
    expect(r.out).toMatch(/\d+ errors?, \d+ warnings?\.\n$/);
    expect(r.out).not.toContain('is skipped'); // hidden directories are not read
  });

  test('--format json carries the source of each finding', async () => {
    const r = await run(['--format=json', '--cnpg-version', '1.27.1', 'cli/nested/service.yml']);
    const json = JSON.parse(r.out);
    expect(json.cnpgVersion).toBe('1.27.1');
    expect(json.summary.errors).toBeGreaterThan(0);
    const f = json.findings.find((x: any) => x.ruleId === 'CNPGI010');
    expect(f.source).toEqual({ file: 'cli/nested/service.yml', document: 1, line: 1, column: 1 });
    expect(f.index).toBeUndefined();
  });

  test('stdin, --known-plugin and --namespace', async () => {
    const cluster =
      'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: pg\nspec:\n  storage: {size: 1Gi}\n  plugins:\n    - name: a.example.com\n    - name: b.example.com\n';
    let r = await run(['-', '--operator-namespace', 'cnpg-system', '-n', 'app', '--complete'], cluster);
    expect(r.code).toBe(1);
    expect(r.out).toContain('Cluster/app/pg  (<stdin>:1)');
    // a Cluster alone does not show which plugins are installed: without --complete, warnings
    r = await run(['-', '--operator-namespace', 'cnpg-system', '-n', 'app'], cluster);
    expect(r.code).toBe(0);
    expect(r.out).toContain("warning CNPGI040  Cluster names plugin 'a.example.com', which the input does not install");
    r = await run(['-', '--operator-namespace', 'cnpg-system', '--known-plugin', 'a.example.com', '--known-plugin=b.example.com'], cluster);
    expect(r.code).toBe(0);
    expect(r.out).toContain('  a.example.com  (given with --known-plugin)');
  });

  test('a merge key is expanded as kubectl expands it: no unknown "<<" field, no missing destinationPath', async () => {
    const cluster = [
      'apiVersion: postgresql.cnpg.io/v1',
      'kind: Cluster',
      'metadata: {name: pg, namespace: app}',
      'spec:',
      '  instances: 1',
      '  storage: {size: 1Gi}',
      '  backup:',
      '    barmanObjectStore: &store',
      '      destinationPath: s3://backups/',
      '      s3Credentials: {inheritFromIAMRole: true}',
      '  bootstrap:',
      '    recovery: {source: old}',
      '  externalClusters:',
      '    - name: old',
      '      barmanObjectStore:',
      '        <<: *store',
      '        serverName: pg-old',
      '',
    ].join('\n');
    const r = await run(['-', '--format', 'json', '--operator-namespace', 'cnpg-system'], cluster);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const ids = JSON.parse(r.out).findings.map((f: { ruleId: string }) => f.ruleId);
    expect(ids).not.toContain('CNPGI060');
    expect(ids).not.toContain('CNPGI061');
    expect(r.out).not.toContain('<<');
    // the near miss: a quoted "<<" is a key kubectl keeps, and the CRD does not declare it
    const quoted = await run(['-', '--format', 'json', '--operator-namespace', 'cnpg-system'], cluster.replace('<<: *store', '"<<": *store'));
    const quotedIds = JSON.parse(quoted.out).findings.map((f: { ruleId: string }) => f.ruleId);
    expect(quotedIds).toEqual(expect.arrayContaining(['CNPGI060', 'CNPGI061']));
  });

  test('warnings only: exit 0', async () => {
    const r = await run(['-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n---\n42\n');
    expect(r.code).toBe(0);
    // kubectl cuts the stream at each --- line: nothing between two of them is no document
    expect(r.out).toContain('document #2  (<stdin>:7)\n  warning CNPGI090  not a Kubernetes object (a number, not an object); skipped');
  });

  test.each<[string[], string]>([
    [['cli/broken.yaml.txt'], 'cnpg-i-doctor: cli/broken.yaml.txt:6:1: Flow sequence in block collection must be sufficiently indented and end with a ]'],
    [['missing.yaml'], 'cnpg-i-doctor: missing.yaml: no such file or directory\n'],
    [['cli/nested/.hidden/..', '--format', 'xml'], "cnpg-i-doctor: --format must be text, json or sarif, not 'xml'\n"],
    [['--bogus', 'x'], 'cnpg-i-doctor: unknown option --bogus\n'],
    [['good-plugin.yaml', '--cnpg-version'], 'cnpg-i-doctor: --cnpg-version needs a value\n'],
    [['good-plugin.yaml', '--cnpg-version', 'latest'], "cnpg-i-doctor: --cnpg-version 'latest' is not a version; use MAJOR.MINOR.PATCH, e.g. '1.27.1'\n"],
  ])('unusable input %j: exit 2', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.err.startsWith(message)).toBe(true);
    expect(r.out).toBe('');
  });

  test('--format json prints a JSON error object on exit 2', async () => {
    let r = await run(['--format', 'json', 'cli/broken.yaml.txt']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({
      error: {
        message: 'cli/broken.yaml.txt:6:1: Flow sequence in block collection must be sufficiently indented and end with a ]',
        file: 'cli/broken.yaml.txt',
        line: 6,
        column: 1,
        exitCode: 2,
      },
    });
    r = await run(['--format=json', 'good-plugin.yaml', '--cnpg-version', 'foo']);
    expect(JSON.parse(r.out)).toEqual({ error: { message: "--cnpg-version 'foo' is not a version; use MAJOR.MINOR.PATCH, e.g. '1.27.1'", exitCode: 2 } });
    r = await run(['--format', 'json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out).error.message).toBe('no input: pass files, directories or - for stdin');
  });

  describe('a file that does not parse beside files that do: a report on the others, the file listed, exit 2', () => {
    const BROKEN = 'cli/broken.yaml.txt:6:1: Flow sequence in block collection must be sufficiently indented and end with a ]';
    const BAD_CLUSTER =
      'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: pg, namespace: cnpg-system}\nspec:\n  instances: 1\n  storage: {size: 1Gi}\n  plugins: [{name: unknown.example.com}]\n';

    test('text: the findings of the files read, then the files not read, then the counts', async () => {
      const r = await run(['good-plugin.yaml', 'cli/broken.yaml.txt', '-'], BAD_CLUSTER);
      expect(r.code).toBe(2);
      expect(r.err).toBe(`cnpg-i-doctor: ${BROKEN}\n`);
      expect(r.out).toMatch(/^cnpg-i-doctor: 10 objects in 2 files; /);
      expect(r.out).toContain('Cluster/cnpg-system/pg  (<stdin>:1)\n  error   CNPGI040');
      expect(r.out).toContain(`\nNot read (exit code 2; the findings above are of the other 2 files):\n  ${BROKEN}\n\n1 error, 0 warnings.\n`);
    });

    test('the other files alone are clean: still exit 2, since the input was not all read', async () => {
      const r = await run(['good-plugin.yaml', 'cli/broken.yaml.txt']);
      expect(r.code).toBe(2);
      expect(r.out).toContain('\nNo problems found.\n');
    });

    test('JSON: the report with notRead', async () => {
      const r = await run(['good-plugin.yaml', 'cli/broken.yaml.txt', '--format', 'json']);
      expect(r.code).toBe(2);
      const report = JSON.parse(r.out);
      expect(report.objectCount).toBe(9);
      expect(report.notRead).toEqual([{ message: BROKEN, file: 'cli/broken.yaml.txt', line: 6, column: 1 }]);
      expect(report.error).toBeUndefined();
      // absent when every file was read
      expect(JSON.parse((await run(['good-plugin.yaml', '--format', 'json'])).out).notRead).toBeUndefined();
    });

    test('every file that does not parse is listed; with none that parses, the first is the error', async () => {
      const r = await run(['cli/broken.yaml.txt', 'good-plugin.yaml', '-'], 'a: [\n');
      expect(r.code).toBe(2);
      expect(r.err.split('\n').filter(Boolean)).toEqual([`cnpg-i-doctor: ${BROKEN}`, expect.stringMatching(/^cnpg-i-doctor: <stdin>:2:1: /)]);
      const none = await run(['cli/broken.yaml.txt', '-', '--format', 'json'], 'a: [\n');
      expect(none.code).toBe(2);
      expect(JSON.parse(none.out).error.message).toBe(BROKEN);
      expect(none.err.split('\n').filter(Boolean)).toHaveLength(2);
    });
  });

  test('--fail-on-warnings exits 1 on warnings', async () => {
    const warningsOnly = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n';
    expect((await run(['-'], warningsOnly)).code).toBe(0);
    expect((await run(['-', '--fail-on-warnings'], warningsOnly)).code).toBe(1);
    expect((await run(['-', '--fail-on-warnings', '--operator-namespace', 'cnpg-system'], warningsOnly)).code).toBe(0);
    expect((await run(['-', '--fail-on-warnings=yes'], warningsOnly)).err).toBe('cnpg-i-doctor: --fail-on-warnings takes no value\n');
  });

  test('--disable silences rules, is validated, and is counted in the summary', async () => {
    let r = await run(['-', '--disable', 'CNPGI001,CNPGI090'], '42\n');
    expect(r.code).toBe(0);
    expect(r.out).toContain('No problems found (2 suppressed: CNPGI001 by --disable, CNPGI090 by --disable).\n');
    r = await run(['-', '--disable', 'CNPGI09', '--format', 'json'], '42\n');
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "cnpg-i-doctor: --disable 'CNPGI09' is not a rule of the doctor; did you mean CNPGI090? (the rules are listed in docs/doctor-rules.md)\n",
    );
    r = await run(['-', '--disable', 'CNPGI090', '--format', 'json', '--operator-namespace', 'x'], '42\n');
    expect(JSON.parse(r.out).summary).toEqual({ errors: 0, warnings: 0, suppressed: 1, withheld: 0 });
    expect(JSON.parse(r.out).suppressed[0]).toMatchObject({ ruleId: 'CNPGI090', suppressedBy: 'disable' });
  });

  test('the ignore annotation is counted in the summary', async () => {
    const pg =
      'apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: pg\n  annotations:\n    cnpg-i.dev/doctor-ignore: CNPGI040\nspec:\n  storage: {size: 1Gi}\n  plugins:\n    - name: x.example.com\n';
    let r = await run(['-', '--operator-namespace', 'cnpg-system', '--format', 'json'], pg);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).summary).toEqual({ errors: 0, warnings: 0, suppressed: 1, withheld: 0 });
    r = await run(['-', '--operator-namespace', 'cnpg-system'], pg);
    expect(r.out).toContain('No problems found (1 suppressed: CNPGI040 by annotation).\n');
    r = await run(['-', '--operator-namespace', 'cnpg-system', '--complete'], pg.replace('CNPGI040', 'CNPGI04'));
    expect(r.code).toBe(1);
    expect(r.out).toContain("warning CNPGI091  annotation cnpg-i.dev/doctor-ignore names 'CNPGI04', which is no rule of the doctor (did you mean CNPGI040?)");
  });

  test('--sidecar-plugin names a sidecar; the text report lists it', async () => {
    const cluster =
      '---\napiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata:\n  name: pg\n  namespace: app\nspec:\n  storage: {size: 1Gi}\n  plugins:\n    - name: cnpg-i-hello-world.cloudnative-pg.io\n';
    const operator = fs.readFileSync(path.join(FIXTURES, 'sidecar-operator.yaml'), 'utf8');
    let r = await run(['-'], operator + cluster);
    expect(r.code).toBe(0); // the unnamed sidecar may serve it: a warning
    r = await run(['-', '--sidecar-plugin', 'hello=cnpg-i-hello-world.cloudnative-pg.io'], operator + cluster);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      'Plugins the operator would discover:\n  cnpg-i-hello-world.cloudnative-pg.io  (Deployment/cnpg-system/cnpg-controller-manager, unix:///plugins/cnpg-i-hello-world.cloudnative-pg.io, sidecar socket)\n',
    );
    r = await run(['-', '--sidecar-plugin=hello=hello.example.com'], operator + cluster);
    expect(r.code).toBe(1);
    expect(r.out).toContain("error   CNPGI040  Cluster names plugin 'cnpg-i-hello-world.cloudnative-pg.io', which is not discovered");
    r = await run(['-', '--sidecar-plugin', 'hello'], operator);
    expect(r.err).toBe("cnpg-i-doctor: --sidecar-plugin 'hello' must be CONTAINER=NAME, e.g. --sidecar-plugin barman-cloud=barman-cloud.cloudnative-pg.io\n");
  });

  describe("the example app's synthesized output (dist/)", () => {
    const DIST = path.join(ROOT, 'dist');
    const AUDIT = 'audit.example.com';
    const cluster = `apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: audited, namespace: databases}\nspec:\n  instances: 1\n  storage: {size: 1Gi}\n  plugins:\n    - name: ${AUDIT}\n`;

    test('lists its sidecar plugin without flags, named by the operator Deployment itself', async () => {
      const r = await run([DIST]);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`  ${AUDIT}  (Deployment/cnpg-system/cnpg-controller-manager, unix:///plugins/${AUDIT}, sidecar socket)\n`);
      expect(r.out).toContain('No problems found.');
    });

    test('a Cluster using that sidecar is fine without flags; without the annotation it is a warning again', async () => {
      let r = await run([DIST, '-'], cluster);
      expect(r.code).toBe(0);
      expect(r.out).not.toContain('CNPGI040');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-'));
      try {
        for (const f of fs.readdirSync(DIST).filter((n) => n.endsWith('.yaml'))) {
          const text = fs.readFileSync(path.join(DIST, f), 'utf8');
          fs.writeFileSync(path.join(dir, f), text.replace(/^ {4}cnpg-i\.dev\/sidecar-plugins: .*\n/m, ''));
        }
        expect(fs.readFileSync(path.join(dir, 'cnpg-system.k8s.yaml'), 'utf8')).not.toContain('cnpg-i.dev/sidecar-plugins');
        r = await run([dir, '-'], cluster);
        expect(r.code).toBe(0);
        expect(r.out).toContain(`warning CNPGI040  Cluster names plugin '${AUDIT}', which is not discovered`);
        r = await run([dir, '-', '--sidecar-plugin', `audit=${AUDIT}`], cluster);
        expect(r.out).not.toContain('CNPGI040');
      } finally {
        fs.rmSync(dir, { recursive: true });
      }
    });
  });

  test("a dist/ folder's construct-metadata.json is not read", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-'));
    fs.copyFileSync(path.join(FIXTURES, 'good-plugin.yaml'), path.join(dir, 'plugins.k8s.yaml'));
    fs.writeFileSync(path.join(dir, 'construct-metadata.json'), JSON.stringify({ version: '1.0.0', resources: {} }));
    const { code, out } = await runCli(main, [dir]);
    expect(code).toBe(0);
    expect(out).toContain('No problems found.');
    expect(out).not.toContain('CNPGI090');
  });

  test('a directory without manifests is unusable', async () => {
    const empty = fs.mkdtempSync(path.join(require('os').tmpdir(), 'doctor-'));
    try {
      const e = await run([empty]);
      expect(e.code).toBe(2);
      expect(e.err).toBe(`cnpg-i-doctor: ${empty}: no .yaml, .yml or .json files in this directory\n`);
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });

  test('no arguments prints usage on stderr; --help on stdout', async () => {
    expect((await run([])).code).toBe(2);
    const h = await run(['--help']);
    expect(h.code).toBe(0);
    expect(h.out).toContain('usage: cnpg-i-doctor [options] <file|dir|->...');
  });

  test('the bin script runs the CLI as a process', () => {
    const bin = path.join(ROOT, 'bin', 'cnpg-i-doctor.js');
    const out = execFileSync(process.execPath, [bin, path.join(FIXTURES, 'good-plugin.yaml')], { encoding: 'utf8' });
    expect(out).toContain('No problems found.');
    const bad = spawnSync(process.execPath, [bin, '-'], { input: 'a: [1\n', encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('<stdin>:2:1:');
  });
});
