/*
 * The Flux Kustomizations of an input and the objects each renders: which `spec.postBuild`
 * variables reach which document, as kustomize-controller v1.9.4 decides
 * (internal/controller/kustomization_controller.go build: every resource of the kustomize build
 * of `spec.path` goes through SubstituteVariables when `spec.postBuild` is set; fluxcd/pkg
 * kustomize/v1.35.4 kustomize/kustomize_varsub.go LoadVariables for `substituteFrom`), and which
 * namespace `spec.targetNamespace` gives them (kustomize_generator.go `Generate` sets it as the
 * kustomization's `namespace`, which kustomize api v0.21.1 applies with its namespace filter).
 */
import * as path from 'path';
import { variablesOfObject, substituteDocument, FLUX_VARIABLE_NAME, fluxValue } from './flux-substitution';
import { Json, asArray, asObject, asString, dig } from './json';
import { CLUSTER_SCOPED_KINDS } from './kinds';

/** The API versions of Flux's Kustomization read here. */
export const FLUX_KUSTOMIZATION_VERSIONS: ReadonlySet<string> = new Set(['kustomize.toolkit.fluxcd.io/v1', 'kustomize.toolkit.fluxcd.io/v1beta2']);

/** One document of the input and where it came from. */
export interface FluxInputDocument {
  readonly value: unknown;
  /** The document's file, or the kustomize folder it was rendered from, as an absolute path; undefined for stdin. */
  readonly location?: string;
  /** Where the document is, for messages (`apps/db.yaml:3`). */
  readonly shown: string;
}

/** What the substitution needs besides the documents. */
export interface FluxRenderOptions {
  /** Variables given on the command line (`--var`, `--vars-from`), for every object. */
  readonly vars: ReadonlyMap<string, string>;
  /**
   * The folder a Kustomization's `spec.path` is taken from (the root of the Git repository Flux
   * reads), as an absolute path; without it no document is matched to a Kustomization.
   */
  readonly root?: string;
}

/** The rendered values, in input order, and what the user should know about the rendering. */
export interface FluxRenderResult {
  readonly values: unknown[];
  /** One line each, sorted as found: sources of values that are not in the input, substitutions Flux would refuse. */
  readonly notices: string[];
}

/** A Flux Kustomization of the input, as far as rendering its objects goes. */
export interface FluxKustomization {
  /** `Kustomization/namespace/name`. */
  readonly ref: string;
  readonly namespace: string;
  /** The folder of `spec.path`, absolute (undefined without a root). */
  readonly dir?: string;
  readonly postBuild?: Json;
  /** `spec.targetNamespace`: the namespace of every namespaced object it applies. */
  readonly targetNamespace?: string;
  /** The folders of `spec.components`, absolute, in order (empty without a root). */
  readonly components: readonly string[];
}

/**
 * The Flux Kustomizations of an input. One without `metadata.namespace` under the `spec.path`
 * of another that has a `targetNamespace` is in that namespace (that is where Flux applies it),
 * else in `default` (where `kubectl apply` puts it).
 */
export function fluxKustomizationsOf(docs: readonly FluxInputDocument[], root: string | undefined): FluxKustomization[] {
  const found: Array<{ readonly o: Json; readonly location?: string }> = [];
  for (const d of docs) {
    const o = asObject(d.value);
    if (!o || o.kind !== 'Kustomization' || !FLUX_KUSTOMIZATION_VERSIONS.has(asString(o.apiVersion) ?? '')) continue;
    found.push({ o, ...(d.location !== undefined ? { location: d.location } : {}) });
  }
  // securejoin in the controller: `spec.path` never leaves the source's root
  const dirOf = (o: Json): string | undefined =>
    root === undefined ? undefined : path.join(root, path.posix.normalize('/' + (asString(dig(o, 'spec', 'path')) ?? '').replace(/\\/g, '/')));
  const dirs = found.map((f) => dirOf(f.o));
  return found.map(({ o, location }, i) => {
    const name = asString(dig(o, 'metadata', 'name')) ?? '';
    let namespace = asString(dig(o, 'metadata', 'namespace'));
    if (!namespace && location !== undefined) {
      let parent: number | undefined;
      dirs.forEach((dir, j) => {
        if (j !== i && dir !== undefined && inside(dir, location) && (parent === undefined || dir.length > dirs[parent]!.length)) parent = j;
      });
      if (parent !== undefined) namespace = asString(dig(found[parent].o, 'spec', 'targetNamespace'));
    }
    namespace ||= 'default';
    const dir = dirs[i];
    const postBuild = asObject(dig(o, 'spec', 'postBuild'));
    const targetNamespace = asString(dig(o, 'spec', 'targetNamespace'));
    const components =
      dir === undefined ? [] : asArray(dig(o, 'spec', 'components')).flatMap((c) => (typeof c === 'string' && c !== '' ? [path.resolve(dir, c)] : []));
    return {
      ref: `Kustomization/${namespace}/${name}`,
      namespace,
      ...(dir !== undefined ? { dir } : {}),
      ...(postBuild ? { postBuild } : {}),
      ...(targetNamespace ? { targetNamespace } : {}),
      components,
    };
  });
}

