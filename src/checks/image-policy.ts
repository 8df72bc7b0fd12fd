/*
 * The library's one image policy: what a pinned image reference is, and which images a plugin
 * pod runs or hands to the instance pods. The constructs refuse a moving image (the props
 * toolkit's Kind.image, PluginManifest) and the doctor warns about one (CNPGI126), with the
 * same words.
 */
import { Json, asObject, asString, dig, objectsOf } from '../manifests/json';
import { imageParts } from '../manifests/known-plugins';
import { allContainers } from '../manifests/pod-template';
import { CheckIssue } from './issue';
import { secretValues } from './operator-config';

/**
 * The variable a plugin reads the image of the sidecar it injects into instance pods from
 * (plugin-barman-cloud v0.14.0 internal/cmd/operator/main.go NewCmd binds `sidecar-image` to
 * it; cnpg-i-scale-to-zero v0.1.9 cmd/plugin/plugin.go does the same).
 * @internal
 */
export const SIDECAR_IMAGE_ENV = 'SIDECAR_IMAGE';

const DIGEST = /@[a-z0-9]+(?:[+._-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/;

/**
 * What is wrong with an image reference at run time, if anything: no tag and no digest (the
 * runtime pulls `:latest`), the `latest` tag, or a tag without a digit, which names a branch or
 * a channel (`main`, `edge`, `nightly`) rather than a release. Each changes the image under a
 * running Deployment with no change in Git. `undefined` for a pinned reference (`repo:v1.2.3`,
 * `host:5000/repo:1.2`, `repo@sha256:...`).
 * @internal
 */
export function imageTagProblem(image: string): string | undefined {
  if (DIGEST.test(image)) return undefined;
  const { tag } = imageParts(image);
  if (tag === undefined) return 'has no tag, so the runtime pulls :latest';
  if (tag === 'latest') return 'uses the latest tag, which moves under a running Deployment';
  if (!/[0-9]/.test(tag)) return `uses the tag '${tag}', a branch or channel name that moves under a running Deployment`;
  return undefined;
}

/** The example of a pinned reference for the repository of `image`, for a fix. @internal */
export function pinnedExample(image: string): string {
  // plugin-barman-cloud's committed manifest names the development builds (`-testing`); its
  // releases are the same repository without the suffix (the release build rewrites them).
  const repository = imageParts(image).repository.replace(/-testing$/, '');
  return `'${repository}:v1.2.3' or '${repository}@sha256:<digest>'`;
}

/** Finds a ConfigMap or Secret of the pod's namespace; undefined when the input lacks it. @internal */
export type EnvSourceLookup = (kind: 'ConfigMap' | 'Secret', name: string) => Json | undefined;

/** One image a pod template runs or hands on. @internal */
export interface PodImage {
  /** The image reference. */
  readonly image: string;
  /** Where it is written, relative to the pod spec, e.g. `containers[0].image`. */
  readonly path: string;
  /** What it is, for messages, e.g. `container 'plugin'`. */
  readonly what: string;
  /** Whether it is the `SIDECAR_IMAGE` handed to the instance pods rather than a container's own. */
  readonly sidecar: boolean;
}

/** The keys and values of a ConfigMap (`data`) or a Secret (`data` decoded, then `stringData`). */
function sourceValues(kind: 'ConfigMap' | 'Secret', source: Json): Record<string, string> {
  if (kind === 'Secret') return secretValues(source);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(asObject(source.data) ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

/**
 * The value of `name` in a container's environment as the kubelet builds it: the `envFrom`
 * sources in order (a later one wins, a `prefix` is prepended), then `env` (the last entry of a
 * name wins), reading ConfigMaps and Secrets through `lookup`. Undefined when the container does
 * not set it or when it comes from a source the input lacks.
 * @internal
 */
export function containerEnv(
  container: Json,
  name: string,
  lookup: EnvSourceLookup,
): { readonly value: string; readonly path: string; readonly from: string } | undefined {
  let found: { value: string; path: string; from: string } | undefined;
  for (const { item, i } of objectsOf(container.envFrom)) {
    const prefix = asString(item.prefix) ?? '';
    if (!name.startsWith(prefix)) continue;
    const kind = item.configMapRef !== undefined ? 'ConfigMap' : item.secretRef !== undefined ? 'Secret' : undefined;
    const sourceName = asString(dig(item, kind === 'ConfigMap' ? 'configMapRef' : 'secretRef', 'name'));
    const source = kind === undefined || sourceName === undefined ? undefined : lookup(kind, sourceName);
    const value = source === undefined || kind === undefined ? undefined : sourceValues(kind, source)[name.slice(prefix.length)];
    if (value !== undefined) found = { value, path: `envFrom[${i}]`, from: ` (from ${kind} '${sourceName}')` };
  }
  for (const { item, i } of objectsOf(container.env)) {
    if (item.name !== name) continue;
    const direct = asString(item.value);
    if (direct !== undefined || item.valueFrom === undefined) {
      found = { value: direct ?? '', path: `env[${i}]`, from: '' };
      continue;
    }
    const kind =
      dig(item, 'valueFrom', 'configMapKeyRef') !== undefined ? 'ConfigMap' : dig(item, 'valueFrom', 'secretKeyRef') !== undefined ? 'Secret' : undefined;
    const ref = kind === undefined ? undefined : asObject(dig(item, 'valueFrom', kind === 'ConfigMap' ? 'configMapKeyRef' : 'secretKeyRef'));
    const source = kind === undefined || ref === undefined ? undefined : lookup(kind, asString(ref.name) ?? '');
    const value = source === undefined || kind === undefined ? undefined : sourceValues(kind, source)[asString(ref?.key) ?? ''];
    found = value === undefined ? undefined : { value, path: `env[${i}]`, from: ` (from ${kind} '${asString(ref?.name)}')` };
  }
  return found;
}

/**
 * The images of one container: its `image`, and the `SIDECAR_IMAGE` it hands to the instance
 * pods (where the input shows its value). `path` is the container's path, e.g. `containers[0]`.
 * @internal
 */
export function containerImages(container: Json, name: string, path: string, lookup: EnvSourceLookup): PodImage[] {
  const out: PodImage[] = [];
  const image = asString(container.image);
  if (image !== undefined) out.push({ image, path: `${path}.image`, what: `container '${name}'`, sidecar: false });
  const sidecar = containerEnv(container, SIDECAR_IMAGE_ENV, lookup);
  if (sidecar !== undefined) {
    out.push({
      image: sidecar.value.trim(),
      path: `${path}.${sidecar.path}`,
      what: `${SIDECAR_IMAGE_ENV} of container '${name}'${sidecar.from}`,
      sidecar: true,
    });
  }
  return out;
}

/** The images of a pod spec's containers and init containers (see {@link containerImages}). @internal */
export function podImages(podSpec: Json, lookup: EnvSourceLookup): PodImage[] {
  return allContainers(podSpec)
    .filter((ref) => ref.list !== 'ephemeralContainers')
    .flatMap((ref) => containerImages(ref.container, ref.name, ref.path, lookup));
}

/**
 * The moving images among `uses` (see {@link imageTagProblem}), as warnings: Kubernetes runs
 * them, and the image changes under the pods without a change in Git. `prefix` is the pod
 * spec's path in its object, e.g. `spec.template.spec`.
 * @internal
 */
export function checkImages(uses: readonly PodImage[], prefix: string): CheckIssue[] {
  const issues: CheckIssue[] = [];
  for (const use of uses) {
    const problem = imageTagProblem(use.image);
    if (problem === undefined) continue;
    issues.push({
      severity: 'warning',
      path: `${prefix}.${use.path}`,
      message: `${use.what} is '${use.image}', which ${problem}; a restart or a new node can run another build than the one reviewed`,
      fix: `Pin a release tag or a digest, e.g. ${pinnedExample(use.image)}.`,
    });
  }
  return issues;
}
