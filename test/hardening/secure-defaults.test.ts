import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { PluginTls, StandalonePlugin, StandalonePluginProps } from '../../src';
import { checkManifests } from '../../src/doctor';
import { TLS_FLAGS, expectMutualTls, expectStrongCertificates, pluginParts } from './checks';
import { JUNK_VALUES } from './mutation';
import { podTemplates, restrictedViolations, secretProblems } from './oracle';

/*
 * Secure defaults, checked by rules on the example app's output (synthesized here in process) and on chosen props; the property tests apply the same rules
 * (restricted PSS, no secret material, strong rotating keys, mTLS wiring) to every generated
 * output.
 */

const ROOT = path.join(__dirname, '..', '..');
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-i-secure-'));
// In process (the determinism test proves it equals `npm run synth`): no second esbuild run
// racing the determinism test's on the shared bundle cache.
const savedOutdir = process.env.CDK8S_OUTDIR;
process.env.CDK8S_OUTDIR = outdir;
try {
  jest.isolateModules(() => require(path.join(ROOT, 'src', 'main')));
} finally {
  if (savedOutdir === undefined) delete process.env.CDK8S_OUTDIR;
  else process.env.CDK8S_OUTDIR = savedOutdir;
}
const example: any[] = fs
  .readdirSync(outdir)
  .sort()
  .flatMap((f) => YAML.parseAllDocuments(fs.readFileSync(path.join(outdir, f), 'utf8')).map((d) => d.toJS()))
  .filter((d) => d !== null);
afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

