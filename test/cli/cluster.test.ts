/*
 * `cnpg-i-doctor cluster` with real kubeconfig files, run as users run it (the bin script, in a
 * child process, so that @kubernetes/client-node reads the kubeconfig as it does for kubectl):
 * a bearer token, a client certificate, a context switch, an unreachable server, a forbidden list.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LIVE_KINDS } from '../../src/manifests/live-kinds';
import { FakeApiServer, fixture, startFakeApiServer } from '../live/fake-apiserver';
import { healthyCluster } from '../live/live-cluster';

const BIN = path.join(__dirname, '..', '..', 'bin', 'cnpg-i-doctor.js');
const b64 = (t: string) => Buffer.from(t).toString('base64');

let dir: string;
let server: FakeApiServer;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-kubeconfig-'));
  server = await startFakeApiServer({ objects: healthyCluster(), forbidden: [] });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface User {
  readonly name: string;
  readonly user: Record<string, string>;
}

/** A kubeconfig with one cluster entry per server and one context per (server, user). */
function kubeconfig(file: string, contexts: Array<{ name: string; server: string; user: User }>, current: string): string {
  const yaml = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    ...contexts.flatMap((c) => [`- name: ${c.name}`, '  cluster:', `    server: ${c.server}`, `    certificate-authority-data: ${b64(fixture('ca.crt'))}`]),
    'users:',
    ...contexts.flatMap((c) => [`- name: ${c.user.name}`, '  user:', ...Object.entries(c.user.user).map(([k, v]) => `    ${k}: ${v}`)]),
    'contexts:',
    ...contexts.flatMap((c) => [`- name: ${c.name}`, '  context:', `    cluster: ${c.name}`, `    user: ${c.user.name}`]),
    `current-context: ${current}`,
  ].join('\n');
  const p = path.join(dir, file);
  fs.writeFileSync(p, yaml + '\n');
  return p;
}

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'cluster', ...args], { env: { ...process.env, KUBECONFIG: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr });
    });
  });
}

const TOKEN: User = { name: 'token-user', user: { token: 'good-token' } };
const CERT: User = { name: 'cert-user', user: { 'client-certificate-data': b64(fixture('client.crt')), 'client-key-data': b64(fixture('client.key')) } };
const STALE: User = { name: 'stale-user', user: { token: 'stale-token' } };

describe('cnpg-i-doctor cluster: kubeconfig handling', () => {
  test('a bearer token', async () => {
    const file = kubeconfig('token.yaml', [{ name: 'token', server: server.url, user: TOKEN }], 'token');
    const r = await run(['--kubeconfig', file]);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n')[0]).toMatch(
      new RegExp(`^cnpg-i-doctor cluster: \\d+ objects read from ${server.url} \\(context 'token'\\) in ${LIVE_KINDS.length} list requests;`),
    );
    expect(r.stdout).toContain('No problems found.');
    expect(r.code).toBe(0);
  });

  test('a client certificate', async () => {
    const file = kubeconfig('cert.yaml', [{ name: 'cert', server: server.url, user: CERT }], 'cert');
    const r = await run(['--kubeconfig', file, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).live).toEqual({ server: server.url, context: 'cert', requests: LIVE_KINDS.length, notRead: [] });
  });

  test('an exec credential plugin, as kubectl runs it', async () => {
    const plugin = path.join(dir, 'credential.js');
    fs.writeFileSync(
      plugin,
      "process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'good-token' } }));\n",
    );
    const yaml = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: exec',
      '  cluster:',
      `    server: ${server.url}`,
      `    certificate-authority-data: ${b64(fixture('ca.crt'))}`,
      'users:',
      '- name: exec-user',
      '  user:',
      '    exec:',
      '      apiVersion: client.authentication.k8s.io/v1',
      `      command: ${JSON.stringify(process.execPath)}`,
      `      args: [${JSON.stringify(plugin)}]`,
      '      interactiveMode: Never',
      'contexts:',
      '- name: exec',
      '  context: {cluster: exec, user: exec-user}',
      'current-context: exec',
    ].join('\n');
    const file = path.join(dir, 'exec.yaml');
    fs.writeFileSync(file, yaml + '\n');
    const r = await run(['--kubeconfig', file]);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(r.stdout).toContain(`(context 'exec')`);
  });

  test('a context switch; refused credentials and an unreachable server are one line each', async () => {
    const file = kubeconfig(
      'contexts.yaml',
      [
        { name: 'down', server: 'https://127.0.0.1:1', user: TOKEN },
        { name: 'stale', server: server.url, user: STALE },
        { name: 'good', server: server.url, user: CERT },
      ],
      'down',
    );
    const down = await run(['--kubeconfig', file]);
    expect(down.code).toBe(2);
    expect(down.stderr).toBe(
      `cnpg-i-doctor cluster: cannot reach the API server https://127.0.0.1:1 (context 'down' of ${file}): ECONNREFUSED; check that the cluster runs and the address is right (kubectl --context down get --raw /version), or pass --context NAME\n`,
    );
    const stale = await run(['--kubeconfig', file, '--context', 'stale']);
    expect(stale.code).toBe(2);
    expect(stale.stderr).toBe(
      `cnpg-i-doctor cluster: the API server ${server.url} refused the credentials of user 'stale-user' (context 'stale'): 401 Unauthorized on GET /apis/apps/v1/deployments; renew the token or certificate in ${file}\n`,
    );
    const good = await run(['--kubeconfig', file, '--context', 'good']);
    expect(good.code).toBe(0);
    expect(good.stdout).toContain(`(context 'good')`);
    const missing = await run(['--kubeconfig', file, '--context', 'nope']);
    expect(missing.stderr).toBe(`cnpg-i-doctor cluster: --context nope: the kubeconfig ${file} has no such context; it has 'down', 'stale', 'good'\n`);
  });

  test('a forbidden list: partial results, said as such', async () => {
    const limited = await startFakeApiServer({ objects: healthyCluster(), forbidden: ['secrets'] });
    try {
      const file = kubeconfig('limited.yaml', [{ name: 'limited', server: limited.url, user: TOKEN }], 'limited');
      const r = await run(['--kubeconfig', file, '-n', 'cnpg-system', '-n', 'databases']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        'Not read (the results above are partial for these kinds):\n  cannot list secrets.core in namespace cnpg-system: 403 Forbidden',
      );
      expect(r.stderr.split('\n').filter((l) => l)).toEqual([
        expect.stringMatching(/^cnpg-i-doctor cluster: partial: cannot list secrets.core in namespace cnpg-system: 403 Forbidden for user 'token-user'/),
        expect.stringMatching(/^cnpg-i-doctor cluster: partial: cannot list secrets.core in namespace databases: 403 Forbidden for user 'token-user'/),
      ]);
      // read-only: every request is the LIST of a kind the doctor reads (the fake server answers GET only)
      expect(limited.requests.every((p) => LIVE_KINDS.some((k) => p.endsWith(`/${k.resource}`)))).toBe(true);
    } finally {
      await limited.close();
    }
  });

  test('--print-cluster-role prints the list-only ClusterRole without a cluster', async () => {
    const r = await run(['--print-cluster-role']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kind: ClusterRole');
    expect(r.stdout).not.toMatch(/- (get|watch|create|update|patch|delete)$/m);
  });
});
