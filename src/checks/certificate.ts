import { isIP } from 'node:net';
import { parseGoDuration } from '../manifests/duration';
import { Json, asArray, asObject, asString, dig, jsonText } from '../manifests/json';
import { CheckIssue } from './issue';

/** cert-manager v1.21.1 pkg/apis/certmanager/v1/types.go KeyUsage values: the extended key usages. @internal */
export const CERT_MANAGER_EXTENDED_USAGES: readonly string[] = [
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
];

/** cert-manager v1.21.1 pkg/apis/certmanager/v1/types.go KeyUsage values, key usages and extended ones. @internal */
export const CERT_MANAGER_USAGES: readonly string[] = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  ...CERT_MANAGER_EXTENDED_USAGES,
];
const SIGNATURES: Record<string, string[]> = {
  RSA: ['SHA256WithRSA', 'SHA384WithRSA', 'SHA512WithRSA'],
  ECDSA: ['ECDSAWithSHA256', 'ECDSAWithSHA384', 'ECDSAWithSHA512'],
  Ed25519: ['PureEd25519'],
};
const HOUR = 3_600_000_000_000n;
/**
 * The lifetime cert-manager gives a Certificate without `spec.duration`, in nanoseconds
 * (cert-manager v1.21.1 pkg/apis/certmanager/v1/const.go DefaultCertificateDuration: 90 days).
 * @internal
 */
export const CERT_MANAGER_DEFAULT_DURATION = 2160n * HOUR;
const FIVE_MINUTES = 300_000_000_000n;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * Class 7: the Certificate webhook (cert-manager v1.21.1
 * internal/apis/certmanager/validation/certificate.go ValidateCertificateSpec, validateUsages,
 * validateIPAddresses, ValidateDuration; pkg/util/pki/generate.go MinRSAKeySize/MaxRSAKeySize;
 * pkg/apis/certmanager/v1/const.go).
 * @internal
 */
