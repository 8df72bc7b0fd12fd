import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, checkValue } from '../common/props';

/** The API group of cert-manager's own issuers. */
export const CERT_MANAGER_GROUP = 'cert-manager.io';

/** Properties of an issuer that this program does not create. */
export interface ExternalIssuerProps {
  /** API group of the issuer, e.g. `awspca.cert-manager.io`. */
  readonly group: string;
  /** Kind of the issuer, e.g. `AWSPCAClusterIssuer`. */
  readonly kind: string;
  /** Name of the issuer object. */
  readonly name: string;
}

/**
 * A reference to a cert-manager issuer that already exists, for `PluginTls.fromIssuer()`.
 *
 * cert-manager resolves an `Issuer` in the Certificate's own namespace, so `IssuerRef.issuer()`
 * must name an Issuer in the plugin's (the operator's) namespace; a `ClusterIssuer` is
 * cluster-scoped.
 */
export class IssuerRef {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories = "IssuerRef.issuer('name'), IssuerRef.clusterIssuer('name') or IssuerRef.external({...})";

  /** The API group of cert-manager's own issuers (`cert-manager.io`). */
  public static readonly CERT_MANAGER_GROUP = CERT_MANAGER_GROUP;

  /** A namespaced cert-manager `Issuer` in the plugin's namespace. */
  public static issuer(name: string): IssuerRef {
    return new IssuerRef('IssuerRef.issuer', CERT_MANAGER_GROUP, 'Issuer', name);
  }

  /** A cluster-scoped cert-manager `ClusterIssuer`. */
  public static clusterIssuer(name: string): IssuerRef {
    return new IssuerRef('IssuerRef.clusterIssuer', CERT_MANAGER_GROUP, 'ClusterIssuer', name);
  }

  /**
   * An issuer of another API group (an external issuer such as AWS PCA, Vault through
   * an issuer plugin, or step-issuer).
   */
  public static external(props: ExternalIssuerProps): IssuerRef {
    checkProps('IssuerRef.external', 'props', props, EXTERNAL_SPEC, {
      required: ['group', 'kind', 'name'],
      example: "{ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'corp-ca' }",
    });
    return new IssuerRef('IssuerRef.external', props.group, props.kind, props.name);
  }

  /** The name of every factory is checked here; `where` names the factory. */
  private constructor(
    where: string,
    /** The issuer's API group. */
    public readonly group: string,
    /** The issuer's kind. */
    public readonly kind: string,
    /** The issuer's name. */
    public readonly name: string,
  ) {
    checkValue(where, 'name', name, NAME_KIND);
  }
}

/** An issuer's name is written in a Certificate's `spec.issuerRef`, where the schema takes any string. */
const NAME_KIND = Kind.dnsName('a Kubernetes object name', 'corp-ca');

const EXTERNAL_SPEC: PropSpec<ExternalIssuerProps> = {
  group: Kind.dnsName('an API group', 'awspca.cert-manager.io'),
  kind: Kind.test(
    (v) => typeof v === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(v),
    'is not a Kubernetes kind',
    "use the issuer's kind in CamelCase, e.g. 'AWSPCAClusterIssuer'",
  ),
  name: NAME_KIND,
};
