import { checkCertificate, checkClusterIssuerSecret } from '../../src/checks/certificate';

const cert = (spec: object) => ({
  kind: 'Certificate',
  metadata: { name: 'c', namespace: 'cnpg-system' },
  spec: { secretName: 'plugin-server', issuerRef: { name: 'i' }, ...spec },
});
const paths = (spec: object) => checkCertificate(cert(spec)).map((i) => i.path);

describe('checkCertificate (cert-manager webhook)', () => {
  test('the reference server and client certificates pass', () => {
    expect(paths({ dnsNames: ['barman-cloud'], usages: ['server auth'], duration: '2160h', renewBefore: '360h' })).toEqual([]);
    expect(paths({ commonName: 'barman-cloud-client', usages: ['client auth'], privateKey: { algorithm: 'ECDSA', size: 256 } })).toEqual([]);
    expect(paths({ ipAddresses: ['10.0.0.1'], privateKey: { algorithm: 'Ed25519', size: 1 } })).toEqual([]);
  });

  test('no identity at all', () => {
    expect(checkCertificate(cert({ usages: ['client auth'] }))).toEqual([
      {
        severity: 'error',
        path: 'spec',
        message: 'has no identity (commonName, dnsNames, uris, emailAddresses, ipAddresses or otherNames); the cert-manager webhook refuses the Certificate',
        fix: 'add dnsNames (for a server) or a commonName (for a client)',
      },
    ]);
  });

  test('usages as the enum spells them', () => {
    expect(checkCertificate(cert({ dnsNames: ['a'], usages: ['serverAuth', 'client auth'] }))).toEqual([
      expect.objectContaining({ path: 'spec.usages[0]', fix: "write 'server auth'" }),
    ]);
  });

  test.each([
    [{ privateKey: { algorithm: 'RSA', size: 1024 } }, 'spec.privateKey.size'],
    [{ privateKey: { size: 16384 } }, 'spec.privateKey.size'],
    [{ privateKey: { algorithm: 'ECDSA', size: 2048 } }, 'spec.privateKey.size'],
    [{ privateKey: { algorithm: 'ecdsa' } }, 'spec.privateKey.algorithm'],
    [{ privateKey: { algorithm: 'ECDSA' }, signatureAlgorithm: 'SHA256WithRSA' }, 'spec.signatureAlgorithm'],
    [{ duration: '30m' }, 'spec.duration'],
    [{ duration: '90d' }, 'spec.duration'],
    [{ renewBefore: '1m' }, 'spec.renewBefore'],
    [{ duration: '24h', renewBefore: '24h' }, 'spec.renewBefore'],
    [{ renewBefore: '360h', renewBeforePercentage: 10 }, 'spec.renewBeforePercentage'],
    [{ revisionHistoryLimit: 0 }, 'spec.revisionHistoryLimit'],
    [{ ipAddresses: ['barman-cloud'] }, 'spec.ipAddresses[0]'],
    [{ commonName: 'x'.repeat(65) }, 'spec.commonName'],
    [{ secretName: 'Plugin_Server' }, 'spec.secretName'],
  ])('refuses %p', (spec, path) => {
    expect(paths({ dnsNames: ['a'], ...spec })).toEqual([path]);
  });
});

describe('checkClusterIssuerSecret', () => {
  const issuer = { kind: 'ClusterIssuer', metadata: { name: 'ca' }, spec: { ca: { secretName: 'root-ca' } } };
  test('a CA Secret in the cluster-resource namespace passes; only elsewhere is an error', () => {
    expect(checkClusterIssuerSecret(issuer, [{ namespace: 'cert-manager', what: 'Secret' }], 'cert-manager')).toEqual([]);
    expect(checkClusterIssuerSecret(issuer, [], 'cert-manager')).toEqual([]);
    expect(
      checkClusterIssuerSecret(
        issuer,
        [
          { namespace: 'cnpg-system', what: 'Secret' },
          { namespace: 'cert-manager', what: "written by Certificate 'root-ca'" },
        ],
        'cert-manager',
      ),
    ).toEqual([]);
    expect(checkClusterIssuerSecret(issuer, [{ namespace: 'cnpg-system', what: 'Secret' }], 'cert-manager')[0].message).toBe(
      "CA Secret 'root-ca' is only in 'cnpg-system' (Secret), but cert-manager reads a ClusterIssuer's CA Secret from its cluster-resource namespace 'cert-manager'; issuance fails",
    );
  });
  test('the namespace is the one given', () => {
    expect(checkClusterIssuerSecret(issuer, [{ namespace: 'cnpg-system', what: 'Secret' }], 'cnpg-system')).toEqual([]);
  });
});
