import { certManagerIndex, checkClientTrust, clientIssuance } from '../../../src/doctor/fidelity/client-trust';

const ns = 'cnpg-system';
const issuer = (name: string, spec: object, kind = 'Issuer') => ({ kind, metadata: { name, namespace: kind === 'Issuer' ? ns : undefined }, spec });
const cert = (secretName: string, issuerName: string, kind = 'Issuer') => ({ kind: 'Certificate', metadata: { name: secretName, namespace: ns }, spec: { secretName, issuerRef: { name: issuerName, kind } } });

describe('clientIssuance', () => {
  const issuers = [issuer('self', { selfSigned: {} }), issuer('root', { ca: { secretName: 'root-ca' } }), issuer('inter', { ca: { secretName: 'inter-ca' } })];
  const certs = [cert('root-ca', 'self'), cert('inter-ca', 'root'), cert('client-ss', 'self'), cert('client-root', 'root'), cert('client-inter', 'inter')];
  test.each([
    ['client-ss', 'self-signed'], ['client-root', 'single-tier-ca'], ['client-inter', 'intermediate-ca'], ['absent', 'unknown'],
  ])('%p is %p', (secret, kind) => {
    expect(clientIssuance(secret, ns, certManagerIndex(certs, issuers))).toBe(kind);
  });
});

describe('checkClientTrust', () => {
  test('self-signed: trusting the client Secret itself works, any other Secret is an error', () => {
    expect(checkClientTrust('client', 'client', 'tls.crt', 'self-signed')).toEqual([]);
    expect(checkClientTrust('client', 'client', 'ca.crt', 'self-signed')).toEqual([]);
    expect(checkClientTrust('client', 'client-copy', 'tls.crt', 'self-signed').map((i) => i.severity)).toEqual(['error']);
  });
  test('single-tier CA: the leaf in tls.crt fails, ca.crt works', () => {
    expect(checkClientTrust('client', 'client', 'tls.crt', 'single-tier-ca').map((i) => i.severity)).toEqual(['error']);
    expect(checkClientTrust('client', 'client', 'ca.crt', 'single-tier-ca')).toEqual([]);
  });
  test('intermediate CA: tls.crt holds leaf + intermediate, so trusting it works', () => {
    expect(checkClientTrust('client', 'client', 'tls.crt', 'intermediate-ca')).toEqual([]);
  });
});
