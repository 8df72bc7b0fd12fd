import { Duration, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Certificate,
  CertificateSpecPrivateKeyAlgorithm,
  CertificateSpecPrivateKeyRotationPolicy,
  CertificateSpecUsages,
  Issuer,
} from '../../imports/cert-manager.io';
import { durationMillis, goDuration } from '../common/duration';
import { invalid } from '../common/errors';
import { nameIf } from '../common/metadata';
import { isDnsSubdomain, typeName } from '../common/validate';
import { CERT_MANAGER_GROUP, IssuerRef } from './issuer-ref';
import {
  CertificateRotationPolicy,
  PluginCertificateOptions,
  PluginTls,
  PluginTlsMode,
  PrivateCaOptions,
  PrivateKeyAlgorithm,
} from './plugin-tls';

/** The smallest certificate lifetime cert-manager accepts. */
const MIN_DURATION_MS = 3_600_000;
/** The smallest `renewBefore` cert-manager accepts. */
const MIN_RENEW_BEFORE_MS = 300_000;
/** X.509 caps a common name at 64 characters, and cert-manager enforces it. */
const MAX_COMMON_NAME = 64;
/** What a Secret data key may be named. */
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * Fixed names for the cert-manager objects and Secrets of {@link PluginCertificates}, for
 * example to adopt objects an upstream manifest created. Each defaults to the name cdk8s
 * generates; each Secret defaults to its Certificate's name. Ignored by `PluginTls.fromSecrets`
 * (the Secrets are yours) and, for the issuer, by `PluginTls.fromIssuer`.
 */
export interface PluginCertificateNames {
  /**
   * The Issuer that signs the leaves (the SelfSigned Issuer, or the private CA's Issuer).
   * @default - generated from the construct path
   */
  readonly issuer?: string;
  /**
   * The operator's client Certificate.
   * @default - generated from the construct path
   */
  readonly clientCertificate?: string;
  /**
   * The plugin's server Certificate.
   * @default - generated from the construct path
   */
  readonly serverCertificate?: string;
  /**
   * The client Secret (`cnpg.io/pluginClientSecret`).
   * @default - the client Certificate's name
   */
  readonly clientSecret?: string;
  /**
   * The server Secret (`cnpg.io/pluginServerSecret`).
   * @default - the server Certificate's name
   */
  readonly serverSecret?: string;
}

/** Props of {@link PluginCertificates}. */
export interface PluginCertificatesProps {
  /** How the certificates are produced. */
  readonly tls: PluginTls;
  /** The plugin Service's name: the short name the operator verifies by default. */
  readonly serviceName: string;
  /** The namespace of the plugin (and of the operator). */
  readonly namespace: string;
  /**
   * The server name the operator verifies when `cnpg.io/pluginServerName` is set.
   * @default - the short Service name
   */
  readonly serverName?: string;
  /**
   * Labels for every object made here.
   * @default - none
   */
  readonly labels?: Record<string, string>;
  /**
   * Fixed names for the objects made here.
   * @default - names generated from the construct path
   */
  readonly names?: PluginCertificateNames;
}

/**
 * The cert-manager objects behind a standalone plugin's mutual TLS, and the names of the two
 * Secrets the operator and the plugin use.
 *
 * `StandalonePlugin` makes one of these as its child `Tls`; use it directly only to build a
 * plugin Deployment of your own.
 */
export class PluginCertificates extends Construct {
  /** How the certificates are produced. */
  public readonly mode: PluginTlsMode;
  /** The Secret holding the operator's client certificate (`cnpg.io/pluginClientSecret`). */
  public readonly clientSecretName: string;
  /** The Secret holding the plugin's server certificate (`cnpg.io/pluginServerSecret`). */
  public readonly serverSecretName: string;
  /** The key of the client Secret that the plugin trusts as the client CA. */
  public readonly clientCaKey: string;
  /** The DNS names of the server certificate; empty for `fromSecrets()`. */
  public readonly serverDnsNames: string[];
  /** The Issuer created for the leaves (SelfSigned, or the private CA); undefined otherwise. */
  public readonly issuer?: Issuer;
  /** The SelfSigned Issuer that signs the private CA (privateCa mode only). */
  public readonly bootstrapIssuer?: Issuer;
  /** The private CA certificate (privateCa mode only). */
  public readonly caCertificate?: Certificate;
  /** The operator's client Certificate; undefined for `fromSecrets()`. */
  public readonly clientCertificate?: Certificate;
  /** The plugin's server Certificate; undefined for `fromSecrets()`. */
  public readonly serverCertificate?: Certificate;