export function checkCertificate(cert: Json): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const spec = asObject(cert.spec) ?? {};
  const refuse = (path: string, message: string, fix: string): void => {
    issues.push({ severity: 'error', path, message: `${message}; the cert-manager webhook refuses the Certificate`, fix });
  };
  const secretName = asString(spec.secretName) ?? '';
  if (secretName === '') refuse('spec.secretName', 'is missing', 'set secretName to the Secret cert-manager should write');
  else if (secretName.length > 253 || !DNS_SUBDOMAIN.test(secretName))
    refuse('spec.secretName', `'${secretName}' is not a DNS subdomain`, "use lower-case letters, digits, '-' and '.'");

  const cn = asString(spec.commonName) ?? '';
  const identities = ['dnsNames', 'uris', 'emailAddresses', 'ipAddresses', 'otherNames'].filter((k) => asArray(spec[k]).length > 0);
  if (cn === '' && identities.length === 0 && (asString(spec.literalSubject) ?? '') === '') {
    refuse(
      'spec',
      'has no identity (commonName, dnsNames, uris, emailAddresses, ipAddresses or otherNames)',
      'add dnsNames (for a server) or a commonName (for a client)',
    );
  }
  if (cn.length > 64) refuse('spec.commonName', `is ${cn.length} characters long, more than 64`, 'shorten it, and put long names in dnsNames');
  asArray(spec.ipAddresses).forEach((ip, i) => {
    if (typeof ip !== 'string' || isIP(ip) === 0)
      refuse(`spec.ipAddresses[${i}]`, `${jsonText(ip)} is not an IP address`, 'write an IPv4 or IPv6 address, or move host names to dnsNames');
  });
  asArray(spec.usages).forEach((u, i) => {
    if (typeof u !== 'string' || !CERT_MANAGER_USAGES.includes(u)) {
      const close = typeof u === 'string' ? CERT_MANAGER_USAGES.find((x) => x.replace(/ /g, '') === u.toLowerCase().replace(/[-_ ]/g, '')) : undefined;
      refuse(
        `spec.usages[${i}]`,
        `${jsonText(u)} is not a cert-manager key usage`,
        close ? `write '${close}'` : `use one of ${CERT_MANAGER_USAGES.join(', ')}`,
      );
    }
  });

  const pk = asObject(spec.privateKey);
  const algorithm = asString(pk?.algorithm) ?? 'RSA';
  const size = typeof pk?.size === 'number' ? pk.size : 0;
  if (pk && pk.algorithm !== undefined && !['RSA', 'ECDSA', 'Ed25519'].includes(algorithm)) {
    const close = ['RSA', 'ECDSA', 'Ed25519'].find((a) => a.toLowerCase() === algorithm.toLowerCase());
    refuse('spec.privateKey.algorithm', `'${algorithm}' is not RSA, ECDSA or Ed25519`, close ? `write '${close}'` : 'use RSA, ECDSA or Ed25519');
  } else if (algorithm === 'RSA' && size > 0 && (size < 2048 || size > 8192)) {
    refuse('spec.privateKey.size', `${size} is outside 2048-8192 for RSA`, 'use 2048, 3072 or 4096');
  } else if (algorithm === 'ECDSA' && size > 0 && ![256, 384, 521].includes(size)) {
    refuse('spec.privateKey.size', `${size} is not 256, 384 or 521 for ECDSA`, 'use 256, 384 or 521');
  }
  const sig = asString(spec.signatureAlgorithm);
  if (sig !== undefined && SIGNATURES[algorithm] && !SIGNATURES[algorithm].includes(sig)) {
    refuse('spec.signatureAlgorithm', `'${sig}' does not go with a ${algorithm} key`, `use one of ${SIGNATURES[algorithm].join(', ')}`);
  }

  const duration = spec.duration === undefined ? CERT_MANAGER_DEFAULT_DURATION : parseGoDuration(asString(spec.duration) ?? '');
  const renewBefore = spec.renewBefore === undefined ? undefined : parseGoDuration(asString(spec.renewBefore) ?? '');
  if (duration === undefined) refuse('spec.duration', `${jsonText(spec.duration)} is not a Go duration`, 'write e.g. 2160h');
  else if (duration < HOUR) refuse('spec.duration', `'${String(spec.duration)}' is shorter than the 1h minimum`, 'use at least 1h');
  if (spec.renewBefore !== undefined && renewBefore === undefined)
    refuse('spec.renewBefore', `${jsonText(spec.renewBefore)} is not a Go duration`, 'write e.g. 360h');
  if (renewBefore !== undefined) {
    if (renewBefore < FIVE_MINUTES) refuse('spec.renewBefore', `'${String(spec.renewBefore)}' is shorter than the 5m minimum`, 'use at least 5m');
    if (duration !== undefined && renewBefore >= duration)
      refuse(
        'spec.renewBefore',
        `'${String(spec.renewBefore)}' is not shorter than the duration`,
        'make renewBefore shorter than duration (e.g. a sixth of it)',
      );
  }
  if (spec.renewBefore !== undefined && spec.renewBeforePercentage !== undefined)
    refuse('spec.renewBeforePercentage', 'is set together with renewBefore', 'keep one of renewBefore and renewBeforePercentage');
  if (typeof spec.revisionHistoryLimit === 'number' && spec.revisionHistoryLimit < 1)
    refuse('spec.revisionHistoryLimit', `${spec.revisionHistoryLimit} is below 1`, 'use 1 or more, or leave it out');
  return issues;
}

/**
 * Class 7: a ClusterIssuer's CA Secret is read from cert-manager's cluster-resource namespace
 * (`--cluster-resource-namespace`), whatever namespace the Certificates are in.
 * @internal
 */
export function checkClusterIssuerSecret(
  issuer: Json,
  holders: ReadonlyArray<{ readonly namespace: string; readonly what: string; readonly raw?: Json }>,
  clusterResourceNamespace: string,
): CheckIssue[] {
  const compared = holders.map((h) => h.raw).filter((r): r is Json => r !== undefined);
  const name = asString(dig(issuer, 'spec', 'ca', 'secretName'));
  if (!name) return [];
  if (holders.length === 0 || holders.some((h) => h.namespace === clusterResourceNamespace)) return [];
  return [
    {
      severity: 'error',
      path: 'spec.ca.secretName',
      message: `CA Secret '${name}' is only in ${holders.map((h) => `'${h.namespace}' (${h.what})`).join(', ')}, but cert-manager reads a ClusterIssuer's CA Secret from its cluster-resource namespace '${clusterResourceNamespace}'; issuance fails`,
      fix: `put the CA Secret (or the Certificate writing it) in '${clusterResourceNamespace}', or use a namespaced Issuer in the Certificates' namespace; if cert-manager runs with another --cluster-resource-namespace, tell the doctor (clusterResourceNamespace / --cluster-resource-namespace)`,
      ...(compared.length ? { comparesNamespaceWith: compared } : {}),
    },
  ];
}
