import { X509Certificate } from 'node:crypto';
import { Json, asArray, asString, dig, objectMeta } from '../manifests/json';
import { CheckIssue } from './issue';
import { secretValues } from './operator-config';
import { pemCertificates } from './secret-contents';

/**
 * How a client certificate is issued, as far as the input shows:
 * - `self-signed`: a SelfSigned issuer (the certificate is its own issuer);
 * - `single-tier-ca`: a CA issuer whose CA certificate is self-signed (`tls.crt` is the leaf only);
 * - `intermediate-ca`: a CA issuer whose CA was itself issued by a CA (`tls.crt` is leaf + intermediate);
 * - `ca-unknown-tier`: a CA issuer whose CA certificate the input does not show;
 * - `other-ca`: an ACME, Vault, Venafi or external issuer (a CA outside cert-manager's control);
 * - `unknown`: no Certificate writes the Secret, or its issuer is not in the input.
 * @internal
 */
export type ClientIssuanceKind = 'self-signed' | 'single-tier-ca' | 'intermediate-ca' | 'ca-unknown-tier' | 'other-ca' | 'unknown';

/** A {@link ClientIssuanceKind} and the sentence that explains it. @internal */
export interface ClientIssuance {
  readonly kind: ClientIssuanceKind;
  readonly detail: string;
}

/**
 * cert-manager's cluster-resource namespace when nothing says otherwise: the Helm chart (and the
 * static manifests rendered from it) run the controller with
 * `--cluster-resource-namespace=$(POD_NAMESPACE)`, and both install into `cert-manager`
 * (cert-manager v1.21.1 deploy/charts/cert-manager/templates/deployment.yaml). The controller's
 * own default, used when the flag is absent, is `kube-system` (cert-manager v1.21.1
 * internal/apis/config/controller/v1alpha1/defaults.go SetDefaults_ControllerConfiguration).
 * @internal
 */
export const DEFAULT_CLUSTER_RESOURCE_NAMESPACE = 'cert-manager';

/** The controller's built-in default, when it runs without `--cluster-resource-namespace`. @internal */
export const CERT_MANAGER_CODE_DEFAULT_CLUSTER_RESOURCE_NAMESPACE = 'kube-system';

/**
 * The cluster-resource namespace: the option when given; else what a cert-manager controller
 * Deployment in the input says (its `--cluster-resource-namespace` flag, `$(POD_NAMESPACE)` read
 * as its namespace, the code default `kube-system` without the flag); else
 * {@link DEFAULT_CLUSTER_RESOURCE_NAMESPACE}. `nsOf` gives an object's namespace as the doctor
 * resolves it.
 * @internal
 */
export function resolveClusterResourceNamespace(deployments: readonly Json[], option: string | undefined, nsOf: (o: Json) => string | undefined): string {
  if (option !== undefined) return option;
  for (const d of deployments) {
    for (const c of asArray(dig(d, 'spec', 'template', 'spec', 'containers'))) {
      if (!/(^|\/)cert-manager-controller([:@]|$)/.test(asString(dig(c, 'image')) ?? '')) continue;
      const argv = [...asArray(dig(c, 'command')), ...asArray(dig(c, 'args'))].filter((a): a is string => typeof a === 'string');
      let value: string | undefined;
      argv.forEach((a, i) => {
        if (a.startsWith('--cluster-resource-namespace=')) value = a.slice('--cluster-resource-namespace='.length);
        else if (a === '--cluster-resource-namespace' && argv[i + 1] !== undefined) value = argv[i + 1];
      });
      if (value === undefined || value === '') return CERT_MANAGER_CODE_DEFAULT_CLUSTER_RESOURCE_NAMESPACE;
      return value === '$(POD_NAMESPACE)' ? (nsOf(d) ?? DEFAULT_CLUSTER_RESOURCE_NAMESPACE) : value;
    }
  }
  return DEFAULT_CLUSTER_RESOURCE_NAMESPACE;
}

