/*
 * The mTLS wiring between the operator and a plugin Service, in three families: the Secrets the
 * annotations name (CNPGI020; their contents are CNPGI110's), the cert-manager Certificates that write them
 * (CNPGI019, CNPGI022 to CNPGI024), and the plugin pod's TLS files (CNPGI025 to CNPGI027).
 * Operator side: `tls.Config{ServerName, RootCAs: server Secret tls.crt, Certificates: client
 * Secret tls.crt+tls.key}`; plugin side (cnpg-i-machinery): `--server-cert`, `--server-key`,
 * `--client-cert` (ClientCAs), RequireAndVerifyClientCert.
 */
import { isIP } from 'node:net';
import { CERT_MANAGER_EXTENDED_USAGES } from '../../checks/certificate';
import { CertManagerIndex, ClientIssuance, certManagerIndex, clientIssuance, resolveClusterResourceNamespace } from '../../checks/client-trust';
import { supportsPluginServerName } from '../../checks/cnpg-version';
import { goVerifyHostname } from '../../checks/tls-precision';
import type { Json } from '../../manifests/json';
import { dig, asArray, asString, asObject } from '../../manifests/json';
import { Manifest, PodTemplate } from '../../manifests/manifest-index';
import { ContainerRef, allContainers, commandLine, flagValue, resolveFile, secretsOfVolume, volumesByName } from '../../manifests/pod-template';
import type { DoctorModel, PluginServiceInfo } from '../model';
import { PLUGIN_KEYS } from '../plugin-service-rules';
import { IssuerResolution, resolveIssuer, sanMatches } from '../tls-rules';
import { Report, defineFamily } from './rule';

const RECONCILE = 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile';
const MACHINERY_TLS = 'cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.setupTLSCerts';

/** The rules on the Secrets a plugin Service names. */
export const pluginTlsSecrets = defineFamily({
  rules: [
    {
      id: 'CNPGI020',
      name: 'plugin-secret-source',
      severities: [{ severity: 'warning', when: 'always: the Secret may be created outside the input' }],
      what: 'A Secret named by `cnpg.io/pluginClientSecret` / `cnpg.io/pluginServerSecret` is neither written by a Certificate in the namespace nor present in the input.',
      why: `The operator reads both Secrets from the Service's namespace and retries with a \`ClientSecretNotFound\` / \`ServerSecretNotFound\` event until they exist (${RECONCILE}).`,
      fix: 'Add the cert-manager Certificates (`spec.secretName`), or make sure the Secrets are created some other way.',
      kinds: ['Service', 'Secret', 'cert-manager.io/Certificate'],
    },
  ],
  check(model, report) {
    for (const info of model.pluginServices) {
      const svc = info.service;
      const ns = svc.namespace;
      for (const role of ['client', 'server'] as const) {
        const secretName = role === 'client' ? info.clientSecret : info.serverSecret;
        if (!secretName) continue;
        const annotation = role === 'client' ? PLUGIN_KEYS.clientSecret : PLUGIN_KEYS.serverSecret;
        const certs = model.index.certificatesWriting(ns, secretName);
        const secrets = model.index.get('Secret', ns, secretName, '');
        if (certs.length === 0 && secrets.length === 0) {
          const elsewhere = model.index.certificatesWritingAnywhere(secretName).filter((c) => c.namespace !== ns);
          report(
            'CNPGI020',
            'warning',
            svc,
            `${role} Secret '${secretName}' is written by no Certificate in '${ns}' and is not in the input${elsewhere.length ? ` (${elsewhere.map((c) => c.ref).join(', ')} writes one in another namespace, which the operator does not read)` : ''}; the operator retries with ${role === 'client' ? 'ClientSecretNotFound' : 'ServerSecretNotFound'} until it exists`,
            `add a cert-manager Certificate in '${ns}' with spec.secretName: ${secretName}, or make sure the Secret is created some other way`,
            `metadata.annotations.${annotation}`,
          );
        }
      }
    }
  },
});

