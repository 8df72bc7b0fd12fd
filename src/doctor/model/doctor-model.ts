/*
 * The model the rules read: what the operator would see in the input (its namespace, the plugin
 * Services, the sidecar plugins, the plugins it would discover). What every rule needs is built
 * completely before any rule runs, so that no rule depends on the order the others ran in; what
 * only some rules need (the operator's configuration, the cert-manager index, the Deployments
 * behind a plugin Service, the schema layer's issues) is computed on first use, once per run,
 * and shared by the rules that read it.
 */
import { CertManagerIndex, ClientIssuance, clientIssuance } from '../../checks/client-trust';
import { Version, dialsFullyQualified } from '../../checks/cnpg-version';
import { COMPLETE_INPUT_NOTE } from '../../checks/issue';
import { OperatorConfig, resolveOperatorConfig } from '../../checks/operator-config';
import { ContainerPort } from '../../checks/service-port';
import { Json, asArray, asObject, asString, dig, stringMap } from '../../manifests/json';
import { Manifest, ManifestIndex } from '../../manifests/manifest-index';
import { DEFAULT_OPERATOR_NAMESPACE, OperatorCandidate, OperatorRelease, findOperatorCandidates, findOperatorReleases } from '../../manifests/operator';
import type { UnappliedPatch } from '../../manifests/unapplied-patches';
import { UnrenderedField, noteReads, recordingReads } from '../../manifests/unrendered';
import type { RetiredRule } from '../../rules/registry';
import { IgnoreAnnotation, readIgnoreAnnotation } from '../../rules/suppressions';
import { DiscoveredPlugin, NotEvaluatedRule } from '../report';
import { buildCertManagerIndex } from './cert-manager';
import { PluginServiceInfo, readPluginService } from './plugin-services';
import { SchemaReading, readSchemaIssues } from './schema-issues';
import { SidecarDeployment, SidecarInfo, readSidecars } from './sidecars';

/** The Deployments a plugin Service selects, with their containers' images and ports. */
export interface PluginBackends {
  /** The Deployments whose pod template labels match the Service's selector (none without one). */
  readonly deployments: readonly Manifest[];
  /** The distinct images of their containers. */
  readonly images: readonly string[];
  /** The ports their containers declare. */
  readonly ports: readonly ContainerPort[];
}

/** How the operator namespace was chosen. */
export type OperatorNamespaceSource =
  | { readonly kind: 'option' }
  | {
      readonly kind: 'deployment';
      readonly from: OperatorCandidate;
      readonly conflicting: ReadonlyArray<{ readonly candidate: OperatorCandidate; readonly namespace: string }>;
    }
  | { readonly kind: 'release'; readonly from: OperatorRelease; readonly conflicting: readonly OperatorRelease[] }
  | { readonly kind: 'default'; readonly candidate?: OperatorCandidate };

/** The registered and retired rule ids, against which ignore annotations are read. */
export interface KnownRules {
  readonly ids: ReadonlySet<string>;
  /** The retired rule of an id (in any case, surrounded by spaces or not), if it is one. */
  retiredRule(id: string): RetiredRule | undefined;
}

/** The options the model is built from, validated. */
export interface ModelOptions {
  readonly operatorNamespace?: string;
  readonly defaultNamespace?: string;
  readonly version: Version;
  readonly versionString: string;
  readonly knownPlugins: readonly string[];
  /** Sidecar container name to the plugin name it serves. */
  readonly sidecarPlugins: ReadonlyMap<string, string>;
  /** The doctor's rules. */
  readonly rules: KnownRules;
  /** Whether the schema layer notes what it could not evaluate (`notEvaluated`). */
  readonly verbose?: boolean;
  /** cert-manager's cluster-resource namespace, when given. */
  readonly clusterResourceNamespace?: string;
  /** Whether the input is everything that will be installed (`complete`). */
  readonly complete?: boolean;
  /** Set when the objects are a running cluster's (`cnpg-i-doctor cluster`). */
  readonly live?: { readonly now: Date; readonly unread: ReadonlySet<string> };
  /** By input index: the patches of the kustomizations that build the document that may apply to it and were not applied (its folder read file by file). */
  readonly unappliedPatches?: ReadonlyMap<number, readonly UnappliedPatch[]>;
}

/** A part of the model that a family of rules shares, computed on first use and once per run. */
export interface ModelPart<T> {
  readonly compute: (model: DoctorModel) => T;
  /**
   * Whether the part withholds for itself what it read of unrendered text (the admission checks,
   * one upstream function at a time; the schema issues, by field path), rather than the rules that
   * read the part withholding their findings on the objects it read such text of.
   */
  readonly withholdsUnrendered?: boolean;
}

