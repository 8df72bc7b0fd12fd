/*
 * What the doctor is given (its options) and what it returns besides the findings: the report,
 * the plugins the operator would discover, the CRD rules it could not evaluate. The findings
 * themselves are the rule engine's (src/rules/finding.ts).
 */
import type { Finding, SuppressedFinding } from '../rules/finding';

/**
 * Options of `checkManifests`.
 */
export interface DoctorOptions {
  /**
   * The namespace the CloudNativePG operator runs in: the only namespace whose plugin Services
   * and Secrets it reads.
   * @default - from the operator Deployment in the input (its `OPERATOR_NAMESPACE`, else its
   * namespace); else `cnpg-system`, with a warning (CNPGI001)
   */
  readonly operatorNamespace?: string;
  /**
   * The CloudNativePG version the manifests are meant for, e.g. `1.26.1`; some behaviour
   * depends on it (the `cnpg.io/pluginServerName` annotation, the address the operator dials).
   * @default '1.30.0'
   */
  readonly cnpgVersion?: string;
  /**
   * Names of plugins that exist outside the checked manifests (installed by a Helm chart,
   * another repository, or a sidecar whose socket name the manifests do not show).
   * @default []
   */
  readonly knownPlugins?: string[];
  /**
   * Namespace assumed for namespaced objects that have none, as `kubectl apply -n` or a
   * kustomization's `namespace:` would set.
   * @default - the operator namespace
   */
  readonly defaultNamespace?: string;
  /**
   * Rule ids to switch off for the whole run, e.g. `['CNPGI050']`; each must be a registered
   * rule. Objects can also silence rules for themselves with the annotation
   * `cnpg-i.dev/doctor-ignore: CNPGI027,CNPGI050`.
   * @default []
   */
  readonly disable?: string[];
  /**
   * The plugin name each sidecar container of the operator Deployment serves, by container
   * name, e.g. `{ 'barman-cloud': 'barman-cloud.cloudnative-pg.io' }`. A socket's name is chosen
   * by the plugin at run time; when every sidecar's name is known (from its `--plugin-name` flag
   * or `PLUGIN_NAME` env, from here, or from the operator Deployment's
   * `cnpg-i.dev/sidecar-plugins` annotation, in that order), an unknown plugin name in a Cluster
   * is an error. `SidecarPlugin` writes that annotation, so its sidecars need no entry here.
   * @default {}
   */
  readonly sidecarPlugins?: { readonly [container: string]: string };
  /**
   * Also list the CRD rules that could not be checked here (`notEvaluated` in the report):
   * transition rules (`oldSelf`) and rules calling Kubernetes-only CEL functions.
   * @default false
   */
  readonly verbose?: boolean;
  /**
   * cert-manager's cluster-resource namespace: where it reads a ClusterIssuer's CA Secret (the
   * controller's `--cluster-resource-namespace`).
   * @default - the flag of a cert-manager controller Deployment in the input (`kube-system`, the
   * controller's code default, when it has none); else `cert-manager`, what the Helm chart and the
   * static manifests give (the chart passes `$(POD_NAMESPACE)`)
   */
  readonly clusterResourceNamespace?: string;
  /**
   * Whether the input is everything that will be installed (with `knownPlugins` and
   * `sidecarPlugins` for what it leaves out). By default the doctor takes its input as a part:
   * a finding that rests on an object missing from the input (a plugin, a Secret, an issuer, an
   * ObjectStore, the pods behind a plugin Service) is a warning, since the object may be
   * installed from elsewhere; with `complete`, such a finding is an error.
   * @default false
   */
  readonly complete?: boolean;
}

/** A CRD validation rule that an object reaches but the doctor could not evaluate. */
export interface NotEvaluatedRule {
  /** The object, `Kind/namespace/name`. */
  readonly object: string;
  /** Where the rule sits in the object, e.g. `spec.serviceAccountName`. */
  readonly path: string;
  /** The rule's CEL expression. */
  readonly rule: string;
  /** Why it was not evaluated. */
  readonly reason: string;
}

/**
 * A plugin the operator would know about, as the doctor worked it out.
 */
export interface DiscoveredPlugin {
  /** The plugin name Clusters use. */
  readonly name: string;
  /**
   * How it is found: a plugin Service, a sidecar socket (named by the container, by
   * `sidecarPlugins`, or by the Deployment's `cnpg-i.dev/sidecar-plugins` annotation), or
   * `knownPlugins`. A name served by a Service and a socket is the Service's, as in the operator
   * (CNPGI065).
   */
  readonly source: 'service' | 'sidecar' | 'known';
  /** The object that declares it (`Service/ns/name` or `Deployment/ns/name`), if any. */
  readonly object?: string;
  /** TCP port from `cnpg.io/pluginPort` (Service plugins). */
  readonly port?: number;
  /** Secret the operator presents as its client certificate (Service plugins). */
  readonly clientSecret?: string;
  /** Secret whose `tls.crt` the operator trusts for the server (Service plugins). */
  readonly serverSecret?: string;
  /** TLS server name the operator verifies (Service plugins). */
  readonly serverName?: string;
  /** The address the operator dials (Service plugins), or the socket path (sidecars). */
  readonly address?: string;
}

/**
 * Everything `analyzeManifests` worked out.
 */
export interface DoctorReport {
  /** The findings, errors first, then in input order. */
  readonly findings: Finding[];
  /** Plugins the operator would discover (valid Services in its namespace, sidecars, known). */
  readonly plugins: DiscoveredPlugin[];
  /** The operator namespace used for the checks. */
  readonly operatorNamespace: string;
  /** The CloudNativePG version used for the checks. */
  readonly cnpgVersion: string;
  /** Number of objects checked, after expanding `kind: List`. */
  readonly objectCount: number;
  /** The findings that `disable` or an ignore annotation silenced (not in `findings`). */
  readonly suppressed: SuppressedFinding[];
  /**
   * The findings withheld because their rule read, or pointed at, a field holding unrendered text
   * (CNPGI092 names the fields): not judged, and not in `findings`.
   */
  readonly withheld: Finding[];
  /** With `verbose`: the CRD rules the objects reach that could not be evaluated here. */
  readonly notEvaluated?: NotEvaluatedRule[];
}