/** Certificates by `namespace/secretName`, issuers by `Kind/namespace/name`, Secrets by `namespace/name`. @internal */
export interface CertManagerIndex {
  readonly certificatesBySecret: (namespace: string, secretName: string) => readonly Json[];
  readonly issuer: (kind: string, namespace: string | undefined, name: string) => Json | undefined;
  readonly secret: (namespace: string, name: string) => Json | undefined;
  /** An object's namespace as the doctor resolves it. */
  readonly namespaceOf: (o: Json) => string;
  /** cert-manager's cluster-resource namespace (where a ClusterIssuer's CA Secret is read). */
  readonly clusterResourceNamespace: string;
}

/** Builds a {@link CertManagerIndex}; every lookup afterwards is a map read. @internal */
export function certManagerIndex(input: {
  certificates: readonly Json[];
  issuers: readonly Json[];
  secrets?: readonly Json[];
  namespaceOf?: (o: Json) => string | undefined;
  clusterResourceNamespace?: string;
}): CertManagerIndex {
  const nsOf = (o: Json): string => input.namespaceOf?.(o) ?? objectMeta(o).namespace ?? 'default';
  const certs = new Map<string, Json[]>();
  for (const c of input.certificates) {
    const k = `${nsOf(c)}/${asString(dig(c, 'spec', 'secretName')) ?? ''}`;
    const list = certs.get(k);
    if (list) list.push(c);
    else certs.set(k, [c]);
  }
  const iss = new Map<string, Json>();
  for (const i of input.issuers) {
    const k = `${String(i.kind)}/${i.kind === 'ClusterIssuer' ? '' : nsOf(i)}/${objectMeta(i).name}`;
    if (!iss.has(k)) iss.set(k, i);
  }
  const secrets = new Map<string, Json>();
  for (const s of input.secrets ?? []) {
    const k = `${nsOf(s)}/${objectMeta(s).name}`;
    if (!secrets.has(k)) secrets.set(k, s);
  }
  return {
    certificatesBySecret: (ns, name) => certs.get(`${ns}/${name}`) ?? [],
    issuer: (kind, ns, name) => iss.get(`${kind}/${kind === 'ClusterIssuer' ? '' : (ns ?? 'default')}/${name}`),
    secret: (ns, name) => secrets.get(`${ns}/${name}`),
    namespaceOf: nsOf,
    clusterResourceNamespace: input.clusterResourceNamespace ?? DEFAULT_CLUSTER_RESOURCE_NAMESPACE,
  };
}

const ref = (o: Json, ns?: string): string => `${String(o.kind)}/${ns !== undefined ? `${ns}/` : ''}${objectMeta(o).name}`;

type IssuerOf = { status: 'found'; issuer: Json } | { status: 'external'; group: string; kind: string } | { status: 'missing' };

function issuerOf(cert: Json, index: CertManagerIndex): IssuerOf {
  const r = dig(cert, 'spec', 'issuerRef');
  const kind = asString(dig(r, 'kind')) || 'Issuer';
  const group = asString(dig(r, 'group')) || 'cert-manager.io';
  if (group !== 'cert-manager.io') return { status: 'external', group, kind };
  const issuer = index.issuer(kind, index.namespaceOf(cert), asString(dig(r, 'name')) ?? '');
  return issuer ? { status: 'found', issuer } : { status: 'missing' };
}

/**
 * Where cert-manager reads a CA issuer's CA Secret: an Issuer's own namespace, a ClusterIssuer's
 * cluster-resource namespace (cert-manager v1.21.1 pkg/controller/helper.go
 * IssuerOptions.ResourceNamespace, used by pkg/issuer/ca/setup.go CA.Setup).
 * @internal
 */
export function caSecretNamespace(issuer: Json, index: CertManagerIndex): string {
  return issuer.kind === 'ClusterIssuer' ? index.clusterResourceNamespace : index.namespaceOf(issuer);
}

/** Whether a PEM certificate is its own issuer (a root). */
function selfIssued(cert: X509Certificate): boolean {
  try {
    return cert.checkIssued(cert) && cert.verify(cert.publicKey);
  } catch {
    return false;
  }
}

