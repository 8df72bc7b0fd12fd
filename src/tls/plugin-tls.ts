import { Duration } from 'cdk8s';
import { Kind } from '../common/prop-kinds';
import { PropSpec, Rule, checkProps, checkValue, refuseFirst } from '../common/props';
import { renderDuration } from '../common/render';
import { isDnsHostName } from '../manifests/k8s-names';
import { IssuerRef } from './issuer-ref';
import { DEFAULT_LIFETIMES, renewBeforeOf } from './lifetimes';

/** Key algorithms cert-manager can generate (the wire values of `spec.privateKey.algorithm`). */
export enum PrivateKeyAlgorithm {
  /** ECDSA; size 256 (P-256), 384 or 521. */
  ECDSA = 'ECDSA',
  /** RSA; size 2048 or more. */
  RSA = 'RSA',
  /** Ed25519; has no size. */
  ED25519 = 'Ed25519',
}

/** When cert-manager makes a new private key (the wire values of `spec.privateKey.rotationPolicy`). */
export enum CertificateRotationPolicy {
  /** A new key on every issuance and renewal. */
  ALWAYS = 'Always',
  /** Keep the key across renewals. */
  NEVER = 'Never',
}

/** How the plugin's mTLS certificates are issued. */
export enum PluginTlsMode {
  /** One self-signed certificate per side (the upstream layout). */
  SELF_SIGNED = 'SelfSigned',
  /** A private CA made for this plugin issues both leaves. */
  PRIVATE_CA = 'PrivateCa',
  /** An existing issuer issues both leaves. */
  ISSUER = 'Issuer',
  /** Secrets that exist already; no cert-manager objects. */
  SECRETS = 'Secrets',
}

/**
 * Options of the two leaf certificates (client and server).
 */
export interface PluginCertificateOptions {
  /**
   * How long each certificate is valid. cert-manager needs at least one hour.
   * @default Duration.hours(2160) (90 days, like the upstream plugins)
   */
  readonly duration?: Duration;
  /**
   * How long before expiry cert-manager renews. At least 5 minutes, shorter than `duration`.
   * @default Duration.hours(360) (15 days) when `duration` is left out too; with a `duration`,
   *   not written: cert-manager renews when two thirds of the lifetime have passed
   */
  readonly renewBefore?: Duration;
  /**
   * Private key algorithm.
   * @default PrivateKeyAlgorithm.ECDSA
   */
  readonly privateKeyAlgorithm?: PrivateKeyAlgorithm;
  /**
   * Private key size: 256, 384 or 521 for ECDSA; 2048 or more for RSA; not set for Ed25519.
   * @default 256 for ECDSA, 2048 for RSA
   */
  readonly privateKeySize?: number;
  /**
   * When to make a new private key.
   * @default CertificateRotationPolicy.ALWAYS
   */
  readonly rotationPolicy?: CertificateRotationPolicy;
  /**
   * More DNS names for the server certificate, beyond the ones the operator may verify (the
   * short Service name, its `.<ns>`, `.<ns>.svc` and `.<ns>.svc.cluster.local` forms, and
   * `serverName`), which are always there.
   * @default - none
   */
  readonly extraServerDnsNames?: string[];
}

/** Options of `PluginTls.privateCa()`. */
export interface PrivateCaOptions extends PluginCertificateOptions {
  /**
   * How long the private CA certificate is valid: at least as long as `duration`, since
   * cert-manager does not cut a leaf's lifetime to its CA's.
   * @default Duration.hours(87600) (10 years)
   */
  readonly caDuration?: Duration;
  /**
   * How long before expiry the CA certificate is renewed. At least 5 minutes, shorter than
   * `caDuration`.
   * @default Duration.hours(720) (30 days) when `caDuration` is left out too; with a
   *   `caDuration`, not written: cert-manager renews the CA when two thirds of its lifetime have
   *   passed
   */
  readonly caRenewBefore?: Duration;
}

/** The Secrets of `PluginTls.fromSecrets()`. */
export interface PluginSecretsOptions {
  /**
   * The Secret the operator presents as its client certificate (`tls.crt`, `tls.key`); the
   * plugin mounts it to trust the client.
   */
  readonly clientSecretName: string;
  /** The Secret of the plugin's server certificate (`tls.crt`, `tls.key`); the operator trusts its `tls.crt`. */
  readonly serverSecretName: string;
  /**
   * The key of the client Secret that holds the CA the plugin trusts for client certificates.
   * For a CA-issued client certificate it must be the CA (`ca.crt`); `tls.crt` works only for a
   * self-signed client certificate.
   * @default 'ca.crt'
   */
  readonly clientCaKey?: string;
}

/** @internal */
export type PluginTlsConfig =
  | { readonly mode: PluginTlsMode.SELF_SIGNED; readonly certificates: PluginCertificateOptions }
  | { readonly mode: PluginTlsMode.PRIVATE_CA; readonly certificates: PrivateCaOptions }
  | { readonly mode: PluginTlsMode.ISSUER; readonly certificates: PluginCertificateOptions; readonly issuer: IssuerRef }
  | { readonly mode: PluginTlsMode.SECRETS; readonly secrets: PluginSecretsOptions };

