/*
 * The model the rules read: what the operator would see in the input (its namespace, the plugin
 * Services, the sidecar plugins, the plugins it would discover). It is built completely before
 * any rule runs, so that no rule depends on the order the others ran in.
 */
import { Version, dialsFullyQualified } from '../checks/cnpg-version';
import { Json } from '../manifests/json';
import { Manifest, ManifestIndex, PodTemplate } from '../manifests/manifest-index';
import { DEFAULT_OPERATOR_NAMESPACE, OperatorCandidate, findOperatorCandidates } from '../manifests/operator';
import { IgnoreAnnotation, readIgnoreAnnotation } from '../rules/suppressions';
import { DiscoveredPlugin, NotEvaluatedRule } from './finding';
import { PluginKeyProblem, readPluginService } from './plugin-service-rules';
import { SidecarDeployment, readSidecars } from './sidecar-rules';

/** What a finding is attached to: an object of the input (a `Manifest` is one), or the input. */
export interface FindingTarget {
  /** `Kind/namespace/name`, `Kind/name`, `document #<n>` or `input`. */
  readonly ref: string;
  /** Position in the input array. */
  readonly index?: number;
  /** The object itself, whose ignore annotation silences rules for it. */
  readonly raw?: Json;
}

/** A Service that looks like a plugin Service, as the operator would read it. */
export interface PluginServiceInfo {
  readonly service: Manifest;
  /** `cnpg.io/pluginName`, when a non-empty string. */
  readonly pluginName?: string;
  /** Parsed `cnpg.io/pluginPort`, when valid. */
  readonly port?: number;
  readonly clientSecret?: string;
  readonly serverSecret?: string;
  /** `cnpg.io/pluginServerName`, when a non-empty string. */
  readonly serverNameAnnotation?: string;
  /** The name the operator verifies (depends on the CNPG version). */
  readonly verifiedName: string;
  /** All of label and the three annotations usable. */
  readonly valid: boolean;
  /** In the operator namespace. */
  readonly inOperatorNamespace: boolean;
  /** Pod templates behind its selector (at most 25). */
  readonly templates: PodTemplate[];
  /** What is wrong with the label and annotations, as read (turned into findings by a rule). */
  readonly keyProblems: readonly PluginKeyProblem[];
}

/** A sidecar plugin container in the operator Deployment. */
export interface SidecarInfo {
  readonly deployment: Manifest;
  readonly containerName: string;
  readonly containerPath: string;
  /** The plugin name, when the manifests or the options show it. */
  readonly pluginName?: string;
  /** Where the name comes from. */
  readonly nameSource?: 'manifest' | 'option';
  readonly socketPath?: string;
}

/** How the operator namespace was chosen. */
export type OperatorNamespaceSource =
  | { readonly kind: 'option' }
  | {
      readonly kind: 'deployment';
      readonly from: OperatorCandidate;
      readonly conflicting: ReadonlyArray<{ readonly candidate: OperatorCandidate; readonly namespace: string }>;
    }
  | { readonly kind: 'default'; readonly candidate?: OperatorCandidate };

/** The options the model is built from, validated. */
export interface ModelOptions {
  readonly operatorNamespace?: string;
  readonly defaultNamespace?: string;
  readonly version: Version;
  readonly versionString: string;
  readonly knownPlugins: readonly string[];
  /** Sidecar container name to the plugin name it serves. */
  readonly sidecarPlugins: ReadonlyMap<string, string>;
  /** The registered rule ids, against which ignore annotations are read. */
  readonly ruleIds: ReadonlySet<string>;
  /** Whether the rules note what they could not evaluate (`notEvaluated`). */
  readonly verbose?: boolean;
  /** cert-manager's cluster-resource namespace, when given. */
  readonly clusterResourceNamespace?: string;
}

/**
 * Everything the rules read. Immutable once `buildModel` returns.
 */
export class DoctorModel {
  public readonly pluginServices: PluginServiceInfo[] = [];
  public readonly sidecarDeployments: SidecarDeployment[] = [];
  public readonly sidecars: SidecarInfo[] = [];
  public readonly discovered = new Map<string, DiscoveredPlugin>();
  /** The ignore annotation of each object that has one, by the object's raw JSON. */
  public readonly ignores = new Map<Json, IgnoreAnnotation>();
  /** With `verbose`: the CRD rules the schema family could not evaluate (filled by that family). */
  public readonly notEvaluated: NotEvaluatedRule[] = [];
  /** Whether `notEvaluated` is wanted. */
  public verbose = false;
  /** cert-manager's cluster-resource namespace, when the options give it. */
  public clusterResourceNamespace: string | undefined;

