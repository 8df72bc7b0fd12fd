/*
 * Cross-object rules that compare namespaces (#29): where one of the compared objects has no
 * namespace (and neither Flux, kustomize nor --namespace gives it one), or the operator namespace
 * is only assumed, an error becomes a warning that says which namespace is assumed; a written
 * namespace, --namespace or --operator-namespace makes it an error again. Each rule has the three
 * cases: assumed -> warning, written -> error, near miss (the namespaces agree) -> nothing.
 */
import { analyzeManifests } from '../../src/doctor/check-manifests';
import { DoctorOptions } from '../../src/doctor/report';
import { Doc, doc, fixture, ofRule } from './helpers';

/** `severity object: message` of one rule's findings. */
function run(objects: Doc[], ruleId: string, options: DoctorOptions = {}): string[] {
  return ofRule(analyzeManifests(objects, options).findings, ruleId).map((f) => `${f.severity} ${f.object}: ${f.message}`);
}

const severities = (lines: string[]) => lines.map((l) => l.split(' ')[0]);
const NOTE = '(a warning, not an error: ';

/** The good plugin fixture (operator Deployment, plugin Service, Certificates, a Cluster) changed by `mutate`. */
function plugin(mutate: (docs: Doc[]) => void): Doc[] {
  const docs = fixture('good-plugin.yaml');
  mutate(docs);
  return docs;
}
const withoutOperator = (docs: Doc[]) => docs.splice(docs.indexOf(doc(docs, 'Deployment', 'cnpg-controller-manager')), 1);
const serviceIn = (ns: string) => (docs: Doc[]) => {
  doc(docs, 'Service', 'backup').metadata.namespace = ns;
};

describe('CNPGI017: a plugin Service outside the operator namespace', () => {
  test('the operator namespace only assumed (no operator Deployment, no flag): a warning that says so', () => {
    const found = run(
      plugin((d) => {
        serviceIn('plugins')(d);
        withoutOperator(d);
      }),
      'CNPGI017',
    );
    expect(found).toEqual([
      "warning Service/plugins/backup: plugin Service is in namespace 'plugins', but the operator only watches Services in its own namespace 'cnpg-system' (a warning, not an error: the operator namespace 'cnpg-system' is assumed; pass --namespace or --operator-namespace to say where it is applied)",
    ]);
  });
  test('the operator namespace known (its Deployment, or --operator-namespace): an error', () => {
    expect(severities(run(plugin(serviceIn('plugins')), 'CNPGI017'))).toEqual(['error']);
    const noOperator = plugin((d) => {
      serviceIn('plugins')(d);
      withoutOperator(d);
    });
    expect(severities(run(noOperator, 'CNPGI017', { operatorNamespace: 'cnpg-system' }))).toEqual(['error']);
  });
  test('near miss: the Service in the operator namespace, or without one (it lands there), passes', () => {
    expect(
      run(
        plugin(() => undefined),
        'CNPGI017',
      ),
    ).toEqual([]);
    expect(
      run(
        plugin((d) => delete doc(d, 'Service', 'backup').metadata.namespace),
        'CNPGI017',
      ),
    ).toEqual([]);
  });
});

describe('CNPGI040: a plugin whose Service is ignored for its namespace', () => {
  test('the operator namespace only assumed: a warning', () => {
    const found = run(
      plugin((d) => {
        serviceIn('plugins')(d);
        withoutOperator(d);
      }),
      'CNPGI040',
    );
    expect(severities(found)).toEqual(['warning', 'warning', 'warning', 'warning']);
    expect(found[0]).toContain("the operator namespace 'cnpg-system' is assumed; pass --namespace or --operator-namespace");
  });
  test('the operator namespace known: an error, with no note', () => {
    const found = run(plugin(serviceIn('plugins')), 'CNPGI040');
    expect(severities(found)).toEqual(['error', 'error', 'error', 'error']);
    expect(found[0]).not.toContain(NOTE);
    const noOperator = plugin((d) => {
      serviceIn('plugins')(d);
      withoutOperator(d);
    });
    expect(severities(run(noOperator, 'CNPGI040', { operatorNamespace: 'cnpg-system' }))).toEqual(['error', 'error', 'error', 'error']);
  });
  test('a name no Service serves stays an error whatever is assumed: no namespace is compared', () => {
    const found = run(
      plugin((d) => {
        doc(d, 'Cluster', 'pg').spec.plugins[0].name = 'other.example.com';
        withoutOperator(d);
      }),
      'CNPGI040',
    );
    expect(severities(found)).toEqual(['error']);
  });
  test('near miss: the Service in the operator namespace passes', () => {
    expect(
      run(
        plugin(() => undefined),
        'CNPGI040',
      ),
    ).toEqual([]);
  });
});

