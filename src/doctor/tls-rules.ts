/*
 * The mTLS wiring between the operator and a plugin Service, the helpers the TLS rules
 * (rules/plugin-tls.ts, CNPGI019 to CNPGI027) share:
 * operator side = `tls.Config{ServerName, RootCAs: server Secret tls.crt, Certificates: client
 * Secret tls.crt+tls.key}`; plugin side (cnpg-i-machinery) = `--server-cert`, `--server-key`,
 * `--client-cert` (ClientCAs), RequireAndVerifyClientCert.
 */
import { goVerifyHostname } from '../checks/tls-precision';
import { dig, asString, asObject } from '../manifests/json';
import { Manifest } from '../manifests/manifest-index';
import type { DoctorModel } from './model';

/** What an issuerRef leads to. */
export type IssuerResolution =
  | { readonly status: 'found'; readonly issuer: Manifest; readonly type: string }
  | { readonly status: 'external'; readonly group: string; readonly kind: string }
  | { readonly status: 'missing'; readonly kind: string; readonly name: string; readonly hint?: string }
  | { readonly status: 'invalid'; readonly message: string; readonly fix: string };

const ISSUER_TYPES = ['selfSigned', 'ca', 'acme', 'vault', 'venafi'];

/** The issuer type (`selfSigned`, `ca`, ...) of an Issuer or ClusterIssuer. */
export function issuerType(issuer: Manifest): string {
  const spec = asObject(issuer.raw.spec) ?? {};
  return ISSUER_TYPES.find((t) => spec[t] !== undefined && spec[t] !== null) ?? 'unknown';
}

/** Resolves a Certificate's issuerRef as cert-manager does. */
export function resolveIssuer(ctx: DoctorModel, cert: Manifest): IssuerResolution {
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

/** Go-style host name match against one DNS SAN (a leftmost `*` matches one label). */
export function sanMatches(san: string, host: string): boolean {
  // Go's rules exactly: a SAN with a trailing dot only matches an identical name (Go 1.23
  // crypto/x509/verify.go validHostname, matchHostnames, matchExactly).
  return goVerifyHostname(host, [san], []);
}
