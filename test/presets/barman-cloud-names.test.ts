import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { BarmanCloudNames, BarmanCloudPlugin, IssuerRef, PluginTls, planChanges } from '../../src';
import { expectValidationError } from '../util';

/** The names a manifest gives its objects, and the names its objects point at. */
interface NameFact {
  kind: string;
  name: string;
  namespaced: boolean;
  secrets?: string[];
  selector?: Record<string, string>;
  serviceAccountName?: string;
  secretName?: string;
  issuer?: string;
  roleRef?: string;
  subjects?: string[];
}

const SHARED = path.resolve(__dirname, '..', '..', '..', 'shared');
const REFERENCE = path.join(SHARED, 'reference', 'plugin-barman-cloud-v0.14.0-manifest.yaml');
const haveShared = fs.existsSync(SHARED);
if (!haveShared && process.env.CNPG_I_REQUIRE_SHARED === '1') throw new Error(`../shared is required (CNPG_I_REQUIRE_SHARED=1) but ${SHARED} is missing`);
const describeShared = haveShared ? describe : describe.skip;
if (!haveShared) console.warn('skipping the comparison with the upstream manifest: ../shared not found beside the repository');

/**
 * Upstream objects the preset does not write: the CRD (opt-in `objectStoreCrd`), the aggregated
 * user-facing ClusterRoles, and the kustomize-generated Secret holding SIDECAR_IMAGE (the preset
 * uses a ConfigMap; the old Secret is left to pruning).
 */
function writtenByPreset(f: NameFact): boolean {
  return (
    f.kind !== 'CustomResourceDefinition' &&
    !(f.kind === 'ClusterRole' && /metrics-reader|objectstore-(editor|viewer)-role/.test(f.name)) &&
    !(f.kind === 'Secret' && f.name.startsWith('plugin-barman-cloud-'))
  );
}

function factsOf(objects: any[]): NameFact[] {
  return objects
    .filter((d) => d && d.kind)
    .map((d) => {
      const m = d.metadata;
      const f: NameFact = { kind: d.kind, name: m.name, namespaced: m.namespace !== undefined };
      if (d.kind === 'Service') f.secrets = [m.annotations['cnpg.io/pluginClientSecret'], m.annotations['cnpg.io/pluginServerSecret']];
      if (d.kind === 'Deployment') {
        f.selector = d.spec.selector.matchLabels;
        f.serviceAccountName = d.spec.template.spec.serviceAccountName;
      }
      if (d.kind === 'Certificate') {
        f.secretName = d.spec.secretName;
        f.issuer = d.spec.issuerRef.name;
      }
      if (d.kind === 'RoleBinding' || d.kind === 'ClusterRoleBinding') {
        f.roleRef = d.roleRef.name;
        f.subjects = d.subjects.map((s: any) => s.name);
      }
      return f;
    });
}

function synthUpstream(namespace: string): any[] {
  const chart = new Chart(Testing.app(), 'system', { namespace });
  new BarmanCloudPlugin(chart, 'barman', { names: BarmanCloudNames.upstream() });
  return Testing.synth(chart);
}

/** Every upstream object the preset writes has the same kind, name and references in our output, in the chart's namespace. */
function expectAdopts(upstream: NameFact[], objects: any[], namespace: string): void {
  const ours = new Map(factsOf(objects).map((f) => [`${f.kind}/${f.name}`, f]));
  const expected = upstream.filter(writtenByPreset);
  expect(expected.length).toBe(12);
  for (const f of expected) {
    expect(ours.get(`${f.kind}/${f.name}`)).toEqual(f);
  }
  for (const o of objects) {
    if (o.metadata.namespace !== undefined) expect(o.metadata.namespace).toBe(namespace);
  }
  for (const b of objects.filter((o) => o.kind.endsWith('RoleBinding'))) {
    expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'plugin-barman-cloud', namespace }]);
  }
}