/** The rules on the cert-manager Certificates that write a plugin's Secrets. */
export const pluginCertificates = defineFamily({
  rules: [
    {
      id: 'CNPGI019',
      name: 'plugin-server-name-version',
      severities: [
        { severity: 'error', when: 'the server Certificate in the input does not cover the short Service name the older operator verifies' },
        { severity: 'warning', when: 'it covers it, or no Certificate in the input writes the server Secret' },
      ],
      what: '`cnpg.io/pluginServerName` is set but the target CNPG version ignores it (needs 1.26.3+, 1.27.2+ or 1.28.0+).',
      why: `From those versions the operator verifies the annotation, else the Service name (${RECONCILE}); older operators verify the short Service name only, so a certificate made only for the annotated name fails with \`x509: certificate is valid for ...\`.`,
      fix: 'Upgrade the operator, or make the server certificate cover the short Service name too.',
      kinds: ['Service', 'cert-manager.io/Certificate'],
    },
    {
      id: 'CNPGI022',
      name: 'server-certificate-san',
      severities: [{ severity: 'error', when: 'always' }],
      what: "The server Certificate's `dnsNames` miss the name the operator verifies (`cnpg.io/pluginServerName`, else the short Service name); the common name does not count.",
      why: `The operator sets \`tls.Config.ServerName\` to that name (${RECONCILE}), and Go verifies DNS SANs only (Go crypto/x509 Certificate.VerifyHostname): the handshake fails with \`x509: certificate is valid for ..., not ...\`.`,
      fix: 'Add the verified name to `spec.dnsNames`.',
      kinds: ['Service', 'cert-manager.io/Certificate'],
    },
    {
      id: 'CNPGI023',
      name: 'certificate-usages',
      severities: [
        { severity: 'error', when: 'the Certificate lists extended usages without the one its side needs' },
        { severity: 'warning', when: 'it lists no extended usage (Go accepts that for any purpose)' },
      ],
      what: 'The server Certificate lacks `server auth` or the client Certificate lacks `client auth` among extended usages it does list (warning when it lists none).',
      why: 'Go rejects a certificate whose extended key usages exclude the one needed (`incompatible key usage`); with `usages` omitted cert-manager issues `digital signature, key encipherment` and no extended usage (cert-manager v1.21.1 pkg/apis/certmanager/v1/types.go DefaultKeyUsages, pkg/util/pki/csr.go KeyUsagesForCertificateOrCertificateRequest), which Go accepts for any purpose.',
      fix: 'Set `usages: [server auth]` on the server Certificate and `usages: [client auth]` on the client Certificate.',
      kinds: ['cert-manager.io/Certificate'],
    },
    {
      id: 'CNPGI024',
      name: 'certificate-issuer-ref',
      severities: [
        {
          severity: 'error',
          when: 'the issuerRef is missing, names an Issuer of another namespace, a ClusterIssuer as an Issuer, or an unknown cert-manager kind',
        },
        { severity: 'warning', when: 'the issuer is not in the input' },
      ],
      what: "A plugin Certificate's `issuerRef` names an Issuer in another namespace, nothing at all, or nothing in the input (warning).",
      why: "An Issuer is namespaced: cert-manager looks it up in the Certificate's namespace only (cert-manager v1.21.1 pkg/issuer/helper.go helperImpl.GetGenericIssuer), and never issues the Secret otherwise.",
      fix: "Create the Issuer in the Certificate's namespace, or reference a ClusterIssuer (`kind: ClusterIssuer`).",
      kinds: ['cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'],
    },
  ],
  check(model, report) {
    const checkedIssuers = new Set<Manifest>();
    const checkIssuerOnce = (cert: Manifest): void => {
      if (checkedIssuers.has(cert)) return;
      checkedIssuers.add(cert);
      const res = resolveIssuer(model, cert);
      reportIssuer(report, cert, res);
      // a CA issuer's own certificate must be issuable too
      if (res.status === 'found' && res.type === 'ca' && res.issuer.namespace !== undefined) {
        const caSecret = asString(dig(res.issuer.raw, 'spec', 'ca', 'secretName'));
        for (const caCert of caSecret ? model.index.certificatesWriting(res.issuer.namespace, caSecret) : []) checkIssuerOnce(caCert);
      }
    };
    for (const info of model.pluginServices) {
      const svc = info.service;
      const ns = svc.namespace;
      for (const role of ['client', 'server'] as const) {
        const secretName = role === 'client' ? info.clientSecret : info.serverSecret;
        if (!secretName) continue;
        for (const cert of model.index.certificatesWriting(ns, secretName)) {
          checkUsages(report, cert, role === 'server' ? 'server auth' : 'client auth', role);
          checkIssuerOnce(cert);
          if (role === 'server') checkServerName(report, info, cert);
        }
      }
      if (info.serverNameAnnotation !== undefined && !supportsPluginServerName(model.version)) {
        const certs = info.serverSecret ? model.index.certificatesWriting(ns, info.serverSecret) : [];
        const coversShort = certs.length > 0 && certs.every((c) => dnsNames(c).some((d) => sanMatches(d, svc.name)));
        report(
          'CNPGI019',
          certs.length > 0 && !coversShort ? 'error' : 'warning',
          svc,
          `\`${PLUGIN_KEYS.serverName}\` is ignored by CloudNativePG ${model.versionString} (honoured from 1.26.3, 1.27.2 and 1.28.0): the operator verifies the short Service name '${svc.name}'${certs.length > 0 ? (coversShort ? ', which the server certificate covers' : ', which the server certificate does not cover') : ''}`,
          `upgrade the operator, or add '${svc.name}' to the server Certificate's dnsNames`,
          `metadata.annotations.${PLUGIN_KEYS.serverName}`,
        );
      }
    }
  },
});

