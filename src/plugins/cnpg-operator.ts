import * as fs from 'fs';
import { ApiObject, Include } from 'cdk8s';
import { Construct } from 'constructs';
import {
  ARGOCD_SERVER_SIDE_APPLY,
  ARGOCD_SYNC_OPTIONS_ANNOTATION,
  asksArgoCdForServerSideApply,
  tooLargeForClientSideApply,
} from '../checks/client-side-apply';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { invalid } from '../manifests/errors';
import { isDnsLabel } from '../manifests/k8s-names';
import { IOperatorDeployment, OperatorDeployment, SidecarHost, isManagerContainer, podViewOfManifest } from './cnpg-operator-deployment';
import { guardOnce } from './internal';
import { SidecarPlugin, SidecarPluginOptions } from './sidecar-plugin';

const PROPS_SPEC: PropSpec<CnpgOperatorManifestProps> = {
  path: Kind.string("pass the path of the operator release manifest, such as 'vendor/cnpg-1.30.0.yaml'"),
  namespace: Kind.test(
    (v) => typeof v === 'string' && isDnsLabel(v),
    'is not a namespace name (RFC 1123 label)',
    "use lower-case letters, digits and '-', such as 'cnpg-system'",
  ),
};

/**
 * Props of {@link CnpgOperator.fromManifest}.
 */
export interface CnpgOperatorManifestProps {
  /**
   * Path of the operator's release manifest (for example a `cnpg-1.30.0.yaml` kept in your
   * repository), relative to the working directory of the cdk8s program, like cdk8s `Include`.
   * URLs are refused so that synthesis never depends on the network.
   */
  readonly path: string;

  /**
   * The namespace the operator runs in, for a manifest whose Deployment has no
   * `metadata.namespace` (applied with `kubectl -n`). It is only reported by `namespace`;
   * nothing in the manifest is rewritten.
   * @default - the operator Deployment's `metadata.namespace` (the chart's namespace when the
   * manifest has none)
   */
  readonly namespace?: string;
}

/**
 * The CloudNativePG operator, installed from its release manifest, to which sidecar plugins
 * can be added.
 *
 * The manifest is loaded with cdk8s `Include` (child id `Resource`) and every object comes out
 * as it went in, except the operator Deployment, which only gains what `addSidecarPlugin()`
 * adds, and the objects too large for client-side apply (in 1.30.0 the Cluster and Pooler
 * CRDs), which gain the Argo CD annotation `argocd.argoproj.io/sync-options: ServerSideApply=true`
 * (appended to a sync options value they have): apply the output with `kubectl apply
 * --server-side`, as upstream installs it; the doctor's CNPGI124 says why.
 *
 * cdk8s itself sorts keys (no change in meaning), drops `null` values and empty
 * `metadata` maps, reads YAML 1.1 (unquoted timestamps become ISO strings), and applies the
 * chart's labels and namespace to the objects that have none (cluster-scoped ones included):
 * use a chart without a namespace for the operator.
 *
 * The operator Deployment is found by what it is, not by its position: the one `apps/v1`
 * Deployment with a container that sets `OPERATOR_NAMESPACE` and runs the `controller`
 * subcommand (the CloudNativePG manager).
 */
export class CnpgOperator extends Construct implements IOperatorDeployment {
  /**
   * Loads an operator release manifest.
   */
  public static fromManifest(scope: Construct, id: string, props: CnpgOperatorManifestProps): CnpgOperator {
    return new CnpgOperator(scope, id, props);
  }

  /** The namespace the operator runs in (where standalone plugins must be installed). */
  public readonly namespace: string;
  /** The operator Deployment, as loaded from the manifest. */
  public readonly deployment: ApiObject;
  /** The name of the manager container. */
  public readonly managerContainerName: string;
  private readonly include: Include;
  private readonly operator: IOperatorDeployment;
  private readonly sidecars: SidecarPlugin[] = [];