describe('BarmanCloudNames.upstream()', () => {
  let fixture: NameFact[];
  beforeAll(() => {
    fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'barman-cloud', 'upstream-v0.14.0-names.json'), 'utf8')).objects;
  });

  test('writes the names of the v0.14.0 manifest (fixture), in the chart namespace', () => {
    expectAdopts(fixture, synthUpstream('cnpg-system'), 'cnpg-system');
    expectAdopts(fixture, synthUpstream('backup-operators'), 'backup-operators');
  });

  test('the Service annotations, the mounts and the server certificate follow the fixed names', () => {
    const objects = synthUpstream('cnpg-system');
    const service = objects.find((o) => o.kind === 'Service');
    expect(service.spec.selector).toEqual({ app: 'barman-cloud' });
    const deployment = objects.find((o) => o.kind === 'Deployment');
    expect(deployment.spec.template.metadata.labels).toMatchObject({ app: 'barman-cloud' });
    expect(deployment.spec.template.spec.volumes.map((v: any) => v.secret.secretName).sort()).toEqual(['barman-cloud-client-tls', 'barman-cloud-server-tls']);
    const server = objects.find((o) => o.kind === 'Certificate' && o.metadata.name === 'barman-cloud-server');
    expect(server.spec.dnsNames).toContain('barman-cloud');
    const policy = objects.find((o) => o.kind === 'NetworkPolicy');
    expect(policy.spec.podSelector).toEqual({ matchLabels: { app: 'barman-cloud' } });
  });

  test('with another TLS mode, the leaf issuer keeps a generated name; fromSecrets keeps your Secrets', () => {
    const chart = new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
    new BarmanCloudPlugin(chart, 'barman', { names: BarmanCloudNames.upstream(), tls: PluginTls.privateCa() });
    const issuers = Testing.synth(chart)
      .filter((o) => o.kind === 'Issuer')
      .map((o) => o.metadata.name);
    expect(issuers).not.toContain('selfsigned-issuer');
    const other = new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
    const own = new BarmanCloudPlugin(other, 'barman', {
      names: BarmanCloudNames.upstream(),
      tls: PluginTls.fromSecrets({ clientSecretName: 'mine-client', serverSecretName: 'mine-server' }),
    });
    expect([own.plugin.clientSecretName, own.plugin.serverSecretName]).toEqual(['mine-client', 'mine-server']);
    const byIssuer = new BarmanCloudPlugin(new Chart(Testing.app(), 's', { namespace: 'cnpg-system' }), 'barman', {
      names: BarmanCloudNames.upstream(),
      tls: PluginTls.fromIssuer(IssuerRef.clusterIssuer('corp-ca')),
    });
    expect(byIssuer.plugin.serverSecretName).toBe('barman-cloud-server-tls');
  });

  test('adopting an upstream install plans no outage; generated names plan a Service rename', () => {
    const upstream = synthUpstream('cnpg-system');
    const cluster = {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: { name: 'pg', namespace: 'apps' },
      spec: { instances: 1, storage: { size: '1Gi' }, plugins: [{ name: BarmanCloudPlugin.PLUGIN_NAME }] },
    };
    const chart = new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
    new BarmanCloudPlugin(chart, 'barman');
    const generated = Testing.synth(chart);
    expect(planChanges([...upstream, cluster], [...upstream, cluster]).findings).toEqual([]);
    expect(planChanges([...upstream, cluster], [...generated, cluster]).findings.map((f) => f.ruleId)).toEqual(['CNPGI251']);
  });

  test('the default is generated names, unchanged', () => {
    const a = new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
    new BarmanCloudPlugin(a, 'barman');
    const b = new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
    new BarmanCloudPlugin(b, 'barman', { names: BarmanCloudNames.generated() });
    expect(Testing.synth(b)).toEqual(Testing.synth(a));
    expect(BarmanCloudNames.generated().isFixed).toBe(false);
    expect(BarmanCloudNames.upstream().isFixed).toBe(true);
  });

  test('validation', () => {
    const chart = () => new Chart(Testing.app(), 'system', { namespace: 'cnpg-system' });
    expectValidationError(
      () => new BarmanCloudPlugin(chart(), 'barman', { names: BarmanCloudNames.upstream(), serviceName: 'mine' }),
      "system/barman: serviceName 'mine' conflicts with names, which fixes the Service name to 'barman-cloud'; remove serviceName, or use BarmanCloudNames.generated()",
    );
    expectValidationError(
      () => new BarmanCloudPlugin(chart(), 'barman', { names: 'upstream' as any }),
      "system/barman: names 'upstream' must be a BarmanCloudNames, not a string; use BarmanCloudNames.upstream() or BarmanCloudNames.generated()",
    );
  });
});

describeShared('BarmanCloudNames.upstream() against ../shared/reference', () => {
  let reference: NameFact[];
  beforeAll(() => {
    reference = factsOf(YAML.parseAllDocuments(fs.readFileSync(REFERENCE, 'utf8')).map((d) => d.toJS()));
  });

  test('the preset writes the names of the reference manifest', () => {
    expectAdopts(reference, synthUpstream('cnpg-system'), 'cnpg-system');
  });

  test('the fixture is the reference, so the offline test checks the same names', () => {
    const fixture = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'barman-cloud', 'upstream-v0.14.0-names.json'), 'utf8')).objects;
    expect(fixture).toEqual(reference);
  });
});