describe('CNPGI024: a plugin Certificate whose Issuer is in another namespace', () => {
  const issuerIn = (ns: string) => (docs: Doc[]) => {
    doc(docs, 'Issuer', 'backup-selfsigned').metadata.namespace = ns;
  };
  test('the Certificates without a namespace (assumed): a warning naming them', () => {
    const found = run(
      plugin((d) => {
        issuerIn('certs')(d);
        for (const c of d.filter((x) => x.kind === 'Certificate')) delete c.metadata.namespace;
      }),
      'CNPGI024',
    );
    expect(severities(found)).toEqual(['warning', 'warning']);
    expect(found[0]).toContain("Certificate 'backup-client' has no namespace ('cnpg-system' is assumed); pass --namespace");
  });
  test('written namespaces, or --namespace: an error', () => {
    expect(severities(run(plugin(issuerIn('certs')), 'CNPGI024'))).toEqual(['error', 'error']);
    const unwritten = plugin((d) => {
      issuerIn('certs')(d);
      for (const c of d.filter((x) => x.kind === 'Certificate')) delete c.metadata.namespace;
    });
    const found = run(unwritten, 'CNPGI024', { defaultNamespace: 'cnpg-system' });
    expect(severities(found)).toEqual(['error', 'error']);
    expect(found[0]).not.toContain(NOTE);
  });
  test('near miss: the Issuer in the Certificates namespace passes', () => {
    expect(
      run(
        plugin(() => undefined),
        'CNPGI024',
      ),
    ).toEqual([]);
  });
});

describe("CNPGI109: a ClusterIssuer's CA Secret outside the cluster-resource namespace", () => {
  const clusterIssuer = { apiVersion: 'cert-manager.io/v1', kind: 'ClusterIssuer', metadata: { name: 'ca' }, spec: { ca: { secretName: 'root-ca' } } };
  const secret = (namespace?: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: { name: 'root-ca', ...(namespace === undefined ? {} : { namespace }) },
    data: { 'tls.crt': 'eA==', 'tls.key': 'eA==' },
  });
  test('the Secret without a namespace: a warning', () => {
    expect(run([clusterIssuer, secret()], 'CNPGI109')).toEqual([
      "warning ClusterIssuer/ca: CA Secret 'root-ca' is only in 'cnpg-system' (Secret), but cert-manager reads a ClusterIssuer's CA Secret from its cluster-resource namespace 'cert-manager'; issuance fails (a warning, not an error: Secret 'root-ca' has no namespace ('cnpg-system' is assumed); pass --namespace to say where it is applied)",
    ]);
  });
  test('a written namespace, or --namespace: an error', () => {
    expect(severities(run([clusterIssuer, secret('cnpg-system')], 'CNPGI109'))).toEqual(['error']);
    expect(severities(run([clusterIssuer, secret()], 'CNPGI109', { defaultNamespace: 'apps' }))).toEqual(['error']);
  });
  test('near miss: the Secret in the cluster-resource namespace, written or given by --namespace, passes', () => {
    expect(run([clusterIssuer, secret('cert-manager')], 'CNPGI109')).toEqual([]);
    expect(run([clusterIssuer, secret()], 'CNPGI109', { defaultNamespace: 'cert-manager' })).toEqual([]);
  });
});

