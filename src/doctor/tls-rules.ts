/*
 * The mTLS wiring between the operator and a plugin Service (CNPGI019 to CNPGI027):
 * operator side = `tls.Config{ServerName, RootCAs: server Secret tls.crt, Certificates: client
 * Secret tls.crt+tls.key}`; plugin side (cnpg-i-machinery) = `--server-cert`, `--server-key`,
 * `--client-cert` (ClientCAs), RequireAndVerifyClientCert.
 */
import { supportsPluginServerName } from './cnpg-version';
import { DoctorContext, PluginServiceInfo } from './doctor-context';
import { Manifest, PodTemplate, asArray, asObject, asString, dig } from './manifest-index';
import { PLUGIN_KEYS } from './plugin-service-rules';
import { ContainerRef, allContainers, commandLine, flagValue, resolveFile, secretsOfVolume, volumesByName } from './pod-template';

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
export function resolveIssuer(ctx: DoctorContext, cert: Manifest): IssuerResolution {
  const ref = asObject(dig(cert.raw, 'spec', 'issuerRef'));
  if (!ref) return { status: 'invalid', message: 'has no spec.issuerRef; cert-manager cannot issue it', fix: 'set spec.issuerRef: {name, kind: Issuer | ClusterIssuer}' };
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
    return { status: 'invalid', message: `has issuerRef kind '${kind}' in group cert-manager.io, which has only Issuer and ClusterIssuer`, fix: 'use kind: Issuer or kind: ClusterIssuer' };
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
    return { status: 'invalid', message: `references Issuer '${name}' (kind defaults to Issuer), but '${name}' is a ClusterIssuer`, fix: 'set spec.issuerRef.kind: ClusterIssuer' };
  }
  return { status: 'missing', kind, name };
}

function reportIssuer(ctx: DoctorContext, cert: Manifest, res: IssuerResolution): void {
  if (res.status === 'invalid') {
    ctx.report('CNPGI024', 'error', cert, `Certificate ${res.message}`, res.fix, 'spec.issuerRef');
  } else if (res.status === 'missing') {
    ctx.report('CNPGI024', 'warning', cert, `${res.kind} '${res.name}' is not in the input${res.hint ?? ''}; cert-manager issues nothing until it exists${res.kind === 'Issuer' ? ` in '${cert.namespace}'` : ''}`,
      `make sure the ${res.kind} exists${res.kind === 'Issuer' ? ` in '${cert.namespace}'` : ''}, or include it in the checked manifests`, 'spec.issuerRef');
  }
}

/** Go-style host name match against one DNS SAN (a leftmost `*` matches one label). */
export function sanMatches(san: string, host: string): boolean {
  const s = san.toLowerCase().replace(/\.$/, '');
  const h = host.toLowerCase().replace(/\.$/, '');
  if (s === h) return true;
  if (!s.startsWith('*.')) return false;
  const dot = h.indexOf('.');
  return dot > 0 && h.slice(dot + 1) === s.slice(2);
}

const EXTENDED_USAGES = new Set([
  'any', 'server auth', 'client auth', 'code signing', 'email protection', 's/mime', 'ipsec end system',
  'ipsec tunnel', 'ipsec user', 'timestamping', 'ocsp signing', 'microsoft sgc', 'netscape sgc',
]);

function checkUsages(ctx: DoctorContext, cert: Manifest, needed: 'server auth' | 'client auth', role: string): void {
  const usages = asArray(dig(cert.raw, 'spec', 'usages')).filter((u): u is string => typeof u === 'string').map((u) => u.toLowerCase());
  const ext = usages.filter((u) => EXTENDED_USAGES.has(u));
  if (ext.includes(needed) || ext.includes('any')) return;
  if (ext.length === 0) {
    ctx.report('CNPGI023', 'warning', cert, `${role} Certificate ${usages.length === 0 ? 'omits usages, so cert-manager issues `digital signature, key encipherment`' : `lists only key usages (${usages.join(', ')})`} with no extended key usage; Go accepts that for any purpose, so it works, but nothing states it is a ${needed} certificate`,
      `set usages: [${needed}]`, 'spec.usages');
    return;
  }
  ctx.report('CNPGI023', 'error', cert, `${role} Certificate has extended usages ${ext.join(', ')} but not '${needed}'; Go rejects it with \`x509: certificate specifies an incompatible key usage\``,
    `add '${needed}' to spec.usages`, 'spec.usages');
}

