import { FidelityIssue, Obj, at, meta, str } from './issue';

/** How a client certificate is issued, as far as the cert-manager objects in the input show. @internal */
export type ClientIssuance = 'self-signed' | 'single-tier-ca' | 'intermediate-ca' | 'unknown';

/** Certificates by `namespace/secretName` and issuers by `Kind/namespace/name`, for linear lookups. @internal */
export interface CertManagerIndex {
  readonly certificateBySecret: (namespace: string, secretName: string) => Obj | undefined;
  readonly issuer: (kind: string, namespace: string | undefined, name: string) => Obj | undefined;
}

/** Builds a {@link CertManagerIndex} over the input's Certificates, Issuers and ClusterIssuers. @internal */
export function certManagerIndex(certificates: readonly Obj[], issuers: readonly Obj[]): CertManagerIndex {
  const certs = new Map<string, Obj>();
  for (const c of certificates) {
    const k = `${meta(c).namespace ?? 'default'}/${str(at(c, 'spec', 'secretName')) ?? ''}`;
    if (!certs.has(k)) certs.set(k, c);
  }
  const iss = new Map<string, Obj>();
  for (const i of issuers) {
    const k = `${String(i.kind)}/${i.kind === 'ClusterIssuer' ? '' : meta(i).namespace ?? 'default'}/${meta(i).name}`;
    if (!iss.has(k)) iss.set(k, i);
  }
  return {
    certificateBySecret: (ns, name) => certs.get(`${ns}/${name}`),
    issuer: (kind, ns, name) => iss.get(`${kind}/${kind === 'ClusterIssuer' ? '' : ns ?? 'default'}/${name}`),
  };
}

function issuerOf(cert: Obj, index: CertManagerIndex): Obj | undefined {
  const ref = at(cert, 'spec', 'issuerRef');
  const kind = str(at(ref, 'kind')) ?? 'Issuer';
  const group = str(at(ref, 'group')) ?? 'cert-manager.io';
  if (group !== 'cert-manager.io') return undefined;
  return index.issuer(kind, meta(cert).namespace, str(at(ref, 'name')) ?? '');
}

/**
 * Classifies the issuance of the certificate cert-manager writes into `secretName`: SelfSigned
 * issuer; a CA issuer whose CA certificate is itself self-signed (single tier: `tls.crt` is the
 * leaf only); or a CA issuer whose CA was issued by another CA (cert-manager writes leaf +
 * intermediate into `tls.crt`, pkg/util/pki/parse_certificate_chain.go).
 * @internal
 */
export function clientIssuance(secretName: string, namespace: string | undefined, index: CertManagerIndex): ClientIssuance {
  const cert = index.certificateBySecret(namespace ?? 'default', secretName);
  if (!cert) return 'unknown';
  const issuer = issuerOf(cert, index);
  if (!issuer) return 'unknown';
  if (at(issuer, 'spec', 'selfSigned') !== undefined) return 'self-signed';
  const caSecret = str(at(issuer, 'spec', 'ca', 'secretName'));
  if (!caSecret) return 'unknown';
  // A namespaced Issuer reads its CA Secret in its namespace; a ClusterIssuer in cert-manager's.
  const caNs = issuer.kind === 'ClusterIssuer' ? 'cert-manager' : meta(issuer).namespace ?? 'default';
  const caCert = index.certificateBySecret(caNs, caSecret);
  const caIssuer = caCert && issuerOf(caCert, index);
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
