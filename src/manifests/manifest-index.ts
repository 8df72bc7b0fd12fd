/*
 * The doctor's index of plain manifest objects, built in a single pass so that every rule is a
 * lookup, never a scan of all pairs. No cdk8s here: this runs on anyone's YAML.
 */
import { Json, asObject, asString, dig, firstDifference, stringMap } from './json';
import { CLUSTER_SCOPED_KINDS, refOf } from './kinds';
/** Kinds that describe how to build manifests rather than objects to apply. */
const NOT_APPLIED_KINDS = new Set(['Kustomization', 'Component']);

/** A Kubernetes object of the input, with the fields every rule needs. */
export interface Manifest {
  /** Position in the input array (for List items, the List's). */
  readonly index: number;
  readonly raw: Json;
  readonly apiVersion: string;
  /** API group (`''` for the core group). */
  readonly group: string;
  readonly kind: string;
  readonly name: string;
  /** Effective namespace; undefined for cluster-scoped kinds. */
  readonly namespace: string | undefined;
  /** Whether the namespace was assumed (the object had none). */
  readonly namespaceAssumed: boolean;
  /** `Kind/namespace/name` or `Kind/name`. */
  readonly ref: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}

/** A pod template found in a workload (or a bare Pod). */
export interface PodTemplate {
  readonly owner: Manifest;
  /** Field path of the pod spec inside the owner, e.g. `spec.template.spec`. */
  readonly specPath: string;
  readonly labels: Record<string, string>;
  readonly spec: Json;
}

/** A declaration that repeats an object of the input with the same content, counted once. */
export interface RepeatedDeclaration {
  /** Position of the repeat in the input array. */
  readonly index: number;
  /** The object it repeats, as the index keeps it. */
  readonly of: Manifest;
}

/** A document that is not a Kubernetes object. */
export interface OddDocument {
  readonly index: number;
  readonly reason: string;
}

function key(a: string | undefined, b: string | undefined, c?: string): string {
  // (concatenated, not joined: this runs several times for every object of the input)
  return c === undefined ? `${a ?? ''}\u0000${b ?? ''}` : `${a ?? ''}\u0000${b ?? ''}\u0000${c}`;
}

function push<K, V>(map: Map<K, V[]>, k: K, v: V): void {
  const list = map.get(k);
  if (list) list.push(v);
  else map.set(k, [v]);
}

/**
 * All objects of the input, indexed once.
 */
export class ManifestIndex {
  /** Every Kubernetes object, in input order. */
  public readonly all: Manifest[] = [];
  /** Documents that are not Kubernetes objects. */
  public readonly odd: OddDocument[] = [];
  /**
   * kustomize's own files (`kustomize.config.k8s.io` Kustomization or Component), which are not
   * applied: a folder read without being rendered.
   */
  public readonly kustomizeFiles: Array<{ readonly index: number; readonly kind: string }> = [];
  /** Every pod template (workloads and Pods), in input order. */
  public readonly podTemplates: PodTemplate[] = [];
  /**
   * Declarations identical to an earlier one (the same API group, kind, namespace, name and
   * content): a release manifest beside the files it was built from declares its objects twice,
   * and applying both gives one object. They are left out of `all` and of every lookup.
   */
  public readonly repeats: RepeatedDeclaration[] = [];

  private readonly byKindNsName = new Map<string, Manifest[]>();
  private readonly byKind = new Map<string, Manifest[]>();
  /** {@link ofKind}'s lists by kind and group, made on first use (the index does not change after its constructor). */
  private readonly byKindGroup = new Map<string, Manifest[]>();
  private readonly byNameOnly = new Map<string, Manifest[]>();
  private readonly certificatesBySecret = new Map<string, Manifest[]>();
  private readonly certificatesBySecretName = new Map<string, Manifest[]>();
  private readonly podTemplatesByLabel = new Map<string, PodTemplate[]>();
  private byRaw: Map<Json, Manifest> | undefined;

  /**
   * @param objects the input; `kind: List` is expanded, anything else odd is recorded
   */
  constructor(
    objects: readonly unknown[],
    /** The namespace given to namespaced objects that have none. */
    public readonly defaultNamespace: string,
  ) {
    objects.forEach((value, index) => this.add(value, index, defaultNamespace, 0));
  }