/**
 * Checks the TLS side of every plugin Service: Secrets, Certificates, issuers and the plugin's
 * TLS flags.
 */
export function checkPluginTls(ctx: DoctorContext): void {
  const checkedIssuers = new Set<Manifest>();
  const checkIssuerOnce = (cert: Manifest): IssuerResolution => {
    const res = resolveIssuer(ctx, cert);
    if (!checkedIssuers.has(cert)) {
      checkedIssuers.add(cert);
      reportIssuer(ctx, cert, res);
      // a CA issuer's own certificate must be issuable too
      if (res.status === 'found' && res.type === 'ca' && res.issuer.namespace !== undefined) {
        const caSecret = asString(dig(res.issuer.raw, 'spec', 'ca', 'secretName'));
        for (const caCert of caSecret ? ctx.index.certificatesWriting(res.issuer.namespace, caSecret) : []) checkIssuerOnce(caCert);
      }
    }
    return res;
  };

  for (const info of ctx.pluginServices) {
    const svc = info.service;
    const ns = svc.namespace;
    for (const role of ['client', 'server'] as const) {
      const secretName = role === 'client' ? info.clientSecret : info.serverSecret;
      if (!secretName) continue;
      const annotation = role === 'client' ? PLUGIN_KEYS.clientSecret : PLUGIN_KEYS.serverSecret;
      const certs = ctx.index.certificatesWriting(ns, secretName);
      const secrets = ctx.index.get('Secret', ns, secretName, '');
      if (certs.length === 0 && secrets.length === 0) {
        const elsewhere = ctx.index.certificatesWritingAnywhere(secretName).filter((c) => c.namespace !== ns);
        ctx.report('CNPGI020', 'warning', svc, `${role} Secret '${secretName}' is written by no Certificate in '${ns}' and is not in the input${elsewhere.length ? ` (${elsewhere.map((c) => c.ref).join(', ')} writes one in another namespace, which the operator does not read)` : ''}; the operator retries with ${role === 'client' ? 'ClientSecretNotFound' : 'ServerSecretNotFound'} until it exists`,
          `add a cert-manager Certificate in '${ns}' with spec.secretName: ${secretName}, or make sure the Secret is created some other way`, `metadata.annotations.${annotation}`);
      }
      for (const secret of secrets) checkSecretKeys(ctx, secret, role);
      for (const cert of certs) {
        checkUsages(ctx, cert, role === 'server' ? 'server auth' : 'client auth', role === 'server' ? 'server' : 'client');
        checkIssuerOnce(cert);
        if (role === 'server') checkServerName(ctx, info, cert);
      }
    }
    if (info.serverNameAnnotation !== undefined && !supportsPluginServerName(ctx.version)) {
      const certs = info.serverSecret ? ctx.index.certificatesWriting(ns, info.serverSecret) : [];
      const coversShort = certs.length > 0 && certs.every((c) => dnsNames(c).some((d) => sanMatches(d, svc.name)));
      ctx.report('CNPGI019', certs.length > 0 && !coversShort ? 'error' : 'warning', svc,
        `\`${PLUGIN_KEYS.serverName}\` is ignored by CloudNativePG ${ctx.versionString} (honoured from 1.26.3, 1.27.2 and 1.28.0): the operator verifies the short Service name '${svc.name}'${certs.length > 0 ? (coversShort ? ', which the server certificate covers' : ', which the server certificate does not cover') : ''}`,
        `upgrade the operator, or add '${svc.name}' to the server Certificate's dnsNames`, `metadata.annotations.${PLUGIN_KEYS.serverName}`);
    }
    for (const t of info.templates) checkPluginPod(ctx, info, t);
  }
}

function dnsNames(cert: Manifest): string[] {
  return asArray(dig(cert.raw, 'spec', 'dnsNames')).filter((d): d is string => typeof d === 'string');
}

