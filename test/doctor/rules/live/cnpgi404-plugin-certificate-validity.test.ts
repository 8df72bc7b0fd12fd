import { fixture } from '../../../live/fake-apiserver';
import { healthyCluster, liveFindings } from '../../../live/live-cluster';

const b64 = (t: string) => Buffer.from(t).toString('base64');
const FIX =
  'Renew the certificate: `cmctl renew <certificate> -n <namespace>` (or delete the Secret so cert-manager issues it again); for a Secret you manage, write a certificate valid now whose DNS SANs include the verified name.';

describe('CNPGI404 plugin-certificate-validity (read from the real certificate)', () => {
  const objects = healthyCluster();
  const service = objects.find((o) => o.kind === 'Service')!.metadata.name;
  const serverSecret = objects.find((o) => o.kind === 'Secret' && o.metadata.name.includes('servercertificate'))!.metadata.name;
  const clientSecret = objects.find((o) => o.kind === 'Secret' && o.metadata.name.includes('clientcertificate'))!.metadata.name;
  const of = (role: string) =>
    `the ${role} certificate of plugin 'barman-cloud.cloudnative-pg.io' (tls.crt of this Secret, named by Service/cnpg-system/${service})`;
  const serverEnd = new Date(new (require('crypto').X509Certificate)(fixture('plugin-server.crt')).validTo).toISOString();
  const clientEnd = new Date(new (require('crypto').X509Certificate)(fixture('plugin-client.crt')).validTo).toISOString();

  test('expired, at the time of the read', () => {
    expect(liveFindings(healthyCluster(), 'CNPGI404', new Date('2127-01-01T00:00:00Z'))).toEqual([
      {
        severity: 'error',
        object: `Secret/cnpg-system/${serverSecret}`,
        message: `${of('server')} expired at ${serverEnd}; the TLS handshake between the operator and the plugin fails`,
        fix: FIX,
        path: 'data.tls.crt',
      },
      {
        severity: 'error',
        object: `Secret/cnpg-system/${clientSecret}`,
        message: `${of('client')} expired at ${clientEnd}; the TLS handshake between the operator and the plugin fails`,
        fix: FIX,
        path: 'data.tls.crt',
      },
    ]);
  });

  test('not yet valid, and without the DNS SAN the operator verifies', () => {
    const wrong = healthyCluster();
    wrong.find((o) => o.kind === 'Secret' && o.metadata.name === serverSecret)!.data['tls.crt'] = b64(fixture('plugin-wrong-san.crt'));
    const start = new Date(new (require('crypto').X509Certificate)(fixture('plugin-wrong-san.crt')).validFrom).toISOString();
    const found = liveFindings(wrong, 'CNPGI404', new Date('2020-01-01T00:00:00Z'));
    expect(found[0].message).toBe(
      `${of('server')} is not valid before ${start}, and has no DNS SAN matching 'barman-cloud', the name the operator verifies (DNS SANs: other-name); the TLS handshake between the operator and the plugin fails`,
    );
    expect(liveFindings(wrong, 'CNPGI404').map((f) => f.message)).toEqual([
      `${of('server')} has no DNS SAN matching 'barman-cloud', the name the operator verifies (DNS SANs: other-name); the TLS handshake between the operator and the plugin fails`,
    ]);
  });

  test('near misses pass: valid now with the SAN; the common name alone is not enough', () => {
    expect(liveFindings(healthyCluster(), 'CNPGI404')).toEqual([]);
    // plugin-wrong-san has CN barman-cloud: Go checks DNS SANs only, so it still fails (above);
    // the client certificate needs no SAN at all
    const clientOnly = healthyCluster();
    clientOnly.find((o) => o.kind === 'Secret' && o.metadata.name === clientSecret)!.data['tls.crt'] = b64(fixture('plugin-wrong-san.crt'));
    expect(liveFindings(clientOnly, 'CNPGI404')).toEqual([]);
    expect(liveFindings(healthyCluster(), 'CNPGI404', new Date('2127-01-01T00:00:00Z'), ['Secret'])).toEqual([]);
  });
});
