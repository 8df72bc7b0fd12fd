import { FidelityIssue, Obj, at, meta, str } from './issue';

/** How a client certificate is issued, as far as the cert-manager objects in the input show. @internal */
export type ClientIssuance = 'self-signed' | 'single-tier-ca' | 'intermediate-ca' | 'unknown';

function issuerOf(cert: Obj, issuers: readonly Obj[]): Obj | undefined {
  const ref = at(cert, 'spec', 'issuerRef');
  const kind = str(at(ref, 'kind')) ?? 'Issuer';
  const group = str(at(ref, 'group')) ?? 'cert-manager.io';
  if (group !== 'cert-manager.io') return undefined;
  const name = str(at(ref, 'name'));
  return issuers.find((i) => i.kind === kind && meta(i).name === name
    && (kind === 'ClusterIssuer' || (meta(i).namespace ?? 'default') === (meta(cert).namespace ?? 'default')));
}

/**
 * Classifies the issuance of the certificate cert-manager writes into `secretName`: SelfSigned
 * issuer; a CA issuer whose CA certificate is itself self-signed (single tier: `tls.crt` is the
 * leaf only); or a CA issuer whose CA was issued by another CA (cert-manager writes leaf +
 * intermediate into `tls.crt`, pkg/util/pki/parse_certificate_chain.go).
 * @internal
 */
export function clientIssuance(secretName: string, namespace: string | undefined, certificates: readonly Obj[], issuers: readonly Obj[]): ClientIssuance {
  const cert = certificates.find((c) => str(at(c, 'spec', 'secretName')) === secretName && (meta(c).namespace ?? 'default') === (namespace ?? 'default'));
  if (!cert) return 'unknown';
  const issuer = issuerOf(cert, issuers);
  if (!issuer) return 'unknown';
  if (at(issuer, 'spec', 'selfSigned') !== undefined) return 'self-signed';
  const caSecret = str(at(issuer, 'spec', 'ca', 'secretName'));
  if (!caSecret) return 'unknown';
  const caCert = certificates.find((c) => str(at(c, 'spec', 'secretName')) === caSecret);
  const caIssuer = caCert && issuerOf(caCert, issuers);
  if (!caIssuer) return 'unknown';
  if (at(caIssuer, 'spec', 'selfSigned') !== undefined) return 'single-tier-ca';
  if (at(caIssuer, 'spec', 'ca') !== undefined) return 'intermediate-ca';
  return 'unknown';
}

/**
 * Class 10: whether the file a plugin trusts (`--client-cert`, from `trustedSecret`/`trustedKey`)
 * lets Go's TLS 1.3 client send the operator's certificate: the client sends it only when its
 * issuer is among the CAs the plugin advertises.
 * @internal
 */
export function checkClientTrust(clientSecret: string, trustedSecret: string, trustedKey: string, issuance: ClientIssuance): FidelityIssue[] {
  const path = 'spec.template.spec.containers[].args';
  if (issuance === 'self-signed' && trustedSecret !== clientSecret) {
    return [{ severity: 'error', path, message: `the client certificate in '${clientSecret}' is self-signed, so only that certificate can be its issuer, but the plugin trusts '${trustedSecret}'; even a copy stops working at the first renewal (new key, new certificate) and the handshake fails with 'tls: certificate required'`, fix: `mount Secret '${clientSecret}' and pass its tls.crt (or ca.crt) as --client-cert` }];
  }
  if (issuance === 'single-tier-ca' && trustedSecret === clientSecret && trustedKey === 'tls.crt') {
    return [{ severity: 'error', path, message: `the client certificate in '${clientSecret}' is issued by a self-signed CA and tls.crt holds the leaf only; the plugin advertises the leaf, the operator's issuer is not among it, and it sends no certificate ('tls: certificate required')`, fix: `pass ${clientSecret}'s ca.crt (the issuing CA) as --client-cert` }];
  }
  return [];
}