/**
 * An object as kustomize's namespace filter leaves it for a kustomization `namespace` (kustomize
 * api v0.21.1 filters/namespace/namespace.go `Filter.run` with the field specs of
 * internal/konfig/builtinpluginconsts/namespace.go, as builtins/NamespaceTransformer.go
 * configures it: set, not only where unset; role binding subjects `defaultOnly`): the
 * `metadata.namespace` of a namespaced object; the name of a `v1` Namespace; the namespace of a
 * (Cluster)RoleBinding subject named `default`; an APIService's `spec.service.namespace` and a
 * CRD's conversion webhook service namespace, where they exist. Cluster-scoped kinds keep no
 * namespace (kustomize sets one on the kinds it does not know, which the API server drops).
 * The object is copied where it changes.
 */
export function withKustomizeNamespace(value: unknown, namespace: string): unknown {
  const o = asObject(value);
  if (!o) return value;
  const kind = asString(o.kind) ?? '';
  const metadata = asObject(o.metadata) ?? {};
  let out: Json = o;
  const set = (changes: Json) => {
    out = { ...out, ...changes };
  };
  if (kind === 'Namespace' && o.apiVersion === 'v1') set({ metadata: { ...metadata, name: namespace } });
  else if (!CLUSTER_SCOPED_KINDS.has(kind)) set({ metadata: { ...metadata, namespace } });
  if ((kind === 'RoleBinding' || kind === 'ClusterRoleBinding') && Array.isArray(o.subjects)) {
    set({ subjects: o.subjects.map((s) => (asObject(s)?.name === 'default' ? { ...asObject(s), namespace } : s)) });
  }
  const service = asObject(dig(o, 'spec', 'service'));
  if (kind === 'APIService' && service) set({ spec: { ...asObject(o.spec), service: { ...service, namespace } } });
  const conversion = asObject(dig(o, 'spec', 'conversion'));
  const webhook = asObject(dig(conversion, 'webhook'));
  const clientConfig = asObject(dig(webhook, 'clientConfig'));
  const webhookService = asObject(dig(clientConfig, 'service'));
  if (kind === 'CustomResourceDefinition' && conversion && webhook && clientConfig && webhookService) {
    set({
      spec: {
        ...asObject(o.spec),
        conversion: { ...conversion, webhook: { ...webhook, clientConfig: { ...clientConfig, service: { ...webhookService, namespace } } } },
      },
    });
  }
  return out;
}

