import { isDnsSubdomain } from '../common/validate';
import { invalid } from '../common/errors';

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
  /** A namespaced cert-manager `Issuer` in the plugin's namespace. */
  public static issuer(name: string): IssuerRef {
    return new IssuerRef(CERT_MANAGER_GROUP, 'Issuer', checkName('IssuerRef.issuer', name));
  }

  /** A cluster-scoped cert-manager `ClusterIssuer`. */
  public static clusterIssuer(name: string): IssuerRef {
    return new IssuerRef(CERT_MANAGER_GROUP, 'ClusterIssuer', checkName('IssuerRef.clusterIssuer', name));
  }

  /**
   * An issuer of another API group (an external issuer such as AWS PCA, Vault through
   * an issuer plugin, or step-issuer).
   */
  public static external(props: ExternalIssuerProps): IssuerRef {
    const p = (props ?? {}) as Partial<ExternalIssuerProps>;
    if (typeof p.group !== 'string' || !isDnsSubdomain(p.group)) {
      invalid('IssuerRef.external', 'group', p.group, 'is not an API group (a DNS subdomain)', "use the issuer's API group, e.g. 'awspca.cert-manager.io'");
    }
    if (typeof p.kind !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(p.kind)) {
      invalid('IssuerRef.external', 'kind', p.kind, 'is not a Kubernetes kind', "use the issuer's kind in CamelCase, e.g. 'AWSPCAClusterIssuer'");
    }
    return new IssuerRef(p.group, p.kind, checkName('IssuerRef.external', p.name));
  }

  private constructor(
    /** The issuer's API group. */
    public readonly group: string,
    /** The issuer's kind. */
    public readonly kind: string,
    /** The issuer's name. */
    public readonly name: string,
  ) {}
}

function checkName(where: string, name: unknown): string {
  if (typeof name !== 'string' || !isDnsSubdomain(name)) {
    invalid(where, 'name', name, 'is not a Kubernetes object name (a lower-case DNS subdomain)', "use the issuer's metadata.name, e.g. 'corp-ca'");
  }
  return name;
}