  private add(value: unknown, index: number, defaultNamespace: string, depth: number): void {
    if (value === null || value === undefined) return; // empty YAML document
    const raw = asObject(value);
    if (!raw) {
      this.odd.push({ index, reason: Array.isArray(value) ? 'a YAML list, not an object' : `a ${typeof value}, not an object` });
      return;
    }
    const kind = asString(raw.kind);
    const apiVersion = asString(raw.apiVersion);
    if (kind && /List$/.test(kind) && Array.isArray(raw.items) && depth < 4) {
      for (const item of raw.items) this.add(item, index, defaultNamespace, depth + 1);
      return;
    }
    // metadata is read once here: this runs for every object of the input
    const metadata = asObject(raw.metadata);
    const name = asString(metadata?.name);
    if (!kind || !apiVersion) {
      this.odd.push({ index, reason: 'no apiVersion and kind' });
      return;
    }
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.lastIndexOf('/')) : '';
    // the configuration of a kustomize builtin plugin (a NamespaceTransformer, a PatchTransformer):
    // kustomize runs it (api v0.21.1 api/internal/plugins/loader/loader.go isBuiltinPlugin, the
    // version konfig.BuiltinPluginApiVersion), and no API server serves the version `builtin`
    if (apiVersion === 'builtin') {
      this.odd.push({ index, reason: `a kustomize builtin ${kind} configuration (apiVersion: builtin), which kustomize runs and never applies` });
      return;
    }
    if (NOT_APPLIED_KINDS.has(kind) && group.startsWith('kustomize.config.k8s.io')) {
      this.kustomizeFiles.push({ index, kind });
      return;
    }
    if (!name) {
      // generateName objects cannot be referenced by name; nothing the doctor checks needs them
      if (asString(metadata?.generateName)) return;
      this.odd.push({ index, reason: `${kind} without metadata.name` });
      return;
    }
    const clusterScoped = CLUSTER_SCOPED_KINDS.has(kind);
    const ns = asString(metadata?.namespace);
    const namespace = clusterScoped ? undefined : ns || defaultNamespace;
    const k = key(kind, namespace, name);
    const twin = this.byKindNsName.get(k)?.find((o) => o.group === group && sameDeclaration(o.raw, raw));
    if (twin) {
      this.repeats.push({ index, of: twin });
      return;
    }
    const m: Manifest = {
      index,
      raw,
      apiVersion,
      group,
      kind,
      name,
      namespace,
      namespaceAssumed: !clusterScoped && !ns,
      ref: refOf(kind, namespace, name),
      labels: stringMap(metadata?.labels),
      annotations: stringMap(metadata?.annotations),
    };
    this.all.push(m);
    push(this.byKindNsName, k, m);
    push(this.byKind, kind, m);
    push(this.byNameOnly, key(kind, name), m);
    if (kind === 'Certificate' && group === 'cert-manager.io') {
      const secretName = asString(dig(raw, 'spec', 'secretName'));
      if (secretName) {
        push(this.certificatesBySecret, key(namespace, secretName), m);
        push(this.certificatesBySecretName, secretName, m);
      }
    }
    for (const t of podTemplatesOf(m)) {
      this.podTemplates.push(t);
      for (const [k, v] of Object.entries(t.labels)) push(this.podTemplatesByLabel, key(m.namespace, k, v), t);
    }
  }

  /**
   * The object of the input whose JSON is `raw` (a List's item is its own object). The map is
   * built on the first call: only the checks that receive raw JSON need it.
   */
  public manifestOf(raw: Json): Manifest | undefined {
    if (this.byRaw === undefined) {
      this.byRaw = new Map();
      for (const m of this.all) if (!this.byRaw.has(m.raw)) this.byRaw.set(m.raw, m);
    }
    return this.byRaw.get(raw);
  }

  /**
   * The namespace of the object whose JSON is `raw`, as this index resolved it (the default
   * namespace for a namespaced object that has none; undefined for a cluster-scoped one). The
   * doctor's rules read every namespace this way, and hand this function to the checks of
   * src/checks that take raw JSON.
   */
  public readonly namespaceOf = (raw: Json): string | undefined => this.manifestOf(raw)?.namespace;

  /**
   * Objects of a kind (of `group`, when given), in input order. The list is the index's own,
   * made once per kind and group (rules ask for it once per object they check): read it, never
   * change it.
   */
  public ofKind(kind: string, group?: string): Manifest[] {
    const list = this.byKind.get(kind) ?? [];
    if (group === undefined) return list;
    const k = key(kind, group);
    let ofGroup = this.byKindGroup.get(k);
    if (ofGroup === undefined) {
      ofGroup = list.filter((m) => m.group === group);
      this.byKindGroup.set(k, ofGroup);
    }
    return ofGroup;
  }

  /** The objects with this kind, namespace and name (more than one when the input repeats it). */
  public get(kind: string, namespace: string | undefined, name: string, group?: string): Manifest[] {
    const list = this.byKindNsName.get(key(kind, namespace, name)) ?? [];
    return group === undefined ? list : list.filter((m) => m.group === group);
  }

  /**
   * The objects declared more than once with different content: each group holds the
   * declarations of one API group, kind, namespace and name, in input order (identical repeats
   * are already one object, see `repeats`).
   */
  public conflictingDeclarations(): Manifest[][] {
    const out: Manifest[][] = [];
    for (const list of this.byKindNsName.values()) {
      if (list.length < 2) continue;
      const byGroup = new Map<string, Manifest[]>();
      for (const m of list) push(byGroup, m.group, m);
      for (const same of byGroup.values()) if (same.length > 1) out.push(same);
    }
    return out.sort((a, b) => a[0].index - b[0].index);
  }

  /** Objects of a kind with this name, in any namespace. */
  public named(kind: string, name: string): Manifest[] {
    return this.byNameOnly.get(key(kind, name)) ?? [];
  }

  /** cert-manager Certificates that write `secretName` in `namespace`. */
  public certificatesWriting(namespace: string | undefined, secretName: string): Manifest[] {
    return this.certificatesBySecret.get(key(namespace, secretName)) ?? [];
  }

  /** cert-manager Certificates that write a Secret of this name in any namespace. */
  public certificatesWritingAnywhere(secretName: string): Manifest[] {
    return this.certificatesBySecretName.get(secretName) ?? [];
  }

  /** Pod templates in `namespace` whose labels match every entry of `selector`. */
  public podTemplatesSelected(namespace: string | undefined, selector: Record<string, string>): PodTemplate[] {
    const entries = Object.entries(selector);
    if (entries.length === 0) return [];
    // start from the rarest label so that a common label (app.kubernetes.io/part-of) costs nothing
    let best: PodTemplate[] | undefined;
    for (const [k, v] of entries) {
      const c = this.podTemplatesByLabel.get(key(namespace, k, v)) ?? [];
      if (!best || c.length < best.length) best = c;
    }
    return (best ?? []).filter((t) => entries.every(([k, v]) => t.labels[k] === v));
  }
}