describe('the example output', () => {
  test('has the objects the rules are about', () => {
    const kinds = new Set(example.map((o) => o.kind));
    for (const k of ['Deployment', 'Service', 'Certificate', 'ClusterRole', 'Role', 'Cluster', 'Backup', 'ScheduledBackup', 'ObjectStore']) {
      expect(kinds).toContain(k);
    }
  });

  test("every pod template satisfies the restricted Pod Security Standard (this test's rules and the doctor's CNPGI050)", () => {
    const templates = podTemplates(example);
    expect(templates.length).toBeGreaterThanOrEqual(2);
    for (const t of templates) expect([t.ref, restrictedViolations(t.spec)]).toEqual([t.ref, []]);
    expect(checkManifests(example, { operatorNamespace: 'cnpg-system' })).toEqual([]);
  });

  test('RBAC: no wildcard, namespaced Roles for leader election, ClusterRoles only for what spans namespaces', () => {
    const roles = example.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole');
    for (const r of roles) {
      for (const rule of r.rules) {
        for (const field of ['apiGroups', 'resources', 'verbs', 'resourceNames']) {
          for (const v of rule[field] ?? []) expect([r.metadata.name, field, v]).not.toEqual([r.metadata.name, field, expect.stringContaining('*')]);
        }
        expect(rule.nonResourceURLs).toBeUndefined();
      }
    }
    // Leader election, events: the plugin's own namespace only.
    const namespacedOnly = ['leases', 'configmaps', 'events'];
    for (const r of roles.filter((x) => x.kind === 'ClusterRole')) {
      for (const rule of r.rules) for (const res of rule.resources) expect(namespacedOnly).not.toContain(res);
    }
    for (const r of roles.filter((x) => x.kind === 'Role')) expect(r.metadata.namespace).toBe('cnpg-system');
    // What the ClusterRoles grant: the objects of Clusters in any namespace, and the two
    // cluster-scoped review APIs of the metrics endpoint. Nothing else.
    const clusterWide = roles
      .filter((x) => x.kind === 'ClusterRole')
      .flatMap((r) => r.rules.flatMap((rule: any) => rule.resources))
      .sort();
    expect(clusterWide).toEqual([
      'backups',
      'clusters/finalizers',
      'objectstores',
      'objectstores/finalizers',
      'objectstores/status',
      'rolebindings',
      'roles',
      'secrets',
      'subjectaccessreviews',
      'tokenreviews',
    ]);
    // Bindings name the plugin's own ServiceAccount only.
    for (const b of example.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding')) {
      expect(b.subjects).toHaveLength(1);
      expect(b.subjects[0]).toMatchObject({ kind: 'ServiceAccount', namespace: 'cnpg-system' });
      expect(example.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === b.subjects[0].name)).toBe(true);
    }
  });

  test('no secret material: no Secret with data, no PEM block, no literal under a password-like key', () => {
    expect(secretProblems(example)).toEqual([]);
    expect(example.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  test('every Certificate has a key of at least P-256 and a new key on each renewal', () => {
    const certs = example.filter((o) => o.kind === 'Certificate');
    expect(certs.length).toBeGreaterThanOrEqual(5);
    expectStrongCertificates(example, false);
    for (const c of certs) expect(c.spec.privateKey).toEqual({ algorithm: 'ECDSA', size: 256, rotationPolicy: 'Always' });
  });

  test('both plugins are wired for mutual TLS', () => {
    expectMutualTls(example, 'barman-cloud.cloudnative-pg.io');
    expectMutualTls(example, 'cnpg-i-hello-world.cloudnative-pg.io');
  });
});

describe('RBAC rules are justified in the source', () => {
  test('each rule object of the Barman Cloud RBAC lists is preceded by a comment', () => {
    const source = fs.readFileSync(path.join(ROOT, 'src', 'presets', 'barman-cloud-plugin.ts'), 'utf8').split('\n');
    const ruleLines = source.map((l, i) => ({ l: l.trim(), i })).filter(({ l }) => /^\{ apiGroups: /.test(l));
    expect(ruleLines.length).toBe(12);
    for (const { i } of ruleLines) {
      let j = i - 1;
      while (j >= 0 && source[j].trim() === '') j--;
      expect([source[i].trim(), source[j].trim()]).toEqual([source[i].trim(), expect.stringMatching(/^\/\/ \S/)]);
    }
  });
});

describe('mutual TLS cannot be turned off', () => {
  const HELLO = { pluginName: 'hello.example.com', image: 'ghcr.io/example/hello:v1', args: ['plugin'] };
  const render = (props: Partial<StandalonePluginProps>) => {
    const chart = new Chart(Testing.app(), 'sys', { namespace: 'cnpg-system' });
    new StandalonePlugin(chart, 'p', { ...HELLO, ...props } as StandalonePluginProps);
    return Testing.synth(chart) as any[];
  };

  test('tls set to any junk value is refused, or (undefined, null) means the default selfSigned()', () => {
    for (const junk of JUNK_VALUES) {
      let objects: any[];
      try {
        objects = render({ tls: junk as PluginTls });
      } catch (e) {
        expect((e as Error).name).toBe('CnpgIValidationError');
        expect((e as Error).message).toMatch(/^sys\/p: tls /);
        continue;
      }
      expect([undefined, null]).toContain(junk);
      expectMutualTls(objects, HELLO.pluginName);
    }
  });

  test('every TLS mode writes both Secret annotations and the four flags', () => {
    for (const tls of [PluginTls.selfSigned(), PluginTls.privateCa(), PluginTls.fromSecrets({ clientSecretName: 'c', serverSecretName: 's' })]) {
      expectMutualTls(render({ tls }), HELLO.pluginName);
    }
  });

  test('appendTlsArgs: false leaves the flags to the user, who gets the paths; the Service side stays', () => {
    const chart = new Chart(Testing.app(), 'sys', { namespace: 'cnpg-system' });
    const plugin = new StandalonePlugin(chart, 'p', { ...HELLO, appendTlsArgs: false });
    const objects = Testing.synth(chart) as any[];
    const { container } = pluginParts(objects, HELLO.pluginName);
    expect(container.args).toEqual(['plugin']);
    expect(container.args.some((a: string) => TLS_FLAGS.includes(a.split('=')[0]))).toBe(false);
    expectMutualTls(objects, HELLO.pluginName, { appendTlsArgs: false });
    expect([plugin.serverCertPath, plugin.serverKeyPath, plugin.clientCaPath, plugin.serverAddress]).toEqual([
      '/server/tls.crt',
      '/server/tls.key',
      '/client/ca.crt',
      ':9090',
    ]);
    // It is documented as the user's job, on the prop and in the standalone-plugins guide.
    const source = fs.readFileSync(path.join(ROOT, 'src', 'plugins', 'standalone-plugin.ts'), 'utf8');
    expect(source).toMatch(
      /Whether to append the four TLS flags to `args`\. Turn it off only for a plugin whose flags are\s+\* named differently; build its arguments from `serverCertPath`, `serverKeyPath`,\s+\* `clientCaPath`/,
    );
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'guides', 'standalone-plugins.md'), 'utf8')).toContain(
      'sets `appendTlsArgs: false` and builds its arguments',
    );
    // The doctor cannot know flags of other names, so it says nothing: the wiring is the user's.
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' })).toEqual([]);
  });
});