  constructor(scope: Construct, id: string, props: PluginCertificatesProps) {
    super(scope, id);
    const tls = props.tls as unknown;
    if (!(tls instanceof PluginTls)) {
      invalid(scope, 'tls', tls, `must be a PluginTls, not ${typeName(tls)}`, 'use PluginTls.selfSigned(), privateCa(), fromIssuer(...) or fromSecrets(...)');
    }
    const config = tls._config;
    this.mode = config.mode;
    const labels = props.labels ?? {};

    if (config.mode === PluginTlsMode.SECRETS) {
      const s = (config.secrets ?? {}) as unknown as Record<string, unknown>;
      this.clientSecretName = secretName(scope, 'tls.clientSecretName', s.clientSecretName);
      this.serverSecretName = secretName(scope, 'tls.serverSecretName', s.serverSecretName);
      if (this.clientSecretName === this.serverSecretName) {
        invalid(scope, 'tls.serverSecretName', this.serverSecretName, 'is also the client Secret',
          'use two Secrets: the operator presents the client one and trusts the server one');
      }
      const key = s.clientCaKey ?? 'ca.crt';
      if (typeof key !== 'string' || !SECRET_KEY.test(key)) {
        invalid(scope, 'tls.clientCaKey', key, 'is not a Secret key', "use the key holding the client CA, normally 'ca.crt'");
      }
      this.clientCaKey = key;
      this.serverDnsNames = [];
      return;
    }

    const opts = checkCertificateOptions(scope, config.certificates ?? {});
    const names = checkNames(scope, props.names);
    const dnsNames = serverDnsNames(props.serviceName, props.namespace, props.serverName, opts.extraServerDnsNames);
    this.serverDnsNames = dnsNames;
    this.clientCaKey = 'ca.crt';

    let issuerRef: { name: string; kind: string; group: string };
    if (config.mode === PluginTlsMode.SELF_SIGNED) {
      this.issuer = new Issuer(this, 'Issuer', { metadata: { labels, ...nameIf(names.issuer) }, spec: { selfSigned: {} } });
      issuerRef = { name: this.issuer.name, kind: 'Issuer', group: CERT_MANAGER_GROUP };
    } else if (config.mode === PluginTlsMode.PRIVATE_CA) {
      const ca = checkCaOptions(scope, config.certificates ?? {});
      this.bootstrapIssuer = new Issuer(this, 'BootstrapIssuer', { metadata: { labels }, spec: { selfSigned: {} } });
      const caCertificate: Certificate = new Certificate(this, 'CaCertificate', {
        metadata: { labels },
        spec: {
          isCa: true,
          commonName: commonName(props.serviceName, '-ca'),
          secretName: nameOf(() => caCertificate),
          duration: ca.duration,
          renewBefore: ca.renewBefore,
          privateKey: opts.privateKey,
          usages: [CertificateSpecUsages.DIGITAL_SIGNATURE, CertificateSpecUsages.CERT_SIGN, CertificateSpecUsages.CRL_SIGN],
          issuerRef: { name: this.bootstrapIssuer.name, kind: 'Issuer', group: CERT_MANAGER_GROUP },
        },
      });
      this.caCertificate = caCertificate;
      const caName = caCertificate.name;
      this.issuer = new Issuer(this, 'CaIssuer', { metadata: { labels, ...nameIf(names.issuer) }, spec: { ca: { secretName: caName } } });
      issuerRef = { name: this.issuer.name, kind: 'Issuer', group: CERT_MANAGER_GROUP };
    } else {
      const ref = config.issuer as unknown;
      if (!(ref instanceof IssuerRef)) {
        invalid(scope, 'tls.issuer', ref, `must be an IssuerRef, not ${typeName(ref)}`, "use IssuerRef.issuer('name'), IssuerRef.clusterIssuer('name') or IssuerRef.external({...})");
      }
      issuerRef = { name: ref.name, kind: ref.kind, group: ref.group };
    }

    // The two leaves differ only in their name suffix, usage and DNS names.
    const leaf = (id: string, suffix: string, usage: CertificateSpecUsages, fixed: { name?: string; secret?: string }, dns?: string[]): Certificate => {
      const cert: Certificate = new Certificate(this, id, {
        metadata: { labels, ...nameIf(fixed.name) },
        spec: {
          commonName: commonName(props.serviceName, suffix),
          ...(dns ? { dnsNames: dns } : {}),
          secretName: fixed.secret ?? nameOf(() => cert),
          duration: opts.duration,
          renewBefore: opts.renewBefore,
          privateKey: opts.privateKey,
          usages: [CertificateSpecUsages.DIGITAL_SIGNATURE, usage],
          issuerRef,
        },
      });
      return cert;
    };
    this.clientCertificate = leaf('ClientCertificate', '-client', CertificateSpecUsages.CLIENT_AUTH,
      { name: names.clientCertificate, secret: names.clientSecret });
    this.clientSecretName = names.clientSecret ?? this.clientCertificate.name;
    this.serverCertificate = leaf('ServerCertificate', '', CertificateSpecUsages.SERVER_AUTH,
      { name: names.serverCertificate, secret: names.serverSecret }, dnsNames);
    this.serverSecretName = names.serverSecret ?? this.serverCertificate.name;
  }
}

