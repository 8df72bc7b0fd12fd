import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CERT_MANAGER_CODE_DEFAULT_CLUSTER_RESOURCE_NAMESPACE,
  DEFAULT_CLUSTER_RESOURCE_NAMESPACE,
  certManagerIndex,
  checkClientTrust,
  clientIssuance,
  resolveClusterResourceNamespace,
} from '../../src/checks/client-trust';

// Throw-away test certificates: a self-signed one, and an intermediate CA signed by a root.
const SELF_SIGNED = readFileSync(join(__dirname, '../fixtures/fidelity/client.crt'), 'utf8');
const INTERMEDIATE = readFileSync(join(__dirname, '../fixtures/fidelity/intermediate.crt'), 'utf8');

const ns = 'cnpg-system';
const issuer = (name: string, spec: object, kind = 'Issuer') => ({ kind, metadata: { name, namespace: kind === 'Issuer' ? ns : undefined }, spec });
const cert = (secretName: string, issuerName: string, kind = 'Issuer', namespace = ns) => ({
  kind: 'Certificate',
  metadata: { name: secretName, namespace },
  spec: { secretName, issuerRef: { name: issuerName, kind } },
});
const secret = (name: string, namespace: string, crt: string) => ({
  kind: 'Secret',
  metadata: { name, namespace },
  data: { 'tls.crt': Buffer.from(crt).toString('base64') },
});
const certManager = (args: string[], namespace = 'cert-manager') => ({
  kind: 'Deployment',
  metadata: { name: 'cert-manager', namespace },
  spec: { template: { spec: { containers: [{ name: 'cert-manager-controller', image: 'quay.io/jetstack/cert-manager-controller:v1.21.1', args }] } } },
});

describe('clientIssuance', () => {
  const issuers = [
    issuer('self', { selfSigned: {} }),
    issuer('root', { ca: { secretName: 'root-ca' } }),
    issuer('inter', { ca: { secretName: 'inter-ca' } }),
    issuer('acme', { acme: {} }),
    issuer('bare', { ca: { secretName: 'nowhere' } }),
  ];
  const certs = [
    cert('root-ca', 'self'),
    cert('inter-ca', 'root'),
    cert('client-ss', 'self'),
    cert('client-root', 'root'),
    cert('client-inter', 'inter'),
    cert('client-acme', 'acme'),
    cert('client-bare', 'bare'),
    cert('client-lost', 'missing'),
    { ...cert('client-ext', 'x'), spec: { secretName: 'client-ext', issuerRef: { name: 'x', kind: 'VaultIssuer', group: 'example.io' } } },
  ];
  test.each([
    ['client-ss', 'self-signed'],
    ['client-root', 'single-tier-ca'],
    ['client-inter', 'intermediate-ca'],
    ['absent', 'unknown'],
    ['client-acme', 'other-ca'],
    ['client-ext', 'other-ca'],
    ['client-bare', 'ca-unknown-tier'],
    ['client-lost', 'unknown'],
  ])('%p is %p', (name, kind) => {
    expect(clientIssuance(name, ns, certManagerIndex({ certificates: certs, issuers })).kind).toBe(kind);
  });

  test('a CA Secret in the input tells the tier from its own PEM when no Certificate writes it', () => {
    const idx = (crt: string) => certManagerIndex({ certificates: [cert('client', 'bare')], issuers, secrets: [secret('nowhere', ns, crt)] });
    expect(clientIssuance('client', ns, idx(SELF_SIGNED)).kind).toBe('single-tier-ca');
    expect(clientIssuance('client', ns, idx(INTERMEDIATE)).kind).toBe('intermediate-ca');
  });

  describe("a ClusterIssuer's CA Secret is read from the cluster-resource namespace only", () => {
    const clusterIssuers = [issuer('self', { selfSigned: {} }, 'ClusterIssuer'), issuer('corp', { ca: { secretName: 'corp-ca' } }, 'ClusterIssuer')];
    const leaf = cert('client', 'corp', 'ClusterIssuer');
    const classify = (caNamespace: string, clusterResourceNamespace?: string) =>
      clientIssuance(
        'client',
        ns,
        certManagerIndex({
          certificates: [leaf, cert('corp-ca', 'self', 'ClusterIssuer', caNamespace)],
          issuers: clusterIssuers,
          clusterResourceNamespace,
        }),
      ).kind;
    test('found in cert-manager by default', () => expect(classify('cert-manager')).toBe('single-tier-ca'));
    test('a CA Secret in the leaf namespace is not where cert-manager looks', () => expect(classify(ns)).toBe('ca-unknown-tier'));
    test('the option moves the namespace', () => {
      expect(classify(ns, ns)).toBe('single-tier-ca');
      expect(classify('cert-manager', ns)).toBe('ca-unknown-tier');
    });
  });
});

describe('resolveClusterResourceNamespace', () => {
  const nsOf = (o: { metadata?: { namespace?: string } }) => o.metadata?.namespace;
  test('the option wins', () => {
    expect(resolveClusterResourceNamespace([certManager(['--cluster-resource-namespace=x'])], 'given', nsOf)).toBe('given');
  });
  test("the controller's flag: literal, $(POD_NAMESPACE), separate value, or absent (the code default kube-system)", () => {
    expect(resolveClusterResourceNamespace([certManager(['--v=2', '--cluster-resource-namespace=$(POD_NAMESPACE)'], 'certs')], undefined, nsOf)).toBe('certs');
    expect(resolveClusterResourceNamespace([certManager(['--cluster-resource-namespace', 'issuers'])], undefined, nsOf)).toBe('issuers');
    expect(resolveClusterResourceNamespace([certManager(['--v=2'])], undefined, nsOf)).toBe(CERT_MANAGER_CODE_DEFAULT_CLUSTER_RESOURCE_NAMESPACE);
    expect(CERT_MANAGER_CODE_DEFAULT_CLUSTER_RESOURCE_NAMESPACE).toBe('kube-system');
  });
  test('no cert-manager controller in the input: the Helm chart / static manifest namespace', () => {
    expect(resolveClusterResourceNamespace([], undefined, nsOf)).toBe(DEFAULT_CLUSTER_RESOURCE_NAMESPACE);
    expect(DEFAULT_CLUSTER_RESOURCE_NAMESPACE).toBe('cert-manager');
  });
});

describe('checkClientTrust', () => {
  const of = (kind: Parameters<typeof checkClientTrust>[2]['kind']) => ({ kind, detail: '' });
  test('self-signed: trusting the client Secret itself works, any other Secret is an error', () => {
    expect(checkClientTrust('client', 'client', of('self-signed'))).toEqual([]);
    expect(checkClientTrust('client', 'client-copy', of('self-signed')).map((i) => i.severity)).toEqual(['error']);
  });
  test('CA-issued certificates are not this rule (the single-tier trap is CNPGI025)', () => {
    for (const k of ['single-tier-ca', 'intermediate-ca', 'other-ca', 'ca-unknown-tier', 'unknown'] as const) {
      expect(checkClientTrust('client', 'client', of(k))).toEqual([]);
      expect(checkClientTrust('client', 'other', of(k))).toEqual([]);
    }
  });
});