/** Declares a {@link ModelPart}; the rules that share it read `model.part(PART)`. */
export function modelPart<T>(compute: (model: DoctorModel) => T, options: { readonly withholdsUnrendered?: boolean } = {}): ModelPart<T> {
  return { compute, ...options };
}

/** A value computed once per run, with the unrendered text its computation read (`recordingReads`). */
interface Remembered<T> {
  readonly value: T;
  readonly read: ReadonlySet<object>;
}

/**
 * `cache`'s value for `key`, computed by `compute` the first time. A rule that gets the value reads
 * what its computation read: that the first rule to ask computed it does not matter.
 */
function remember<K, T>(cache: Map<K, Remembered<unknown>>, key: K, compute: () => T, ownReads = false): T {
  let known = cache.get(key) as Remembered<T> | undefined;
  if (known === undefined) {
    const { result, read } = recordingReads(compute);
    known = { value: result, read: ownReads ? new Set() : read };
    cache.set(key, known);
  }
  noteReads(known.read);
  return known.value;
}

/**
 * Everything the rules read. Immutable once `buildModel` returns (the parts computed on first
 * use are fixed by the input, whichever rule asks first).
 */
export class DoctorModel {
  public readonly pluginServices: PluginServiceInfo[] = [];
  public readonly sidecarDeployments: SidecarDeployment[] = [];
  public readonly sidecars: SidecarInfo[] = [];
  public readonly discovered = new Map<string, DiscoveredPlugin>();
  /** The ignore annotation of each object that has one, by the object's raw JSON. */
  public readonly ignores = new Map<Json, IgnoreAnnotation>();
  /** Whether the schema layer notes the CRD rules it could not evaluate. */
  public verbose = false;
  /** cert-manager's cluster-resource namespace, when the options give it. */
  public clusterResourceNamespace: string | undefined;
  /**
   * Whether the input is everything that will be installed (the `complete` option): an object
   * missing from it is then missing, not installed from elsewhere.
   */
  public complete = false;
  /**
   * Set when the input is a running cluster read by `cnpg-i-doctor cluster`, with the time it was
   * read: the live rules (CNPGI4xx) run only then, and CNPGI094 does not judge status.
   */
  public live: { readonly now: Date; readonly unread: ReadonlySet<string> } | undefined;
  /**
   * By input index: the patches of the kustomizations that build the document which were not
   * applied, because its folder was read file by file (the CLI without kustomize).
   */
  public unappliedPatches: ReadonlyMap<number, readonly UnappliedPatch[]> = new Map();

  /** The fields of each object of the input that hold unrendered text, by the object's raw JSON. */
  public readonly unrendered = new Map<Json, readonly UnrenderedField[]>();