/**
 * Each Secret is named after its Certificate, whose name cdk8s generates from the construct
 * path only when the Certificate exists; the spec therefore reads it lazily, at synth.
 */
function nameOf(cert: () => Certificate): string {
  return Lazy.any({ produce: () => cert().name }) as unknown as string;
}

interface CheckedCertificateOptions {
  readonly duration: string;
  readonly renewBefore: string;
  readonly privateKey: {
    algorithm: CertificateSpecPrivateKeyAlgorithm;
    size?: number;
    rotationPolicy: CertificateSpecPrivateKeyRotationPolicy;
  };
  readonly extraServerDnsNames: string[];
}

function checkLifetime(scope: Construct, props: { duration: string; renewBefore: string },
  values: { duration: unknown; renewBefore: unknown }, defaults: { duration: Duration; renewBefore: Duration },
): { duration: string; renewBefore: string } {
  const durationMs = durationMillis(scope, props.duration, values.duration ?? defaults.duration, 'Duration.hours(2160)');
  const renewMs = durationMillis(scope, props.renewBefore, values.renewBefore ?? defaults.renewBefore, 'Duration.hours(360)');
  const d = goDuration(scope, props.duration, durationMs);
  const r = goDuration(scope, props.renewBefore, renewMs);
  if (durationMs < MIN_DURATION_MS) {
    invalid(scope, props.duration, d, 'is shorter than one hour, the least cert-manager accepts', 'use Duration.hours(1) or more');
  }
  if (renewMs < MIN_RENEW_BEFORE_MS) {
    invalid(scope, props.renewBefore, r, 'is shorter than five minutes, the least cert-manager accepts', 'use Duration.minutes(5) or more');
  }
  if (renewMs >= durationMs) {
    invalid(scope, props.renewBefore, r, `is not shorter than ${props.duration} '${d}'`,
      `make ${props.renewBefore} shorter than ${props.duration}, so the certificate is renewed before it expires`);
  }
  return { duration: d, renewBefore: r };
}