/** The tier of a CA issuer: from the Certificate writing its CA Secret, else from the Secret's own PEM. */
function caTier(caIssuer: Json, index: CertManagerIndex): { tier: 'root' | 'intermediate' | 'unknown'; where: string } {
  const secretName = asString(dig(caIssuer, 'spec', 'ca', 'secretName')) ?? '';
  const ns = caSecretNamespace(caIssuer, index);
  const where = `its CA Secret '${secretName}' in '${ns}'`;
  for (const caCert of index.certificatesBySecret(ns, secretName)) {
    const up = issuerOf(caCert, index);
    if (up.status === 'external') return { tier: 'intermediate', where };
    if (up.status !== 'found') continue;
    if (dig(up.issuer, 'spec', 'selfSigned') !== undefined) return { tier: 'root', where };
    return { tier: 'intermediate', where };
  }
  const secret = index.secret(ns, secretName);
  const first = secret ? pemCertificates(secretValues(secret)['tls.crt'] ?? '').certs[0] : undefined;
  if (first) return { tier: selfIssued(first) ? 'root' : 'intermediate', where };
  return { tier: 'unknown', where };
}

/**
 * The one classification of a client certificate's issuance, shared by CNPGI025, CNPGI026 and
 * CNPGI112: which certificate Go's TLS 1.3 client can send depends on it, because the plugin
 * advertises the subjects of the file it trusts (cnpg-i-machinery v0.4.2
 * pkg/pluginhelper/http/server.go Server.getConfigForClient) and cert-manager writes `tls.crt`
 * as leaf + every CA below a self-signed root (cert-manager v1.21.1
 * pkg/util/pki/parse_certificate_chain.go ParseSingleCertificateChain, chainNode.toBundleAndCA;
 * pkg/controller/certificaterequests/ca/ca.go CA.Sign returns bundle.ChainPEM as the certificate).
 * @internal
 */
export function clientIssuance(secretName: string, namespace: string, index: CertManagerIndex): ClientIssuance {
  const certs = index.certificatesBySecret(namespace, secretName);
  if (certs.length === 0) return { kind: 'unknown', detail: `no Certificate in the input writes '${secretName}'` };
  for (const cert of certs) {
    const certRef = ref(cert, index.namespaceOf(cert));
    const res = issuerOf(cert, index);
    if (res.status === 'external') return { kind: 'other-ca', detail: `${certRef} is issued by an external ${res.kind} (${res.group})` };
    if (res.status === 'missing') return { kind: 'unknown', detail: `the issuer of ${certRef} is not in the input` };
    const issuer = res.issuer;
    const issuerRef = ref(issuer, issuer.kind === 'ClusterIssuer' ? undefined : index.namespaceOf(issuer));
    if (dig(issuer, 'spec', 'selfSigned') !== undefined) continue;
    if (dig(issuer, 'spec', 'ca') === undefined) {
      const type = ['acme', 'vault', 'venafi'].find((t) => dig(issuer, 'spec', t) !== undefined) ?? 'non-CA';
      return { kind: 'other-ca', detail: `${certRef} is issued by ${issuerRef} (a ${type} issuer)` };
    }
    const { tier, where } = caTier(issuer, index);
    if (tier === 'intermediate') return { kind: 'intermediate-ca', detail: `${certRef} is issued by the intermediate CA of ${issuerRef}` };
    if (tier === 'root') return { kind: 'single-tier-ca', detail: `${certRef} is issued by ${issuerRef}, whose CA is self-signed (a single-tier CA)` };
    return { kind: 'ca-unknown-tier', detail: `${certRef} is issued by the CA issuer ${issuerRef}, and the input does not show ${where}` };
  }
  return { kind: 'self-signed', detail: 'self-signed' };
}

/**
 * Class 10: a self-signed client certificate can be trusted only through the client Secret
 * itself (it is its own issuer, and a renewal makes a new one). The single-tier-CA trap
 * (trusting the leaf in `tls.crt`) is CNPGI025's.
 * @internal
 */
export function checkClientTrust(clientSecret: string, trustedSecret: string, issuance: ClientIssuance): CheckIssue[] {
  const path = 'spec.template.spec.containers[].args';
  if (issuance.kind === 'self-signed' && trustedSecret !== clientSecret) {
    return [
      {
        severity: 'error',
        path,
        message: `the client certificate in '${clientSecret}' is self-signed, so only that certificate can be its issuer, but the plugin trusts '${trustedSecret}'; even a copy stops working at the first renewal (new key, new certificate) and the handshake fails with 'tls: certificate required'`,
        fix: `mount Secret '${clientSecret}' and pass its tls.crt (or ca.crt) as --client-cert`,
      },
    ];
  }
  return [];
}