/**
 * How a standalone plugin's mutual TLS is set up. There is no mode without TLS: the operator
 * refuses to talk to a TCP plugin without it.
 *
 * In every mode the plugin trusts the client certificate through the client Secret's `ca.crt`
 * (or `clientCaKey`), which is the certificate itself for a self-signed one and the CA for a
 * CA-issued one; trusting the client `tls.crt` would break CA-issued certificates with
 * `tls: certificate required`.
 */
export class PluginTls {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories = 'PluginTls.selfSigned(), privateCa(), fromIssuer(...) or fromSecrets(...)';

  /**
   * A namespaced SelfSigned Issuer and one self-signed certificate per side, like the upstream
   * plugin installs. The default.
   */
  public static selfSigned(options: PluginCertificateOptions = {}): PluginTls {
    return new PluginTls('PluginTls.selfSigned', { mode: PluginTlsMode.SELF_SIGNED, certificates: options });
  }

  /**
   * A private CA for this plugin: a SelfSigned bootstrap Issuer issues a CA Certificate, a CA
   * Issuer backed by it issues the client and server certificates.
   */
  public static privateCa(options: PrivateCaOptions = {}): PluginTls {
    return new PluginTls('PluginTls.privateCa', { mode: PluginTlsMode.PRIVATE_CA, certificates: options });
  }

  /** The client and server certificates from an issuer that exists already. */
  public static fromIssuer(issuer: IssuerRef, options: PluginCertificateOptions = {}): PluginTls {
    return new PluginTls('PluginTls.fromIssuer', { mode: PluginTlsMode.ISSUER, certificates: options, issuer });
  }

  /**
   * Secrets that something else writes (another tool, a sealed secret, an external secret
   * store). No cert-manager objects are made; the annotations and mounts name these Secrets.
   */
  public static fromSecrets(options: PluginSecretsOptions): PluginTls {
    return new PluginTls('PluginTls.fromSecrets', { mode: PluginTlsMode.SECRETS, secrets: options });
  }

  /** @internal */
  public readonly _config: PluginTlsConfig;

  /** Every factory's arguments are checked here, in one place; `where` names the factory. */
  private constructor(where: string, config: PluginTlsConfig) {
    checkTlsConfig(where, config);
    this._config = config.mode === PluginTlsMode.SECRETS ? { mode: config.mode, secrets: { ...config.secrets } } : config;
  }

  /** Which way the certificates are produced. */
  public get mode(): PluginTlsMode {
    return this._config.mode;
  }
}

const MIN_DURATION_MS = 3_600_000;
const MIN_RENEW_BEFORE_MS = 300_000;
/** What a Secret data key may be named. */
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

const CERTIFICATE_SPEC: PropSpec<PluginCertificateOptions> = {
  duration: Kind.duration(),
  renewBefore: Kind.duration(),
  privateKeyAlgorithm: Kind.enumOf(PrivateKeyAlgorithm, 'PrivateKeyAlgorithm'),
  privateKeySize: Kind.integer(1),
  rotationPolicy: Kind.enumOf(CertificateRotationPolicy, 'CertificateRotationPolicy'),
  extraServerDnsNames: Kind.each(
    Kind.test(
      // a certificate's DNS name: a label longer than 63 characters could never be looked up
      (v) => typeof v === 'string' && isDnsHostName(v.startsWith('*.') ? v.slice(2) : v),
      'is not a DNS name',
      "use a lower-case DNS name such as 'plugin.example.internal' (or '*.example.internal')",
    ),
  ),
};

const PRIVATE_CA_SPEC: PropSpec<PrivateCaOptions> = { ...CERTIFICATE_SPEC, caDuration: Kind.duration(), caRenewBefore: Kind.duration() };

const SECRETS_SPEC: PropSpec<PluginSecretsOptions> = {
  clientSecretName: Kind.dnsName('a Secret name', 'plugin-client-tls'),
  serverSecretName: Kind.dnsName('a Secret name', 'plugin-server-tls'),
  clientCaKey: Kind.test((v) => typeof v === 'string' && SECRET_KEY.test(v), 'is not a Secret key', "use the key holding the client CA, normally 'ca.crt'"),
};

/** What each factory's options hold. */
const SPECS: Record<PluginTlsMode, PropSpec<PrivateCaOptions & PluginSecretsOptions>> = {
  [PluginTlsMode.SELF_SIGNED]: CERTIFICATE_SPEC,
  [PluginTlsMode.PRIVATE_CA]: PRIVATE_CA_SPEC,
  [PluginTlsMode.ISSUER]: CERTIFICATE_SPEC,
  [PluginTlsMode.SECRETS]: SECRETS_SPEC,
} as unknown as Record<PluginTlsMode, PropSpec<PrivateCaOptions & PluginSecretsOptions>>;