function checkServerName(ctx: DoctorContext, info: PluginServiceInfo, cert: Manifest): void {
  const names = dnsNames(cert);
  if (names.some((d) => sanMatches(d, info.verifiedName))) return;
  const cn = asString(dig(cert.raw, 'spec', 'commonName'));
  const source = info.verifiedName === info.service.name ? `the short Service name of ${info.service.ref}` : `\`${PLUGIN_KEYS.serverName}\``;
  ctx.report('CNPGI022', 'error', cert,
    `server Certificate's dnsNames [${names.join(', ')}] miss '${info.verifiedName}', the name the operator verifies (${source})${cn === info.verifiedName ? '; the common name does not count: Go checks DNS SANs only' : ''}; the handshake fails with \`x509: certificate is valid for ..., not ${info.verifiedName}\``,
    `add '${info.verifiedName}' to spec.dnsNames`, 'spec.dnsNames');
}

function checkSecretKeys(ctx: DoctorContext, secret: Manifest, role: 'client' | 'server'): void {
  const data = asObject(secret.raw.data);
  const stringData = asObject(secret.raw.stringData);
  if (!data && !stringData) return; // written by something else at runtime; nothing to read
  const keys = new Set([...Object.keys(data ?? {}), ...Object.keys(stringData ?? {})]);
  const needed = role === 'client' ? ['tls.crt', 'tls.key'] : ['tls.crt'];
  const missing = needed.filter((k) => !keys.has(k));
  if (missing.length === 0) return;
  ctx.report('CNPGI021', 'error', secret, `${role} Secret lacks ${missing.join(' and ')}; the operator reads ${role === 'client' ? 'its client pair from tls.crt + tls.key' : 'the server root from tls.crt'} (Invalid${role === 'client' ? 'Client' : 'Server'}Certificate)`,
    'store the PEM certificate and key under tls.crt and tls.key (type kubernetes.io/tls)', 'data');
}

/** The issuer kind of the Certificates writing the client Secret: `self-signed`, `ca`, or unknown. */
function clientIssuance(ctx: DoctorContext, info: PluginServiceInfo): { kind: 'self-signed' | 'ca' | 'unknown'; detail: string } {
  const certs = info.clientSecret ? ctx.index.certificatesWriting(info.service.namespace, info.clientSecret) : [];
  if (certs.length === 0) return { kind: 'unknown', detail: `no Certificate in the input writes '${info.clientSecret}'` };
  for (const cert of certs) {
    const res = resolveIssuer(ctx, cert);
    if (res.status === 'found' && res.type !== 'selfSigned') return { kind: 'ca', detail: `${cert.ref} is issued by ${res.issuer.ref} (a ${res.type} issuer)` };
    if (res.status === 'external') return { kind: 'ca', detail: `${cert.ref} is issued by an external ${res.kind} (${res.group})` };
    if (res.status !== 'found') return { kind: 'unknown', detail: `the issuer of ${cert.ref} is not in the input` };
  }
  return { kind: 'self-signed', detail: 'self-signed' };
}