/**
 * Where a later declaration of an object differs from an earlier one, as a field path, or
 * undefined when they declare the same thing. The namespace is compared as resolved (the caller
 * looked both up under one), so a copy that spells out the default namespace is the same object.
 */
export function declarationDifference(earlier: Json, later: Json): string | undefined {
  const withoutNamespace = (o: Json): Json => {
    const metadata = asObject(o.metadata);
    if (metadata === undefined || !('namespace' in metadata)) return o;
    const { namespace: _namespace, ...rest } = metadata;
    return { ...o, metadata: rest };
  };
  return firstDifference(withoutNamespace(earlier), withoutNamespace(later));
}

function sameDeclaration(earlier: Json, later: Json): boolean {
  return declarationDifference(earlier, later) === undefined;
}

/** The pod templates of a workload object. */
export function podTemplatesOf(m: Manifest): PodTemplate[] {
  const paths: string[][] = [];
  switch (m.kind) {
    case 'Pod':
      paths.push([]);
      break;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
    case 'ReplicationController':
      paths.push(['spec', 'template']);
      break;
    case 'CronJob':
      paths.push(['spec', 'jobTemplate', 'spec', 'template']);
      break;
    default:
      return [];
  }
  const out: PodTemplate[] = [];
  for (const p of paths) {
    const template = p.length === 0 ? m.raw : asObject(dig(m.raw, ...p));
    const spec = asObject(dig(template, 'spec'));
    if (!template || !spec) continue;
    out.push({
      owner: m,
      specPath: [...p, 'spec'].join('.'),
      labels: stringMap(dig(template, 'metadata', 'labels')),
      spec,
    });
  }
  return out;
}