  private readonly parts = new Map<ModelPart<unknown>, Remembered<unknown>>();
  private readonly backends = new Map<string, Remembered<unknown>>();
  private readonly issuances = new Map<string, Remembered<unknown>>();

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
    /** The doctor's rules: the ignore annotations are read against them. */
    public readonly rules: KnownRules,
  ) {}

  /**
   * The severity of a finding that rests on an object missing from the input: a warning, since
   * the object may be installed from elsewhere, unless the input is complete.
   */
  public get missingSeverity(): 'error' | 'warning' {
    return this.complete ? 'error' : 'warning';
  }

  /**
   * Whether the operator namespace is an assumption (`cnpg-system`): neither given nor shown by
   * an operator Deployment or a release of its chart. A finding that rests on it is a warning.
   */
  public get operatorNamespaceAssumed(): boolean {
    return this.operatorNamespaceSource.kind === 'default';
  }

  /**
   * Whether the namespace of an object of the input is an assumption: it has none (and no
   * kustomize or Flux namespace gave it one) and the run was not told where such objects go
   * (`--namespace`). `--complete` does not change this: a complete input still does not say
   * where an object without a namespace is applied.
   */
  public namespaceAssumed(m: Manifest | undefined): boolean {
    return m !== undefined && m.namespaceAssumed && this.defaultNamespace === undefined;
  }

  /**
   * The severity of a finding that compares namespaces (an object and what it references, or an
   * object and the operator): `severity`, unless one of them is only assumed (see
   * `namespaceAssumed`, `operatorNamespaceAssumed`), which makes an error a warning; then also
   * the note its message ends with, naming the assumption and how to tell the doctor.
   */
  public acrossNamespaces(
    severity: 'error' | 'warning',
    objects: ReadonlyArray<Manifest | undefined>,
    operator = false,
  ): { readonly severity: 'error' | 'warning'; readonly note: string } {
    if (severity !== 'error') return { severity, note: '' };
    const assumed = objects.filter((m): m is Manifest => this.namespaceAssumed(m));
    const parts = [...new Set(assumed.map((m) => `${m.kind} '${m.name}' has no namespace ('${m.namespace}' is assumed)`))];
    if (operator && this.operatorNamespaceAssumed) parts.push(`the operator namespace '${this.operatorNamespace}' is assumed`);
    if (parts.length === 0) return { severity, note: '' };
    const how = operator && this.operatorNamespaceAssumed ? '--namespace or --operator-namespace' : '--namespace';
    return {
      severity: 'warning',
      note: ` (a warning, not an error: ${parts.join('; ')}; pass ${how} to say where it is applied)`,
    };
  }

  /** What a finding on a missing object adds to its message when the input is complete. */
  public get missingNote(): string {
    return this.complete ? COMPLETE_INPUT_NOTE : '';
  }

  /**
   * Whether the input shows which plugins the operator knows: it holds the operator Deployment,
   * a plugin Service or a sidecar plugin, the options name plugins (`knownPlugins`), or it is
   * complete. An input of Clusters only installs no plugin: they come from elsewhere.
   */
  public get showsPlugins(): boolean {
    return this.complete || this.knownPlugins.size > 0 || this.operatorCandidates.length > 0 || this.pluginServices.length > 0 || this.sidecars.length > 0;
  }

  /** Registers a plugin the operator would know; the first source wins. */
  public discover(plugin: DiscoveredPlugin): void {
    if (!this.discovered.has(plugin.name)) this.discovered.set(plugin.name, plugin);
  }

  /** Sidecars whose plugin name neither the manifests nor the options show. */
  public unnamedSidecars(): SidecarInfo[] {
    return this.sidecars.filter((s) => s.pluginName === undefined);
  }

  /** A part a family of rules shares: computed the first time a rule asks, then read. */
  public part<T>(part: ModelPart<T>): T {
    return remember(this.parts, part, () => part.compute(this), part.withholdsUnrendered === true);
  }

  /**
   * The operator Deployment of the input (the first, when there are several), as
   * src/manifests/operator.ts recognizes it; undefined when the input has none.
   */
  public get operatorDeployment(): Manifest | undefined {
    return this.part(OPERATOR_DEPLOYMENT);
  }

  /** The operator's configuration as its Deployment, ConfigMaps and Secrets show it. */
  public get operatorConfig(): OperatorConfig | undefined {
    return this.part(OPERATOR_CONFIG);
  }

  /** The cert-manager objects of the input, indexed once, with cert-manager's cluster-resource namespace. */
  public get certManager(): CertManagerIndex {
    return this.part(CERT_MANAGER);
  }

  /** What the schema layer finds in each object, and (with `verbose`) what it could not evaluate. */
  public get schema(): SchemaReading {
    return this.part(SCHEMA);
  }

  /** The CRD rules the objects reach that the schema layer could not evaluate (with `verbose`). */
  public get notEvaluated(): NotEvaluatedRule[] {
    return this.schema.notEvaluated;
  }

  /** How the client certificate in Secret `namespace/secretName` is issued, as far as the input shows. */
  public clientIssuance(secretName: string, namespace: string): ClientIssuance {
    return remember(this.issuances, `${namespace}/${secretName}`, () => clientIssuance(secretName, namespace, this.certManager));
  }

  /**
   * The Deployments behind a Service's selector (however many), with their images and ports;
   * Services with one selector in one namespace share the answer.
   */
  public pluginBackends(service: Manifest): PluginBackends {
    const ns = service.namespace;
    const selector = Object.entries(stringMap(dig(service.raw, 'spec', 'selector'))).sort(([a], [b]) => a.localeCompare(b));
    return remember(this.backends, JSON.stringify([ns, selector]), () => {
      const deployments =
        selector.length === 0
          ? []
          : this.index
              .podTemplatesSelected(ns, Object.fromEntries(selector))
              .filter((t) => t.owner.kind === 'Deployment')
              .map((t) => t.owner);
      const containers = deployments.flatMap((d) => asArray(dig(d.raw, 'spec', 'template', 'spec', 'containers')).map((c) => asObject(c) ?? {}));
      return {
        deployments,
        images: [...new Set(containers.map((c) => asString(c.image) ?? ''))],
        ports: containers.flatMap((c) =>
          asArray(c.ports)
            .map((p) => asObject(p) ?? {})
            .map((p) => ({ containerPort: Number(p.containerPort), name: asString(p.name) })),
        ),
      };
    });
  }

  /**
   * Whether an object of `kind` (and `group`, when given) has a name or namespace that holds an
   * unrendered variable: then no rule can say that an object of that kind is missing from the
   * input, since the rendered name may be the one it looks for.
   */
  public hasUnrenderedNames(kind: string, group?: string): boolean {
    // Rules ask once per object they check: without unrendered text the answer is known, and
    // otherwise it is kept for as long as `unrendered` (which only grows) keeps its size.
    if (this.unrendered.size === 0) return false;
    const k = group === undefined ? kind : `${kind}\u0000${group}`;
    const known = this.unrenderedNames.get(k);
    if (known?.size === this.unrendered.size) return known.value;
    const value = this.index
      .ofKind(kind, group)
      .some((m) => (this.unrendered.get(m.raw) ?? []).some((f) => f.path === 'metadata.name' || f.path === 'metadata.namespace'));
    this.unrenderedNames.set(k, { size: this.unrendered.size, value });
    return value;
  }

  /** {@link hasUnrenderedNames}'s answers by kind and group, with the size of `unrendered` they were given at. */
  private readonly unrenderedNames = new Map<string, { readonly size: number; readonly value: boolean }>();

  /** The object of this kind, namespace and name (the last, when the input repeats it). */
  public lastNamed(kind: string, namespace: string | undefined, name: string): Manifest | undefined {
    const list = this.index.get(kind, namespace, name);
    return list[list.length - 1];
  }
}

