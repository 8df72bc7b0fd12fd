import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Certificate,
  CertificateSpecPrivateKeyAlgorithm,
  CertificateSpecPrivateKeyRotationPolicy,
  CertificateSpecUsages,
  Issuer,
} from '../../imports/cert-manager.io';
import { childObjectName } from '../common/names';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { renderDuration } from '../common/render';
import { invalid } from '../manifests/errors';
import { addSchemaGuard } from '../schema/guard';
import { CERT_MANAGER_GROUP } from './issuer-ref';
import { DEFAULT_LIFETIMES, renewBeforeOf } from './lifetimes';
import { CertificateRotationPolicy, PluginCertificateOptions, PluginTls, PluginTlsMode, PrivateKeyAlgorithm } from './plugin-tls';

/** X.509 caps a common name at 64 characters, and cert-manager enforces it. */
const MAX_COMMON_NAME = 64;

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

/** What each key of {@link PluginCertificateNames} holds: the Secret names are written in a spec, where no guard checks them as names. @internal */
export const PLUGIN_CERTIFICATE_NAMES_SPEC: PropSpec<PluginCertificateNames> = {
  issuer: Kind.string("use a name such as 'my-plugin-issuer'"),
  clientCertificate: Kind.string("use a name such as 'my-plugin-client'"),
  serverCertificate: Kind.string("use a name such as 'my-plugin-server'"),
  clientSecret: Kind.dnsName('a Secret name', 'my-plugin-client-tls'),
  serverSecret: Kind.dnsName('a Secret name', 'my-plugin-server-tls'),
};

const PROPS_SPEC: PropSpec<PluginCertificatesProps> = {
  tls: Kind.factory(PluginTls),
  serviceName: Kind.string("use the plugin Service's name"),
  namespace: Kind.string("use the plugin's namespace"),
  serverName: Kind.hostName('a DNS name', 'my-plugin.cnpg-system.svc'),
  labels: Kind.labels,
  names: Kind.props(PLUGIN_CERTIFICATE_NAMES_SPEC),
};

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
    checkProps(this, 'props', props, PROPS_SPEC, { required: ['tls', 'serviceName', 'namespace'] });
    const config = props.tls._config;
    this.mode = config.mode;
    const labels = { ...props.labels };
    const names: PluginCertificateNames = props.names ?? {};
    if (names.clientSecret !== undefined && names.clientSecret === names.serverSecret) {
      invalid(scope, 'names.serverSecret', names.serverSecret, 'is also the client Secret', 'give the two Secrets different names');
    }

    if (config.mode === PluginTlsMode.SECRETS) {
      this.clientSecretName = config.secrets.clientSecretName;
      this.serverSecretName = config.secrets.serverSecretName;
      this.clientCaKey = config.secrets.clientCaKey ?? 'ca.crt';
      this.serverDnsNames = [];
      return;
    }

    const opts = certificateSpec(config.certificates);
    const dnsNames = serverDnsNames(props.serviceName, props.namespace, props.serverName, config.certificates.extraServerDnsNames ?? []);
    this.serverDnsNames = dnsNames;
    this.clientCaKey = 'ca.crt';
    const issuerNamed = (childId: string) => ({ labels, name: names.issuer ?? childObjectName(this, childId, 'subdomain') });

    let issuerRef: { name: string; kind: string; group: string };
    if (config.mode === PluginTlsMode.SELF_SIGNED) {
      this.issuer = this.guarded(new Issuer(this, 'Issuer', { metadata: issuerNamed('Issuer'), spec: { selfSigned: {} } }));
      issuerRef = { name: this.issuer.name, kind: 'Issuer', group: CERT_MANAGER_GROUP };
    } else if (config.mode === PluginTlsMode.PRIVATE_CA) {
      const ca = config.certificates;
      this.bootstrapIssuer = this.guarded(
        new Issuer(this, 'BootstrapIssuer', {
          metadata: { labels, name: childObjectName(this, 'BootstrapIssuer', 'subdomain') },
          spec: { selfSigned: {} },
        }),
      );
      const caName = childObjectName(this, 'CaCertificate', 'subdomain');
      this.caCertificate = this.guarded(
        new Certificate(this, 'CaCertificate', {
          metadata: { labels, name: caName },
          spec: {
            isCa: true,
            commonName: commonName(props.serviceName, '-ca'),
            secretName: caName,
            duration: renderDuration(ca.caDuration ?? DEFAULT_LIFETIMES.caDuration),
            renewBefore: renderOptionalDuration(renewBeforeOf(ca.caRenewBefore, ca.caDuration, DEFAULT_LIFETIMES.caRenewBefore)),
            privateKey: opts.privateKey,
            usages: [CertificateSpecUsages.DIGITAL_SIGNATURE, CertificateSpecUsages.CERT_SIGN, CertificateSpecUsages.CRL_SIGN],
            issuerRef: { name: this.bootstrapIssuer.name, kind: 'Issuer', group: CERT_MANAGER_GROUP },
          },
        }),
      );
      this.issuer = this.guarded(new Issuer(this, 'CaIssuer', { metadata: issuerNamed('CaIssuer'), spec: { ca: { secretName: caName } } }));
      issuerRef = { name: this.issuer.name, kind: 'Issuer', group: CERT_MANAGER_GROUP };
    } else {
      const ref = config.issuer;
      issuerRef = { name: ref.name, kind: ref.kind, group: ref.group };
    }

    // The two leaves differ only in their name suffix, usage and DNS names.
    const leaf = (childId: string, suffix: string, usage: CertificateSpecUsages, fixed: { name?: string; secret?: string }, dns?: string[]): Certificate => {
      const name = fixed.name ?? childObjectName(this, childId, 'subdomain');
      return this.guarded(
        new Certificate(this, childId, {
          metadata: { labels, name },
          spec: {
            commonName: commonName(props.serviceName, suffix),
            ...(dns ? { dnsNames: dns } : {}),
            secretName: fixed.secret ?? name,
            duration: opts.duration,
            renewBefore: opts.renewBefore,
            privateKey: opts.privateKey,
            usages: [CertificateSpecUsages.DIGITAL_SIGNATURE, usage],
            issuerRef,
          },
        }),
      );
    };
    this.clientCertificate = leaf('ClientCertificate', '-client', CertificateSpecUsages.CLIENT_AUTH, {
      name: names.clientCertificate,
      secret: names.clientSecret,
    });
    this.clientSecretName = names.clientSecret ?? this.clientCertificate.name;
    this.serverCertificate = leaf(
      'ServerCertificate',
      '',
      CertificateSpecUsages.SERVER_AUTH,
      { name: names.serverCertificate, secret: names.serverSecret },
      dnsNames,
    );
    this.serverSecretName = names.serverSecret ?? this.serverCertificate.name;
  }

  /** Every cert-manager object is checked at synth against the pinned CRD schema. */
  private guarded<T extends ApiObject>(obj: T): T {
    addSchemaGuard(this, obj);
    return obj;
  }
}