describe('CNPGI118: a backup whose Cluster is in another namespace (with --complete)', () => {
  const cluster = (namespace?: string) => ({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', ...(namespace === undefined ? {} : { namespace }) },
    spec: { instances: 1, storage: { size: '1Gi' } },
  });
  const backup = (namespace?: string) => ({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Backup',
    metadata: { name: 'now', ...(namespace === undefined ? {} : { namespace }) },
    spec: { cluster: { name: 'pg' } },
  });
  test('the Cluster or the Backup without a namespace: a warning, even with --complete', () => {
    const found = run([cluster(), backup('db')], 'CNPGI118', { complete: true });
    expect(severities(found)).toEqual(['warning']);
    expect(found[0]).toContain("(a warning, not an error: Cluster 'pg' has no namespace ('cnpg-system' is assumed); pass --namespace");
    expect(severities(run([cluster('db'), backup()], 'CNPGI118', { complete: true }))).toEqual(['warning']);
  });
  test('both namespaces written, or --namespace: an error with --complete, a warning without', () => {
    expect(severities(run([cluster('db'), backup('app')], 'CNPGI118', { complete: true }))).toEqual(['error']);
    expect(severities(run([cluster(), backup('db')], 'CNPGI118', { complete: true, defaultNamespace: 'app' }))).toEqual(['error']);
    expect(severities(run([cluster('db'), backup('app')], 'CNPGI118'))).toEqual(['warning']);
  });
  test('no Cluster of that name anywhere stays an error with --complete, assumed namespace or not', () => {
    const other = { ...cluster('db'), metadata: { name: 'other', namespace: 'db' } };
    expect(severities(run([other, backup()], 'CNPGI118', { complete: true }))).toEqual(['error']);
  });
  test('near miss: both without a namespace, or in the same one, pass', () => {
    expect(run([cluster(), backup()], 'CNPGI118', { complete: true })).toEqual([]);
    expect(run([cluster('db'), backup('db')], 'CNPGI118', { complete: true })).toEqual([]);
  });
});

describe('CNPGI119: a referenced Secret in another namespace (with --complete)', () => {
  const cluster = (namespace?: string) => ({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'pg', ...(namespace === undefined ? {} : { namespace }) },
    spec: { instances: 1, storage: { size: '1Gi' }, bootstrap: { initdb: { database: 'app', owner: 'app', secret: { name: 'app-creds' } } } },
  });
  const secret = (namespace?: string) => ({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/basic-auth',
    metadata: { name: 'app-creds', ...(namespace === undefined ? {} : { namespace }) },
    stringData: { username: 'app', password: 'x' },
  });
  test('the Secret or the Cluster without a namespace: a warning', () => {
    const found = run([cluster('db'), secret()], 'CNPGI119', { complete: true });
    expect(severities(found)).toEqual(['warning']);
    expect(found[0]).toContain("(a warning, not an error: Secret 'app-creds' has no namespace ('cnpg-system' is assumed); pass --namespace");
    expect(severities(run([cluster(), secret('db')], 'CNPGI119', { complete: true }))).toEqual(['warning']);
  });
  test('both written, or --namespace: an error', () => {
    expect(severities(run([cluster('db'), secret('app')], 'CNPGI119', { complete: true }))).toEqual(['error']);
    expect(severities(run([cluster('db'), secret()], 'CNPGI119', { complete: true, defaultNamespace: 'app' }))).toEqual(['error']);
  });
  test('no Secret of that name anywhere stays an error with --complete, assumed namespace or not', () => {
    expect(severities(run([cluster()], 'CNPGI119', { complete: true }))).toEqual(['error']);
  });
  test('near miss: both without a namespace, or in the same one, pass', () => {
    expect(run([cluster(), secret()], 'CNPGI119', { complete: true })).toEqual([]);
    expect(run([cluster('db'), secret('db')], 'CNPGI119', { complete: true })).toEqual([]);
  });
});