function inside(dir: string, location: string): boolean {
  const rel = path.relative(dir, location);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

interface KustomizationVars {
  readonly vars: Map<string, string>;
  /** A `substituteFrom` source is not in the input: its variables are unknown. */
  readonly incomplete: boolean;
  /** Flux would refuse the substitution whole (a bad variable name). */
  readonly refused?: string;
  readonly always: boolean;
}

function variablesOf(k: FluxKustomization, docs: readonly FluxInputDocument[], cli: ReadonlyMap<string, string>, notices: string[]): KustomizationVars {
  // the command line's values stand for what the input does not hold: the Kustomization's own win
  const vars = new Map(cli);
  let incomplete = false;
  const postBuild = k.postBuild ?? {};
  for (const ref of asArray(postBuild.substituteFrom)) {
    const kind = asString(dig(ref, 'kind'));
    const name = asString(dig(ref, 'name'));
    const optional = dig(ref, 'optional') === true;
    if ((kind !== 'ConfigMap' && kind !== 'Secret') || !name) continue;
    const source = docs.find((d) => {
      const o = asObject(d.value);
      return (
        o &&
        o.kind === kind &&
        o.apiVersion === 'v1' &&
        dig(o, 'metadata', 'name') === name &&
        (asString(dig(o, 'metadata', 'namespace')) || k.namespace) === k.namespace
      );
    });
    if (!source) {
      // Flux: a missing optional source counts as empty; a missing required one fails the build,
      // unless it exists in the cluster, which the doctor cannot know
      if (!optional) {
        incomplete = true;
        notices.push(
          `${k.ref}: postBuild.substituteFrom ${kind}/${k.namespace}/${name} is not in the input; the variables it gives are unknown (give them with --var or --vars-from), and Flux fails the build if it does not exist`,
        );
      }
      continue;
    }
    const o = source.value as Json;
    if (o.sops !== undefined) {
      incomplete = true;
      notices.push(
        `${k.ref}: postBuild.substituteFrom ${kind}/${k.namespace}/${name} is SOPS-encrypted; the variables it gives are unknown (give them with --var or --vars-from)`,
      );
      continue;
    }
    const read = variablesOfObject(o);
    for (const e of read.errors) notices.push(`${source.shown}: ${kind}/${k.namespace}/${name} ${e}; the variable is left out`);
    for (const [key, value] of read.vars) vars.set(key, value);
  }
  const substitute = asObject(postBuild.substitute);
  if (substitute) for (const key of Object.keys(substitute)) if (typeof substitute[key] === 'string') vars.set(key, fluxValue(substitute[key] as string));
  const bad = [...vars.keys()].filter((n) => !FLUX_VARIABLE_NAME.test(n)).sort();
  const refused = bad.length > 0 ? `variable name '${bad[0]}' is invalid (Flux accepts ${FLUX_VARIABLE_NAME.source})` : undefined;
  return { vars, incomplete, always: postBuild.substituteStrategy === 'Always', ...(refused ? { refused } : {}) };
}

/**
 * Renders the documents of an input as Flux would apply them: a document under the `spec.path`
 * of a Flux Kustomization (the deepest one, when paths nest) is substituted with that
 * Kustomization's `postBuild` (its `substitute` over its `substituteFrom` ConfigMaps and Secrets
 * found in the input, over the command line's variables), and not at all when it has no
 * `postBuild`; any other document is substituted with the command line's variables when there
 * are some. A variable nobody gives stays as its `${...}` text (its value may be in the cluster);
 * a default applies unless a `substituteFrom` source is missing from the input.
 */
export function renderFlux(docs: readonly FluxInputDocument[], options: FluxRenderOptions): FluxRenderResult {
  const notices: string[] = [];
  const kustomizations = fluxKustomizationsOf(docs, options.root).filter((k) => k.dir !== undefined);
  const varsOf = new Map<FluxKustomization, KustomizationVars>();
  const values = docs.map((d) => {
    if (d.value === null || typeof d.value !== 'object') return d.value;
    let owner: FluxKustomization | undefined;
    if (d.location !== undefined) {
      for (const k of kustomizations) if (inside(k.dir!, d.location) && (!owner || k.dir!.length > owner.dir!.length)) owner = k;
    }
    // kustomize sets the namespace when it builds; Flux substitutes what it built
    const built = owner?.targetNamespace !== undefined ? withKustomizeNamespace(d.value, owner.targetNamespace) : d.value;
    let vars: ReadonlyMap<string, string>;
    let unset: 'keep' | 'keep-all' = 'keep';
    if (owner) {
      if (!owner.postBuild) return built;
      let kv = varsOf.get(owner);
      if (!kv) {
        kv = variablesOf(owner, docs, options.vars, notices);
        varsOf.set(owner, kv);
        if (kv.refused) notices.push(`${owner.ref}: Flux refuses its postBuild: ${kv.refused}; its objects are read unrendered`);
      }
      if (kv.refused) return built;
      if (kv.vars.size === 0 && !kv.always && !kv.incomplete) return built;
      vars = kv.vars;
      if (kv.incomplete) unset = 'keep-all';
    } else {
      if (options.vars.size === 0) return built;
      vars = options.vars;
    }
    const r = substituteDocument(built, (n) => vars.get(n), unset);
    if (r.status === 'failed') {
      notices.push(`${d.shown}: Flux's substitution fails here (${r.error}); the document is read unrendered`);
      return built;
    }
    return r.status === 'rendered' ? r.value : built;
  });
  return { values, notices };
}