function checkCertificateOptions(scope: Construct, raw: PluginCertificateOptions): CheckedCertificateOptions {
  if (raw === null || typeof raw !== 'object') {
    invalid(scope, 'tls options', raw, `must be an object, not ${typeName(raw)}`, 'pass { duration: Duration.hours(2160), ... } or nothing');
  }
  const lifetime = checkLifetime(scope, { duration: 'tls.duration', renewBefore: 'tls.renewBefore' },
    { duration: raw.duration, renewBefore: raw.renewBefore }, { duration: Duration.hours(2160), renewBefore: Duration.hours(360) });

  const algorithm = raw.privateKeyAlgorithm ?? PrivateKeyAlgorithm.ECDSA;
  if (!Object.values(PrivateKeyAlgorithm).includes(algorithm)) {
    invalid(scope, 'tls.privateKeyAlgorithm', algorithm, 'is not a key algorithm cert-manager knows', 'use PrivateKeyAlgorithm.ECDSA, RSA or ED25519');
  }
  let size: number | undefined = raw.privateKeySize;
  if (algorithm === PrivateKeyAlgorithm.ED25519) {
    if (size !== undefined) {
      invalid(scope, 'tls.privateKeySize', size, 'is set for an Ed25519 key, which has no size', 'leave privateKeySize unset');
    }
  } else if (algorithm === PrivateKeyAlgorithm.RSA) {
    size = size ?? 2048;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 2048 || size > 8192) {
      invalid(scope, 'tls.privateKeySize', size, 'is not a safe RSA key size', 'use 2048, 3072 or 4096 (cert-manager accepts 2048 to 8192)');
    }
  } else {
    size = size ?? 256;
    if (size !== 256 && size !== 384 && size !== 521) {
      invalid(scope, 'tls.privateKeySize', size, 'is not an ECDSA curve size', 'use 256 (P-256), 384 (P-384) or 521 (P-521)');
    }
  }
  const rotation = raw.rotationPolicy ?? CertificateRotationPolicy.ALWAYS;
  if (!Object.values(CertificateRotationPolicy).includes(rotation)) {
    invalid(scope, 'tls.rotationPolicy', rotation, 'is not a rotation policy', 'use CertificateRotationPolicy.ALWAYS or NEVER');
  }
  const extra = raw.extraServerDnsNames ?? [];
  if (!Array.isArray(extra)) {
    invalid(scope, 'tls.extraServerDnsNames', extra, `must be an array of DNS names, not ${typeName(extra)}`, "pass ['plugin.example.internal']");
  }
  extra.forEach((name, i) => {
    const bare = typeof name === 'string' && name.startsWith('*.') ? name.slice(2) : name;
    if (typeof bare !== 'string' || !isDnsSubdomain(bare)) {
      invalid(scope, `tls.extraServerDnsNames[${i}]`, name, 'is not a DNS name', "use a lower-case DNS name such as 'plugin.example.internal'");
    }
  });
  return {
    ...lifetime,
    privateKey: {
      algorithm: algorithm as unknown as CertificateSpecPrivateKeyAlgorithm,
      ...(size !== undefined ? { size } : {}),
      rotationPolicy: rotation as unknown as CertificateSpecPrivateKeyRotationPolicy,
    },
    extraServerDnsNames: extra,
  };
}

function checkCaOptions(scope: Construct, raw: PrivateCaOptions): { duration: string; renewBefore: string } {
  return checkLifetime(scope, { duration: 'tls.caDuration', renewBefore: 'tls.caRenewBefore' },
    { duration: raw.caDuration, renewBefore: raw.caRenewBefore }, { duration: Duration.hours(87600), renewBefore: Duration.hours(720) });
}

/** Every name the operator may verify, then the user's extras, without repeats. */
function serverDnsNames(service: string, namespace: string, serverName: string | undefined, extra: string[]): string[] {
  const names = [
    service,
    `${service}.${namespace}`,
    `${service}.${namespace}.svc`,
    `${service}.${namespace}.svc.cluster.local`,
    ...(serverName ? [serverName] : []),
    ...extra,
  ];
  return [...new Set(names)];
}

/**
 * A common name within X.509's 64 characters. The suffix is kept whole, so the CA, the client
 * and the server certificate never end up with the same subject.
 */
function commonName(base: string, suffix: string): string {
  return base.slice(0, MAX_COMMON_NAME - suffix.length) + suffix;
}

function secretName(scope: Construct, prop: string, value: unknown): string {
  if (typeof value !== 'string' || !isDnsSubdomain(value)) {
    invalid(scope, prop, value, 'is not a Secret name (a lower-case DNS subdomain)', "use the Secret's metadata.name, e.g. 'plugin-server-tls'");
  }
  return value;
}

/** Fixed names must be names, and the two Secrets must differ (the operator reads both). */
function checkNames(scope: Construct, raw: unknown): PluginCertificateNames {
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    invalid(scope, 'tls names', raw, `must be an object, not ${typeName(raw)}`, "pass { clientSecret: 'plugin-client-tls', ... } or nothing");
  }
  const names = raw as PluginCertificateNames;
  for (const key of ['issuer', 'clientCertificate', 'serverCertificate', 'clientSecret', 'serverSecret'] as const) {
    if (names[key] !== undefined) secretName(scope, `names.${key}`, names[key]);
  }
  if (names.clientSecret !== undefined && names.clientSecret === names.serverSecret) {
    invalid(scope, 'names.serverSecret', names.serverSecret, 'is also the client Secret', 'give the two Secrets different names');
  }
  return names;
}