const OPERATOR_DEPLOYMENT = modelPart((model) => {
  const operators = new Set<Json>(model.operatorCandidates.map((c) => c.raw));
  return model.index.ofKind('Deployment').find((m) => operators.has(m.raw));
});

const OPERATOR_CONFIG = modelPart((model) => {
  const operator = model.operatorDeployment;
  if (!operator) return undefined;
  return resolveOperatorConfig({
    deployment: operator.raw,
    configMaps: model.index.ofKind('ConfigMap').map((m) => m.raw),
    secrets: model.index.ofKind('Secret').map((m) => m.raw),
    namespaceOf: model.index.namespaceOf,
  });
});

const CERT_MANAGER = modelPart((model) => buildCertManagerIndex(model));

// its issues are withheld by field path: the schema layer reads every field of every object
const SCHEMA = modelPart((model) => readSchemaIssues(model), { withholdsUnrendered: true });

function resolveOperatorNamespace(
  candidates: readonly OperatorCandidate[],
  releases: readonly OperatorRelease[],
  opts: ModelOptions,
): { ns: string; source: OperatorNamespaceSource } {
  if (opts.operatorNamespace) return { ns: opts.operatorNamespace, source: { kind: 'option' } };
  const resolved = candidates.map((c) => ({ c, ns: c.envNamespace ?? c.namespace ?? opts.defaultNamespace }));
  const first = resolved.find((r) => r.ns !== undefined);
  // no operator Deployment says it: a HelmRelease or Application of the operator's chart does
  const release = candidates.length === 0 ? releases.find((r) => (r.namespace ?? opts.defaultNamespace) !== undefined) : undefined;
  if (release) {
    const ns = (release.namespace ?? opts.defaultNamespace)!;
    return {
      ns,
      source: { kind: 'release', from: release, conflicting: releases.filter((r) => r !== release && (r.namespace ?? opts.defaultNamespace) !== ns) },
    };
  }
  if (!first) return { ns: DEFAULT_OPERATOR_NAMESPACE, source: { kind: 'default', candidate: candidates[0] } };
  const conflicting = resolved.filter((r) => r.ns !== undefined && r.ns !== first.ns).map((r) => ({ candidate: r.c, namespace: r.ns! }));
  return { ns: first.ns!, source: { kind: 'deployment', from: first.c, conflicting } };
}

/** Builds the model of `objects`: the operator namespace first, then plugins and sidecars. */
export function buildModel(objects: readonly unknown[], opts: ModelOptions): DoctorModel {
  // the operator namespace first: it is also the default namespace of unnamespaced objects
  const candidates = findOperatorCandidates(objects);
  const { ns, source } = resolveOperatorNamespace(candidates, findOperatorReleases(objects), opts);
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
    opts.rules,
  );
  model.verbose = opts.verbose === true;
  model.complete = opts.complete === true;
  model.live = opts.live;
  if (opts.unappliedPatches) model.unappliedPatches = opts.unappliedPatches;
  model.clusterResourceNamespace = opts.clusterResourceNamespace;

  for (const m of index.all) {
    const ignore = readIgnoreAnnotation(m.raw, opts.rules.ids);
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
  // Sidecars after Services: a name served by both ends up with the Service, whose registration
  // replaces the socket's (cloudnative-pg v1.30.0 internal/cnpi/plugin/repository/setup.go
  // data.RegisterRemotePlugin forces it); CNPGI065 reports the pair.
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