interface LeafSpec {
  readonly duration: string;
  /** Undefined when cert-manager chooses (a third of the lifetime before expiry). */
  readonly renewBefore?: string;
  readonly privateKey: {
    algorithm: CertificateSpecPrivateKeyAlgorithm;
    size?: number;
    rotationPolicy: CertificateSpecPrivateKeyRotationPolicy;
  };
}

/** The leaves' lifetime and key, with the documented defaults (the options were checked by the PluginTls factory). */
function certificateSpec(o: PluginCertificateOptions): LeafSpec {
  const algorithm = o.privateKeyAlgorithm ?? PrivateKeyAlgorithm.ECDSA;
  const size = algorithm === PrivateKeyAlgorithm.ED25519 ? undefined : (o.privateKeySize ?? (algorithm === PrivateKeyAlgorithm.RSA ? 2048 : 256));
  return {
    duration: renderDuration(o.duration ?? DEFAULT_LIFETIMES.duration),
    renewBefore: renderOptionalDuration(renewBeforeOf(o.renewBefore, o.duration, DEFAULT_LIFETIMES.renewBefore)),
    privateKey: {
      algorithm: algorithm as unknown as CertificateSpecPrivateKeyAlgorithm,
      ...(size !== undefined ? { size } : {}),
      rotationPolicy: (o.rotationPolicy ?? CertificateRotationPolicy.ALWAYS) as unknown as CertificateSpecPrivateKeyRotationPolicy,
    },
  };
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

/** A duration in the Go form, or undefined (the key is then not written). */
function renderOptionalDuration(d: Duration | undefined): string | undefined {
  return d === undefined ? undefined : renderDuration(d);
}