  constructor(
    public readonly index: ManifestIndex,
    public readonly operatorNamespace: string,
    public readonly operatorNamespaceSource: OperatorNamespaceSource,
    public readonly operatorCandidates: readonly OperatorCandidate[],
    public readonly version: Version,
    public readonly versionString: string,
    public readonly knownPlugins: ReadonlySet<string>,
    public readonly sidecarPlugins: ReadonlyMap<string, string>,
    /** The namespace assumed for objects that have none, when given. */
    public readonly defaultNamespace: string | undefined,
  ) {}

  /** Registers a plugin the operator would know; the first source wins. */
  public discover(plugin: DiscoveredPlugin): void {
    if (!this.discovered.has(plugin.name)) this.discovered.set(plugin.name, plugin);
  }

  /** Sidecars whose plugin name neither the manifests nor the options show. */
  public unnamedSidecars(): SidecarInfo[] {
    return this.sidecars.filter((s) => s.pluginName === undefined);
  }
}

function resolveOperatorNamespace(candidates: readonly OperatorCandidate[], opts: ModelOptions): { ns: string; source: OperatorNamespaceSource } {
  if (opts.operatorNamespace) return { ns: opts.operatorNamespace, source: { kind: 'option' } };
  const resolved = candidates.map((c) => ({ c, ns: c.envNamespace ?? c.namespace ?? opts.defaultNamespace }));
  const first = resolved.find((r) => r.ns !== undefined);
  if (!first) return { ns: DEFAULT_OPERATOR_NAMESPACE, source: { kind: 'default', candidate: candidates[0] } };
  const conflicting = resolved.filter((r) => r.ns !== undefined && r.ns !== first.ns).map((r) => ({ candidate: r.c, namespace: r.ns! }));
  return { ns: first.ns!, source: { kind: 'deployment', from: first.c, conflicting } };
}

/** Builds the model of `objects`: the operator namespace first, then plugins and sidecars. */
export function buildModel(objects: readonly unknown[], opts: ModelOptions): DoctorModel {
  // the operator namespace first: it is also the default namespace of unnamespaced objects
  const candidates = findOperatorCandidates(objects);
  const { ns, source } = resolveOperatorNamespace(candidates, opts);
  const index = new ManifestIndex(objects, opts.defaultNamespace ?? ns);
  const model = new DoctorModel(
    index,
    ns,
    source,
    candidates,
    opts.version,
    opts.versionString,
    new Set(opts.knownPlugins),
    opts.sidecarPlugins,
    opts.defaultNamespace,
  );
  model.verbose = opts.verbose === true;
  model.clusterResourceNamespace = opts.clusterResourceNamespace;

  for (const m of index.all) {
    const ignore = readIgnoreAnnotation(m.raw, opts.ruleIds);
    if (ignore) model.ignores.set(m.raw, ignore);
  }
  for (const svc of index.ofKind('Service', '')) {
    const info = readPluginService(model, svc);
    if (info) model.pluginServices.push(info);
  }
  // An operator whose manager sets no OPERATOR_NAMESPACE matches no plugin Service at all
  // (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go isPluginService compares the
  // Service's namespace with configuration.Current.OperatorNamespace, empty then): CNPGI002.
  const blind = candidates.length > 0 && candidates.every((c) => !c.hasNamespaceEnv);
  for (const info of model.pluginServices) {
    if (blind || !info.valid || !info.inOperatorNamespace) continue;
    const svcNs = info.service.namespace!;
    const host = dialsFullyQualified(model.version) ? `${info.service.name}.${svcNs}.svc` : info.service.name;
    model.discover({
      name: info.pluginName!,
      source: 'service',
      object: info.service.ref,
      port: info.port,
      clientSecret: info.clientSecret,
      serverSecret: info.serverSecret,
      serverName: info.verifiedName,
      address: `${host}:${info.port}`,
    });
  }
  for (const d of readSidecars(model)) {
    model.sidecarDeployments.push(d);
    for (const s of d.sidecars) {
      model.sidecars.push(s);
      if (s.pluginName)
        model.discover({ name: s.pluginName, source: 'sidecar', object: s.deployment.ref, address: s.socketPath ? `unix://${s.socketPath}` : undefined });
    }
  }
  for (const name of opts.knownPlugins) model.discover({ name, source: 'known' });
  return model;
}