/** The key sizes cert-manager can generate for each algorithm, and the fix for another. */
const KEY_SIZES: Record<PrivateKeyAlgorithm, [(n: number) => boolean, string]> = {
  [PrivateKeyAlgorithm.ECDSA]: [(n) => [256, 384, 521].includes(n), 'use 256 (P-256), 384 (P-384) or 521 (P-521)'],
  [PrivateKeyAlgorithm.RSA]: [(n) => n >= 2048 && n <= 8192, 'use 2048, 3072 or 4096 (cert-manager accepts 2048 to 8192)'],
  [PrivateKeyAlgorithm.ED25519]: [() => false, 'leave privateKeySize unset: an Ed25519 key has no size'],
};

/**
 * The arguments of a PluginTls factory, checked where they are written, as one list of rules.
 * The lifetimes follow what cert-manager accepts (cert-manager v1.21.1
 * internal/apis/certmanager/validation/certificate.go ValidateDuration: duration at least 1h,
 * renewBefore at least 5m and below duration) and the key sizes what it can generate
 * (pkg/util/pki/generate.go GeneratePrivateKeyForCertificate); a private CA must live at least
 * as long as its leaves, since cert-manager signs a leaf for its full duration whatever the CA's
 * expiry (pkg/util/pki/csr.go SignCSRTemplate).
 */
function checkTlsConfig(where: string, config: PluginTlsConfig): void {
  const secrets = config.mode === PluginTlsMode.SECRETS ? config.secrets : undefined;
  const options = config.mode === PluginTlsMode.SECRETS ? config.secrets : config.certificates;
  // The options of the certificate factories may be left out.
  if (options !== undefined || config.mode === PluginTlsMode.SECRETS) {
    checkProps(
      where,
      'options',
      options,
      SPECS[config.mode],
      config.mode === PluginTlsMode.SECRETS
        ? { required: ['clientSecretName', 'serverSecretName'], example: "{ clientSecretName: 'plugin-client-tls', serverSecretName: 'plugin-server-tls' }" }
        : {},
    );
  }
  if (config.mode === PluginTlsMode.ISSUER) checkValue(where, 'issuer', config.issuer, Kind.factory(IssuerRef));
  const o: PrivateCaOptions = config.mode === PluginTlsMode.SECRETS ? {} : (config.certificates ?? {});
  const go = (n: number) => renderDuration(Duration.millis(n));
  const ms = (d: Duration | undefined, fallback: Duration) => (d ?? fallback).toMilliseconds();
  const duration = ms(o.duration, DEFAULT_LIFETIMES.duration);
  const caDuration = ms(o.caDuration, DEFAULT_LIFETIMES.caDuration);
  // One pair of lifetimes for the leaves, a second for the private CA; a renewal left to
  // cert-manager (undefined) is a third of the lifetime, which it always accepts.
  const lifetimes = (dProp: string, d: number, rProp: string, renewal: Duration | undefined): Array<Rule | false> => {
    const r = renewal?.toMilliseconds();
    return [
      [d < MIN_DURATION_MS, dProp, go(d), 'is shorter than one hour, the least cert-manager accepts', 'use Duration.hours(1) or more'],
      r !== undefined && [
        r < MIN_RENEW_BEFORE_MS,
        rProp,
        go(r),
        'is shorter than five minutes, the least cert-manager accepts',
        'use Duration.minutes(5) or more',
      ],
      r !== undefined && [
        r >= d,
        rProp,
        go(r),
        `is not shorter than ${dProp} (${go(d)})`,
        `make ${rProp} shorter than ${dProp}, so the certificate is renewed before it expires`,
      ],
    ];
  };
  const privateCa = config.mode === PluginTlsMode.PRIVATE_CA;
  const keySize = KEY_SIZES[o.privateKeyAlgorithm ?? PrivateKeyAlgorithm.ECDSA];
  refuseFirst(where, [
    [
      secrets !== undefined && secrets.clientSecretName === secrets.serverSecretName,
      'serverSecretName',
      secrets?.serverSecretName,
      'is also the client Secret',
      'use two Secrets: the operator presents the client one and trusts the server one',
    ],
    ...(config.mode !== PluginTlsMode.SECRETS
      ? lifetimes('duration', duration, 'renewBefore', renewBeforeOf(o.renewBefore, o.duration, DEFAULT_LIFETIMES.renewBefore))
      : []),
    ...(privateCa ? lifetimes('caDuration', caDuration, 'caRenewBefore', renewBeforeOf(o.caRenewBefore, o.caDuration, DEFAULT_LIFETIMES.caRenewBefore)) : []),
    [
      privateCa && caDuration < duration,
      'caDuration',
      go(caDuration),
      `is shorter than the leaves' duration (${go(duration)}); cert-manager signs each leaf for its full duration, so it would outlive the CA that signed it`,
      'make caDuration at least as long as duration',
    ],
    [
      o.privateKeySize !== undefined && !keySize[0](o.privateKeySize),
      'privateKeySize',
      o.privateKeySize,
      `is not a valid ${o.privateKeyAlgorithm ?? PrivateKeyAlgorithm.ECDSA} key size`,
      keySize[1],
    ],
  ]);
}
