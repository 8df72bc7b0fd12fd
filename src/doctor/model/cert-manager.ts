/*
 * The cert-manager objects of the input, read as cert-manager reads them: where a Certificate's
 * issuerRef leads (CNPGI024), and the one index of Certificates, issuers and Secrets with
 * cert-manager's cluster-resource namespace that the issuance of a client certificate is read
 * from (CNPGI025, CNPGI026, CNPGI109, CNPGI112).
 */
import { CertManagerIndex, certManagerIndex, resolveClusterResourceNamespace } from '../../checks/client-trust';
import { Json, dig, asString, asObject } from '../../manifests/json';
import { Manifest } from '../../manifests/manifest-index';
import type { ManifestIndex } from '../../manifests/manifest-index';

/** What an issuerRef leads to. */
export type IssuerResolution =
  | { readonly status: 'found'; readonly issuer: Manifest; readonly type: string }
  | { readonly status: 'external'; readonly group: string; readonly kind: string }
  | { readonly status: 'missing'; readonly kind: string; readonly name: string; readonly hint?: string }
  | {
      readonly status: 'invalid';
      readonly message: string;
      readonly fix: string;
      /** The objects of other namespaces the verdict compares the Certificate's namespace with. */
      readonly comparesNamespaceWith?: readonly Manifest[];
    };

const ISSUER_TYPES = ['selfSigned', 'ca', 'acme', 'vault', 'venafi'];

/** The issuer type (`selfSigned`, `ca`, ...) of an Issuer or ClusterIssuer. */
export function issuerType(issuer: Manifest): string {
  const spec = asObject(issuer.raw.spec) ?? {};
  return ISSUER_TYPES.find((t) => spec[t] !== undefined && spec[t] !== null) ?? 'unknown';
}

/** Resolves a Certificate's issuerRef as cert-manager does. */
export function resolveIssuer(ctx: CertManagerContext, cert: Manifest): IssuerResolution {
  const ref = asObject(dig(cert.raw, 'spec', 'issuerRef'));
  if (!ref)
    return {
      status: 'invalid',
      message: 'has no spec.issuerRef; cert-manager cannot issue it',
      fix: 'set spec.issuerRef: {name, kind: Issuer | ClusterIssuer}',
    };
  const name = asString(ref.name);
  if (!name) return { status: 'invalid', message: 'has no spec.issuerRef.name; cert-manager cannot issue it', fix: 'set spec.issuerRef.name' };
  const kind = asString(ref.kind) || 'Issuer';
  const group = asString(ref.group) || 'cert-manager.io';
  if (group !== 'cert-manager.io') return { status: 'external', group, kind };
  if (kind === 'ClusterIssuer') {
    const found = ctx.index.get('ClusterIssuer', undefined, name, 'cert-manager.io')[0];
    if (found) return { status: 'found', issuer: found, type: issuerType(found) };
    const local = ctx.index.get('Issuer', cert.namespace, name, 'cert-manager.io')[0];
    return { status: 'missing', kind, name, hint: local ? ` (an Issuer '${name}' exists in '${cert.namespace}': did you mean kind: Issuer?)` : undefined };
  }
  if (kind !== 'Issuer') {
    return {
      status: 'invalid',
      message: `has issuerRef kind '${kind}' in group cert-manager.io, which has only Issuer and ClusterIssuer`,
      fix: 'use kind: Issuer or kind: ClusterIssuer',
    };
  }
  const found = ctx.index.get('Issuer', cert.namespace, name, 'cert-manager.io')[0];
  if (found) return { status: 'found', issuer: found, type: issuerType(found) };
  const elsewhere = ctx.index.named('Issuer', name).filter((m) => m.group === 'cert-manager.io');
  if (elsewhere.length > 0) {
    return {
      status: 'invalid',
      message: `references Issuer '${name}', which exists only in ${elsewhere.map((m) => `'${m.namespace}'`).join(', ')}; an Issuer is namespaced and cert-manager looks for it in '${cert.namespace}' only, so the Secret is never issued`,
      fix: `create the Issuer in '${cert.namespace}', or use a ClusterIssuer`,
      comparesNamespaceWith: elsewhere,
    };
  }
  const cluster = ctx.index.get('ClusterIssuer', undefined, name, 'cert-manager.io')[0];
  if (cluster) {
    return {
      status: 'invalid',
      message: `references Issuer '${name}' (kind defaults to Issuer), but '${name}' is a ClusterIssuer`,
      fix: 'set spec.issuerRef.kind: ClusterIssuer',
    };
  }
  return { status: 'missing', kind, name };
}

/**
 * The cert-manager index of the input: cert-manager's Certificates, Issuers and ClusterIssuers
 * and the core Secrets, each at the namespace the doctor resolved for it, and the cluster-resource
 * namespace (the option, else the cert-manager controller Deployment of the input).
 */
export function buildCertManagerIndex(model: CertManagerContext): CertManagerIndex {
  const pick = (kind: string, group: string): Json[] => model.index.ofKind(kind, group).map((m) => m.raw);
  const nsOf = model.index.namespaceOf;
  const deployments = pick('Deployment', 'apps');
  return certManagerIndex({
    certificates: pick('Certificate', 'cert-manager.io'),
    issuers: [...pick('Issuer', 'cert-manager.io'), ...pick('ClusterIssuer', 'cert-manager.io')],
    secrets: pick('Secret', ''),
    namespaceOf: nsOf,
    clusterResourceNamespace: resolveClusterResourceNamespace(deployments, model.clusterResourceNamespace, nsOf),
  });
}

/** What the cert-manager readers read of the doctor's model. */
export interface CertManagerContext {
  readonly index: ManifestIndex;
  /** cert-manager's cluster-resource namespace, when the options give it. */
  readonly clusterResourceNamespace?: string;
}
