import { Duration } from 'cdk8s';
import { IssuerRef } from './issuer-ref';

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
   * @default Duration.hours(360) (15 days)
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
   * How long the private CA certificate is valid.
   * @default Duration.hours(87600) (10 years)
   */
  readonly caDuration?: Duration;
  /**
   * How long before expiry the CA certificate is renewed.
   * @default Duration.hours(720) (30 days)
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
  /**
   * A namespaced SelfSigned Issuer and one self-signed certificate per side, like the upstream
   * plugin installs. The default.
   */
  public static selfSigned(options: PluginCertificateOptions = {}): PluginTls {
    return new PluginTls({ mode: PluginTlsMode.SELF_SIGNED, certificates: options });
  }

  /**
   * A private CA for this plugin: a SelfSigned bootstrap Issuer issues a CA Certificate, a CA
   * Issuer backed by it issues the client and server certificates.
   */
  public static privateCa(options: PrivateCaOptions = {}): PluginTls {
    return new PluginTls({ mode: PluginTlsMode.PRIVATE_CA, certificates: options });
  }

  /** The client and server certificates from an issuer that exists already. */
  public static fromIssuer(issuer: IssuerRef, options: PluginCertificateOptions = {}): PluginTls {
    return new PluginTls({ mode: PluginTlsMode.ISSUER, certificates: options, issuer });
  }

  /**
   * Secrets that something else writes (another tool, a sealed secret, an external secret
   * store). No cert-manager objects are made; the annotations and mounts name these Secrets.
   */
  public static fromSecrets(options: PluginSecretsOptions): PluginTls {
    return new PluginTls({ mode: PluginTlsMode.SECRETS, secrets: options });
  }

  /** @internal */
  public readonly _config: PluginTlsConfig;

  private constructor(config: PluginTlsConfig) {
    this._config = config;
  }

  /** Which way the certificates are produced. */
  public get mode(): PluginTlsMode {
    return this._config.mode;
  }
}
