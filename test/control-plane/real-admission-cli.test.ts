/**
 * `npm run real-admission` (scripts/real-admission.ts): one JSON line per object, exit 0 / 1 / 2,
 * and the operator's own messages for what it refuses.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeWithControlPlane } from './control-plane';

const ROOT = path.join(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

function run(args: string[]): { code: number | null; lines: Record<string, unknown>[]; stderr: string } {
  const r = spawnSync(TSX, [path.join(ROOT, 'scripts', 'real-admission.ts'), ...args], {
    encoding: 'utf8',
    timeout: 300_000,
    // the tests' own lease keeps the control plane up; the CLI's 10-minute one would outlive the run
    env: { ...process.env, CNPG_I_REAL_ADMISSION_KEEP_MS: '0' },
  });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { code: r.status, lines, stderr: r.stderr };
}

const cluster = (name: string, spec: string) => `apiVersion: postgresql.cnpg.io/v1
kind: Cluster
metadata:
  name: ${name}
spec:
  instances: 1
  storage:
    size: 1Gi
${spec}`;

describeWithControlPlane('npm run real-admission', () => {
  let dir = '';
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'real-admission-'));
    fs.writeFileSync(
      path.join(dir, 'refused.yaml'),
      [
        cluster('zero', '').replace('instances: 1', 'instances: 0'),
        cluster('no-plugin-name', '  plugins:\n    - enabled: true\n'),
        cluster('latest', '  imageName: ghcr.io/cloudnative-pg/postgresql:latest\n'),
      ].join('---\n'),
    );
    fs.writeFileSync(path.join(dir, 'good.yaml'), cluster('good', ''));
    fs.writeFileSync(path.join(dir, 'broken.yaml'), 'kind: [unclosed\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test("refuses instances: 0 and a :latest image with the API server's and the operator's own messages", () => {
    const r = run(['--namespace', 'cli-test', path.join(dir, 'refused.yaml')]);
    expect(r.code).toBe(1);
    expect(r.lines.map((l) => [l.index, l.name, l.namespace, l.allowed])).toEqual([
      [0, 'zero', 'cli-test', false],
      [1, 'no-plugin-name', 'cli-test', true],
      [2, 'latest', 'cli-test', false],
    ]);
    expect(Object.keys(r.lines[0])).toEqual(['file', 'index', 'apiVersion', 'kind', 'namespace', 'name', 'allowed', 'warnings', 'message']);
    // the CRD's minimum (api/v1 cluster_types.go: +kubebuilder:validation:Minimum=1)
    expect(r.lines[0].message).toContain('spec.instances: Invalid value: 0: spec.instances in body should be greater than or equal to 1');
    // internal/webhook/v1/cluster_webhook.go validateImageName, v1.30.0
    expect(r.lines[2].message).toContain(`admission webhook "vcluster.cnpg.io" denied the request`);
    expect(r.lines[2].message).toContain("Can't use 'latest' as image tag as we can't detect upgrades");
  });

  test('a plugin entry without a name is ALLOWED: the mutating webhook writes name: "" (CNPGI039 says what follows)', () => {
    const r = run([path.join(dir, 'refused.yaml')]);
    expect(r.lines[1]).toMatchObject({ name: 'no-plugin-name', namespace: 'default', allowed: true, message: '' });
  });

  test('exit 0 when every object is allowed', () => {
    const r = run([path.join(dir, 'good.yaml')]);
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      {
        file: path.join(dir, 'good.yaml'),
        index: 0,
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        namespace: 'default',
        name: 'good',
        allowed: true,
        warnings: [],
        message: '',
      },
    ]);
  });

  test('exit 2, nothing on stdout, for unusable input', () => {
    for (const args of [
      [path.join(dir, 'broken.yaml')],
      [path.join(dir, 'missing.yaml')],
      [],
      ['--namespace', 'Not_A_Name', path.join(dir, 'good.yaml')],
      ['--bogus'],
    ]) {
      const r = run(args);
      expect({ args, code: r.code, lines: r.lines }).toEqual({ args, code: 2, lines: [] });
      expect(r.stderr).toMatch(/^real-admission: /);
    }
  });
});