  private constructor(scope: Construct, id: string, props: CnpgOperatorManifestProps) {
    super(scope, id);
    checkProps(this, 'props', props, PROPS_SPEC, { required: ['path'], example: "{ path: 'vendor/cnpg-1.30.0.yaml' }" });
    const fix = "pass the path of the operator release manifest, such as 'vendor/cnpg-1.30.0.yaml'";
    const file = props.path;
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(file);
    if (url || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      invalid(
        this,
        'path',
        file,
        url ? 'is a URL; synthesis would depend on the network' : `is not a file (relative paths start at the working directory ${process.cwd()})`,
        url ? `download the manifest into your repository and ${fix}` : fix,
      );
    }
    this.include = new Include(this, 'Resource', { url: file });
    // What cdk8s writes of the manifest (with the chart's labels and namespace) must still be
    // accepted by the API server.
    for (const obj of this.include.apiObjects) guardOnce(this, obj);
    // The 1.30.0 Cluster and Pooler CRDs are too large for client-side apply (the API server
    // refuses their last-applied annotation): ask Argo CD to apply them server-side, as upstream
    // installs the manifest (kubectl apply --server-side). kubectl and Flux ignore the annotation.
    for (const obj of this.include.apiObjects) askServerSideApplyIfTooLarge(obj);

    const found = this.include.apiObjects
      .filter((o) => o.kind === 'Deployment' && o.apiVersion === 'apps/v1')
      .map((o) => ({ obj: o, managers: (podViewOfManifest(o.toJson())?.containers ?? []).filter(isManagerContainer) }))
      .filter((d) => d.managers.length > 0);
    const managers = found.length === 1 ? found[0].managers : [];
    const obj = found.length === 1 ? found[0].obj : undefined;
    const declared: unknown = obj?.toJson().metadata?.namespace;
    const namespace = props.namespace ?? declared;
    // The later rules hold trivially while an earlier one fails (no single Deployment found).
    refuseFirst(this, [
      [
        found.length !== 1,
        'path',
        file,
        found.length === 0
          ? "has no CloudNativePG operator Deployment (an apps/v1 Deployment with a container that sets OPERATOR_NAMESPACE and runs the 'controller' subcommand)"
          : `has ${found.length} CloudNativePG operator Deployments (${found.map((d) => describeObject(d.obj)).join(', ')})`,
        found.length === 0
          ? 'pass the CloudNativePG release manifest (cnpg-<version>.yaml)'
          : 'keep one operator per manifest, or load it with Include and use OperatorDeployment.fromApiObject on the one you mean',
      ],
      [
        managers.length > 1,
        'path',
        file,
        `has an operator Deployment ${obj && describeObject(obj)} with ${managers.length} manager containers (${managers.map((c) => `'${c.name}'`).join(', ')})`,
        'keep one manager container, or use OperatorDeployment.fromApiObject with managerContainerName',
      ],
      [
        typeof declared === 'string' && props.namespace !== undefined && declared !== props.namespace,
        'namespace',
        props.namespace,
        `differs from '${declared}', where the manifest puts the operator Deployment`,
        `drop namespace (the operator runs in '${declared}') or change the manifest`,
      ],
      [
        obj !== undefined && typeof namespace !== 'string',
        'path',
        file,
        `has an operator Deployment ${obj && describeObject(obj)} without metadata.namespace, so the operator's namespace cannot be known`,
        'pass namespace (the namespace you apply the manifest to)',
      ],
    ]);
    this.deployment = obj as ApiObject;
    this.managerContainerName = managers[0].name;
    this.operator = OperatorDeployment.fromApiObject(this.deployment, { managerContainerName: this.managerContainerName });
    this.namespace = namespace as string;
  }

  /** Every object loaded from the manifest, in file order (a copy). */
  public get apiObjects(): ApiObject[] {
    return [...this.include.apiObjects];
  }

  /** The sidecar plugins added with `addSidecarPlugin()` (a copy). */
  public get sidecarPlugins(): SidecarPlugin[] {
    return [...this.sidecars];
  }

  /**
   * Adds a plugin as a sidecar container of the operator, talking to it over a Unix socket.
   * The operator restarts (its pod template changes) and finds the socket at startup.
   */
  public addSidecarPlugin(id: string, options: SidecarPluginOptions): SidecarPlugin {
    // Spread only an object: anything else reaches SidecarPlugin as is, to be refused there.
    const props = options !== null && typeof options === 'object' && !Array.isArray(options) ? { ...options, operator: this } : options;
    const plugin = new SidecarPlugin(this, id, props as SidecarPluginOptions & { operator: IOperatorDeployment });
    this.sidecars.push(plugin);
    return plugin;
  }

  /** @internal */
  public _sidecarHost(): SidecarHost {
    return this.operator._sidecarHost();
  }
}

function describeObject(obj: ApiObject): string {
  const ns = obj.toJson().metadata?.namespace;
  return typeof ns === 'string' ? `${ns}/${obj.name}` : obj.name;
}

/** Adds Argo CD's `ServerSideApply=true` sync option to an object client-side apply would be refused. */
function askServerSideApplyIfTooLarge(obj: ApiObject): void {
  const json = obj.toJson();
  if (asksArgoCdForServerSideApply(json) || !tooLargeForClientSideApply(json)) return;
  const existing: unknown = (json.metadata?.annotations ?? {})[ARGOCD_SYNC_OPTIONS_ANNOTATION];
  obj.metadata.addAnnotation(
    ARGOCD_SYNC_OPTIONS_ANNOTATION,
    typeof existing === 'string' && existing !== '' ? `${existing},${ARGOCD_SERVER_SIDE_APPLY}` : ARGOCD_SERVER_SIDE_APPLY,
  );
}