function checkPluginPod(ctx: DoctorContext, info: PluginServiceInfo, t: PodTemplate): void {
  const owner = t.owner;
  const annotated = new Set([info.clientSecret, info.serverSecret].filter((s): s is string => s !== undefined));
  const volumes = volumesByName(t.spec);
  const tlsContainers: ContainerRef[] = [];
  for (const c of allContainers(t.spec)) {
    const argv = commandLine(c.container);
    const flags = {
      serverCert: flagValue(argv, 'server-cert'),
      serverKey: flagValue(argv, 'server-key'),
      clientCert: flagValue(argv, 'client-cert'),
    };
    if (flags.serverCert === undefined && flags.serverKey === undefined && flags.clientCert === undefined) continue;
    tlsContainers.push(c);
    const path = `${t.specPath}.${c.path}.args`;
    const where = `container '${c.name}' of ${owner.ref}`;
    for (const [flag, file, expectKey] of [['server-cert', flags.serverCert, 'tls.crt'], ['server-key', flags.serverKey, 'tls.key']] as const) {
      if (file === undefined || !info.serverSecret) continue;
      const src = resolveFile(t.spec, c.container, file);
      if (src.type !== 'secret') {
        ctx.report('CNPGI026', 'warning', owner, `${where} serves --${flag}=${file}, which no Secret volume provides; the operator trusts only the server Secret '${info.serverSecret}' tls.crt`,
          `mount Secret '${info.serverSecret}' and pass its ${expectKey}`, path);
      } else if (src.secretName !== info.serverSecret || src.key !== expectKey) {
        ctx.report('CNPGI026', 'error', owner, `${where} serves --${flag}=${file}, which is key '${src.key}' of Secret '${src.secretName}', but it must be ${expectKey} of the server Secret '${info.serverSecret}' (\`${PLUGIN_KEYS.serverSecret}\`), whose tls.crt the operator pins`,
          `pass --${flag}=<mount of '${info.serverSecret}'>/${expectKey}`, path);
      }
    }
    if (flags.clientCert !== undefined && info.clientSecret) {
      const file = flags.clientCert;
      const src = resolveFile(t.spec, c.container, file);
      if (src.type !== 'secret') {
        ctx.report('CNPGI026', 'warning', owner, `${where} trusts --client-cert=${file}, which no Secret volume provides; it must hold the CA of the operator's client certificate (Secret '${info.clientSecret}')`,
          `mount Secret '${info.clientSecret}' and pass its ca.crt`, path);
      } else if (src.secretName === info.serverSecret && src.secretName !== info.clientSecret) {
        ctx.report('CNPGI026', 'error', owner, `${where} trusts --client-cert=${file} from the server Secret '${src.secretName}'; the operator presents the client Secret '${info.clientSecret}', so the handshake fails`,
          `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`, path);
      } else if (src.secretName !== info.clientSecret) {
        ctx.report('CNPGI026', 'warning', owner, `${where} trusts --client-cert=${file} from Secret '${src.secretName}', not the client Secret '${info.clientSecret}'; it works only if that file holds the CA that issued the operator's client certificate`,
          `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`, path);
      } else if (src.key === 'tls.key') {
        ctx.report('CNPGI026', 'error', owner, `${where} passes the client private key (tls.key) as --client-cert`, `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`, path);
      } else if (src.key === 'tls.crt') {
        const issuance = clientIssuance(ctx, info);
        if (issuance.kind === 'ca') {
          ctx.report('CNPGI025', 'error', owner, `${where} trusts the client leaf (--client-cert=${file}, tls.crt of '${info.clientSecret}'), but ${issuance.detail}: Go's client then sends no certificate and the handshake fails with \`tls: certificate required\``,
            `pass --client-cert=${file.replace(/tls\.crt$/, 'ca.crt')} (cert-manager writes the CA there)`, path);
        } else if (issuance.kind === 'unknown') {
          ctx.report('CNPGI025', 'warning', owner, `${where} trusts the client leaf (--client-cert=${file}, tls.crt of '${info.clientSecret}') and ${issuance.detail}: that works only for a self-signed client certificate; a CA-issued one fails with \`tls: certificate required\``,
            `pass --client-cert=${file.replace(/tls\.crt$/, 'ca.crt')}, which works for both`, path);
        }
      }
    }
  }
  if (tlsContainers.length === 0) return;
  // extra Secret volumes mounted by the TLS containers
  const mounted = new Set<string>();
  for (const c of tlsContainers) {
    for (const mount of asArray(c.container.volumeMounts)) {
      const n = asString(asObject(mount)?.name);
      if (n) mounted.add(n);
    }
  }
  for (const name of mounted) {
    const vol = volumes.get(name);
    if (!vol) continue;
    for (const secretName of secretsOfVolume(vol)) {
      if (annotated.has(secretName)) continue;
      ctx.report('CNPGI027', 'warning', owner, `the plugin mounts Secret '${secretName}' (volume '${name}'), which is neither the client nor the server Secret of ${info.service.ref}`,
        'mount only the annotated Secrets, unless this one is intended (e.g. credentials)', `${t.specPath}.volumes`);
    }
  }
}