/** The rules on the TLS files of the plugin pod. */
export const pluginPodTls = defineFamily({
  rules: [
    {
      id: 'CNPGI025',
      name: 'client-ca-trust',
      severities: [
        {
          severity: 'error',
          when: "the client certificate is issued by a single-tier CA (its CA certificate self-signed, from the Certificate writing the CA Secret or from that Secret's PEM), an ACME/Vault/Venafi or an external issuer; not for a cert-manager intermediate CA, whose tls.crt carries the intermediate",
        },
        {
          severity: 'warning',
          when: "the issuer, or the CA certificate of a CA issuer (looked up where cert-manager reads it: the Issuer's namespace, or the cluster-resource namespace for a ClusterIssuer), is not in the input",
        },
      ],
      what: "The plugin trusts the client Secret's `tls.crt` (`--client-cert=<mount>/tls.crt`) although the client certificate is issued by a CA (warning when the issuer is unknown).",
      why: `The plugin trusts the \`--client-cert\` file as its client CAs and requires a client certificate (${MACHINERY_TLS}); Go's TLS 1.3 client sends its certificate only if its issuer is among the server's acceptable CAs, so trusting a leaf issued by a single-tier CA makes the operator send none and the handshake fails with \`tls: certificate required\`; under a cert-manager intermediate CA, \`tls.crt\` is leaf + intermediate (cert-manager v1.21.1 pkg/util/pki/parse_certificate_chain.go ParseSingleCertificateChain), the intermediate is advertised, and it works. cert-manager writes the issuing CA (or the certificate itself when self-signed) to \`ca.crt\` (cert-manager v1.21.1 pkg/controller/certificaterequests/ca/ca.go CA.Sign, pkg/controller/certificaterequests/selfsigned/selfsigned.go SelfSigned.Sign).`,
      fix: 'Pass `--client-cert=<mount>/ca.crt`: cert-manager writes the CA there, and the certificate itself for a SelfSigned issuer, so it works for both.',
      kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod', 'cert-manager.io/Certificate', 'cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'],
    },
    {
      id: 'CNPGI026',
      name: 'plugin-tls-files',
      severities: [
        { severity: 'error', when: 'a flag reads a key of another Secret than the annotated one, or the wrong key' },
        { severity: 'warning', when: 'a flag reads a file that no Secret volume provides, or trusts a third Secret' },
      ],
      what: "The plugin's `--server-cert` / `--server-key` / `--client-cert` read a different Secret or key than the annotations name, or a file no Secret mounts (warning).",
      why: `The operator pins the server Secret's \`tls.crt\` and presents the client Secret's pair (${RECONCILE}); the plugin serves \`--server-cert\`/\`--server-key\` and trusts \`--client-cert\` (${MACHINERY_TLS}), so it must serve the one and trust the other.`,
      fix: 'Mount the server Secret and pass its `tls.crt` / `tls.key`; mount the client Secret and pass its `ca.crt`.',
      kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
    },
    {
      id: 'CNPGI027',
      name: 'plugin-extra-secrets',
      severities: [{ severity: 'warning', when: 'always: the mount may be intended' }],
      what: 'The plugin pod mounts Secrets other than the two annotated ones.',
      why: `Often a leftover from a renamed Certificate: the plugin then serves or trusts a stale certificate, read from the files its flags name (${MACHINERY_TLS}).`,
      fix: 'Mount only the annotated Secrets, or check the extra mount is intended (e.g. cloud credentials).',
      kinds: ['Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
    },
  ],
  check(model, report) {
    for (const info of model.pluginServices) {
      for (const t of info.templates) checkPluginPod(report, model, info, t);
    }
  },
});

function reportIssuer(report: Report<'CNPGI024'>, cert: Manifest, res: IssuerResolution): void {
  if (res.status === 'invalid') {
    report('CNPGI024', 'error', cert, `Certificate ${res.message}`, res.fix, 'spec.issuerRef');
  } else if (res.status === 'missing') {
    report(
      'CNPGI024',
      'warning',
      cert,
      `${res.kind} '${res.name}' is not in the input${res.hint ?? ''}; cert-manager issues nothing until it exists${res.kind === 'Issuer' ? ` in '${cert.namespace}'` : ''}`,
      `make sure the ${res.kind} exists${res.kind === 'Issuer' ? ` in '${cert.namespace}'` : ''}, or include it in the checked manifests`,
      'spec.issuerRef',
    );
  }
}

const EXTENDED_USAGES = new Set(CERT_MANAGER_EXTENDED_USAGES);

function checkUsages(report: Report<'CNPGI023'>, cert: Manifest, needed: 'server auth' | 'client auth', role: string): void {
  const usages = asArray(dig(cert.raw, 'spec', 'usages'))
    .filter((u): u is string => typeof u === 'string')
    .map((u) => u.toLowerCase());
  const ext = usages.filter((u) => EXTENDED_USAGES.has(u));
  if (ext.includes(needed) || ext.includes('any')) return;
  if (ext.length === 0) {
    report(
      'CNPGI023',
      'warning',
      cert,
      `${role} Certificate ${usages.length === 0 ? 'omits usages, so cert-manager issues `digital signature, key encipherment`' : `lists only key usages (${usages.join(', ')})`} with no extended key usage; Go accepts that for any purpose, so it works, but nothing states it is a ${needed} certificate`,
      `set usages: [${needed}]`,
      'spec.usages',
    );
    return;
  }
  report(
    'CNPGI023',
    'error',
    cert,
    `${role} Certificate has extended usages ${ext.join(', ')} but not '${needed}'; Go rejects it with \`x509: certificate specifies an incompatible key usage\``,
    `add '${needed}' to spec.usages`,
    'spec.usages',
  );
}

function dnsNames(cert: Manifest): string[] {
  return asArray(dig(cert.raw, 'spec', 'dnsNames')).filter((d): d is string => typeof d === 'string');
}

function checkServerName(report: Report<'CNPGI022'>, info: PluginServiceInfo, cert: Manifest): void {
  const names = dnsNames(cert);
  const ips = asArray(dig(cert.raw, 'spec', 'ipAddresses')).filter((d): d is string => typeof d === 'string');
  // An IP server name is checked against IP SANs, a DNS one against DNS SANs (Go VerifyHostname).
  if (goVerifyHostname(info.verifiedName, names, ips)) return;
  if (isIP(info.verifiedName) !== 0) {
    report(
      'CNPGI022',
      'error',
      cert,
      `the operator verifies the IP address '${info.verifiedName}', and the server Certificate's ipAddresses [${ips.join(', ')}] do not include it; Go compares an IP server name with IP SANs only`,
      `add '${info.verifiedName}' to spec.ipAddresses`,
      'spec.ipAddresses',
    );
    return;
  }
  const cn = asString(dig(cert.raw, 'spec', 'commonName'));
  const source = info.verifiedName === info.service.name ? `the short Service name of ${info.service.ref}` : `\`${PLUGIN_KEYS.serverName}\``;
  report(
    'CNPGI022',
    'error',
    cert,
    `server Certificate's dnsNames [${names.join(', ')}] miss '${info.verifiedName}', the name the operator verifies (${source})${cn === info.verifiedName ? '; the common name does not count: Go checks DNS SANs only' : ''}; the handshake fails with \`x509: certificate is valid for ..., not ${info.verifiedName}\``,
    `add '${info.verifiedName}' to spec.dnsNames`,
    'spec.dnsNames',
  );
}

/** The shared cert-manager index of a model, built once per run (the objects' resolved namespaces). */
const CM_INDEX = new WeakMap<DoctorModel, CertManagerIndex>();
function cmIndexOf(ctx: DoctorModel): CertManagerIndex {
  let index = CM_INDEX.get(ctx);
  if (!index) {
    const nsByRaw = new Map<unknown, string | undefined>();
    const pick = (kind: string, group: string): Json[] =>
      ctx.index.ofKind(kind, group).map((m) => {
        nsByRaw.set(m.raw, m.namespace);
        return m.raw as Json;
      });
    const nsOf = (o: Json): string | undefined => nsByRaw.get(o);
    const deployments = pick('Deployment', 'apps');
    index = certManagerIndex({
      certificates: pick('Certificate', 'cert-manager.io'),
      issuers: [...pick('Issuer', 'cert-manager.io'), ...pick('ClusterIssuer', 'cert-manager.io')],
      secrets: pick('Secret', ''),
      namespaceOf: nsOf,
      clusterResourceNamespace: resolveClusterResourceNamespace(deployments, ctx.clusterResourceNamespace, nsOf),
    });
    CM_INDEX.set(ctx, index);
  }
  return index;
}

function issuanceOf(ctx: DoctorModel, info: PluginServiceInfo): ClientIssuance {
  return clientIssuance(info.clientSecret ?? '', info.service.namespace ?? '', cmIndexOf(ctx));
}

function checkPluginPod(report: Report<'CNPGI025' | 'CNPGI026' | 'CNPGI027'>, ctx: DoctorModel, info: PluginServiceInfo, t: PodTemplate): void {
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
    for (const [flag, file, expectKey] of [
      ['server-cert', flags.serverCert, 'tls.crt'],
      ['server-key', flags.serverKey, 'tls.key'],
    ] as const) {
      if (file === undefined || !info.serverSecret) continue;
      const src = resolveFile(t.spec, c.container, file);
      if (src.type !== 'secret') {
        report(
          'CNPGI026',
          'warning',
          owner,
          `${where} serves --${flag}=${file}, which no Secret volume provides; the operator trusts only the server Secret '${info.serverSecret}' tls.crt`,
          `mount Secret '${info.serverSecret}' and pass its ${expectKey}`,
          path,
        );
      } else if (src.secretName !== info.serverSecret || src.key !== expectKey) {
        report(
          'CNPGI026',
          'error',
          owner,
          `${where} serves --${flag}=${file}, which is key '${src.key}' of Secret '${src.secretName}', but it must be ${expectKey} of the server Secret '${info.serverSecret}' (\`${PLUGIN_KEYS.serverSecret}\`), whose tls.crt the operator pins`,
          `pass --${flag}=<mount of '${info.serverSecret}'>/${expectKey}`,
          path,
        );
      }
    }
    if (flags.clientCert !== undefined && info.clientSecret) {
      const file = flags.clientCert;
      const src = resolveFile(t.spec, c.container, file);
      if (src.type !== 'secret') {
        report(
          'CNPGI026',
          'warning',
          owner,
          `${where} trusts --client-cert=${file}, which no Secret volume provides; it must hold the CA of the operator's client certificate (Secret '${info.clientSecret}')`,
          `mount Secret '${info.clientSecret}' and pass its ca.crt`,
          path,
        );
      } else if (src.secretName === info.serverSecret && src.secretName !== info.clientSecret) {
        report(
          'CNPGI026',
          'error',
          owner,
          `${where} trusts --client-cert=${file} from the server Secret '${src.secretName}'; the operator presents the client Secret '${info.clientSecret}', so the handshake fails`,
          `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`,
          path,
        );
      } else if (src.secretName !== info.clientSecret) {
        // a self-signed client certificate trusted through another Secret is CNPGI112's error
        if (issuanceOf(ctx, info).kind !== 'self-signed') {
          report(
            'CNPGI026',
            'warning',
            owner,
            `${where} trusts --client-cert=${file} from Secret '${src.secretName}', not the client Secret '${info.clientSecret}'; it works only if that file holds the CA that issued the operator's client certificate`,
            `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`,
            path,
          );
        }
      } else if (src.key === 'tls.key') {
        report(
          'CNPGI026',
          'error',
          owner,
          `${where} passes the client private key (tls.key) as --client-cert`,
          `pass --client-cert=<mount of '${info.clientSecret}'>/ca.crt`,
          path,
        );
      } else if (src.key === 'tls.crt') {
        const issuance = issuanceOf(ctx, info);
        if (issuance.kind === 'single-tier-ca' || issuance.kind === 'other-ca') {
          report(
            'CNPGI025',
            'error',
            owner,
            `${where} trusts the client leaf (--client-cert=${file}, tls.crt of '${info.clientSecret}'), but ${issuance.detail}: Go's client then sends no certificate and the handshake fails with \`tls: certificate required\``,
            `pass --client-cert=${file.replace(/tls\.crt$/, 'ca.crt')} (cert-manager writes the CA there)`,
            path,
          );
        } else if (issuance.kind === 'unknown' || issuance.kind === 'ca-unknown-tier') {
          report(
            'CNPGI025',
            'warning',
            owner,
            `${where} trusts the client leaf (--client-cert=${file}, tls.crt of '${info.clientSecret}') and ${issuance.detail}: that works only for a self-signed client certificate; a CA-issued one fails with \`tls: certificate required\``,
            `pass --client-cert=${file.replace(/tls\.crt$/, 'ca.crt')}, which works for both`,
            path,
          );
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
      report(
        'CNPGI027',
        'warning',
        owner,
        `the plugin mounts Secret '${secretName}' (volume '${name}'), which is neither the client nor the server Secret of ${info.service.ref}`,
        'mount only the annotated Secrets, unless this one is intended (e.g. credentials)',
        `${t.specPath}.volumes`,
      );
    }
  }
}
