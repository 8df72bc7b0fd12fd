import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, refuseFirst } from '../common/props';
import { invalid, wrongType } from '../manifests/errors';
import { RenderedJson } from '../manifests/json';
import { resourcesManifest } from './internal';
import { restrictedContainerSecurityContext, restrictedContainerSecurityContextManifest } from './pod-security';

/**
 * The CloudNativePG operator Deployment that sidecar plugins are added to.
 *
 * Get one with `CnpgOperator.fromManifest()` (the release manifest), or with
 * `OperatorDeployment.fromApiObject()` / `OperatorDeployment.fromDeployment()` for an operator
 * Deployment built in cdk8s. `SidecarPlugin` takes any of them as its `operator`.
 */
export interface IOperatorDeployment {
  /** The name of the operator's manager container: the one that lists the socket directory. */
  readonly managerContainerName: string;

  /**
   * How sidecars are added to this Deployment.
   * @internal
   */
  _sidecarHost(): SidecarHost;
}

/**
 * Options for {@link OperatorDeployment.fromApiObject} and {@link OperatorDeployment.fromDeployment}.
 */
export interface OperatorDeploymentOptions {
  /**
   * The name of the operator's manager container.
   *
   * @default - the one container that sets `OPERATOR_NAMESPACE` in `env` and runs the
   * `controller` subcommand (in `command` or `args`), as the CloudNativePG release manifest
   * and Helm chart do
   */
  readonly managerContainerName?: string;
}

/**
 * References a CloudNativePG operator Deployment built in cdk8s, so that `SidecarPlugin` can
 * add plugin containers to it.
 *
 * The Deployment is read when a sidecar is added; sidecars are added with JSON patches
 * (`fromApiObject`) or through the cdk8s-plus API (`fromDeployment`), and a check at synthesis
 * proves that every added field is in the output.
 */
export class OperatorDeployment implements IOperatorDeployment {
  /**
   * An operator Deployment as an `ApiObject`: a plain `ApiObject`, an object loaded with cdk8s
   * `Include`, or a generated L1 such as `KubeDeployment`.
   *
   * Generated L1 classes re-serialize their JSON through typed converters that silently drop
   * values they do not recognize (cdk8s issue 2172), so quantities are patched in the shape
   * those converters read; plain objects get plain Kubernetes JSON.
   */
  public static fromApiObject(deployment: ApiObject, options: OperatorDeploymentOptions = {}): IOperatorDeployment {
    if (!(deployment instanceof ApiObject)) {
      invalid(
        'OperatorDeployment.fromApiObject',
        'deployment',
        deployment,
        wrongType('a cdk8s ApiObject', deployment),
        'pass the ApiObject of the operator Deployment',
      );
    }
    const host = new ApiObjectSidecarHost(deployment);
    const manager = resolveManager('OperatorDeployment.fromApiObject', deployment, host.view(), options);
    return new OperatorDeployment(manager, host);
  }

  /**
   * An operator Deployment built with cdk8s-plus. Sidecars are added with its own API
   * (`addContainer`, `addVolume`, `Container.mount`, `Container.env`).
   */
  public static fromDeployment(deployment: kplus.Deployment, options: OperatorDeploymentOptions = {}): IOperatorDeployment {
    if (!(deployment instanceof kplus.Deployment)) {
      // A cdk8s-plus Deployment of another major or another copy: say which, and what to do.
      const origin = jsiiOrigin(deployment);
      const ours = jsiiOrigin(kplus.Deployment.prototype)!;
      const plus = origin !== undefined && origin.fqn === 'Deployment' && origin.module.startsWith('cdk8s-plus-');
      const value = plus ? ((deployment as { node?: { path?: unknown } }).node?.path ?? '(a Deployment)') : deployment;
      const problem = !plus
        ? wrongType('a cdk8s-plus Deployment', deployment)
        : origin.module !== ours.module
          ? `is a ${origin.module} ${origin.version} Deployment, from another cdk8s-plus major than this library, which is built on ${ours.module} ${ours.version}`
          : `is a ${origin.module} ${origin.version} Deployment from a second copy of ${origin.module} (this library loads ${ours.version})`;
      const fix = !plus
        ? 'pass the cdk8s-plus Deployment that runs the operator'
        : origin.module !== ours.module
          ? `build the operator Deployment with ${ours.module} (npm install ${ours.module}; import * as kplus from '${ours.module}'), ` +
            'or pass its ApiObject to OperatorDeployment.fromApiObject(ApiObject.of(deployment), { managerContainerName })'
          : `install one copy of ${ours.module} (npm dedupe, or the same version for the library and the app)`;
      invalid('OperatorDeployment.fromDeployment', 'deployment', value, problem, fix);
    }
    const host = new KplusSidecarHost(deployment);
    const manager = resolveManager('OperatorDeployment.fromDeployment', deployment, host.view(), options);
    return new OperatorDeployment(manager, host);
  }

  /** The name of the operator's manager container. */
  public readonly managerContainerName: string;
  private readonly host: SidecarHost;

  private constructor(managerContainerName: string, host: SidecarHost) {
    this.managerContainerName = managerContainerName;
    this.host = host;
  }

  /** @internal */
  public _sidecarHost(): SidecarHost {
    return this.host;
  }
}

/**
 * What a sidecar needs to know about the operator pod, in Kubernetes terms.
 * @internal
 */
export interface PodView {
  /** Names of all containers and init containers. */
  readonly containerNames: string[];
  readonly containers: ContainerView[];
  /** Volumes by name; `emptyDir` tells whether the volume is an emptyDir. */
  readonly volumes: Array<{ readonly name: string; readonly emptyDir: boolean }>;
}

/** @internal */
export interface ContainerView {
  readonly name: string;
  readonly argv: string[];
  readonly env: Array<{ readonly name: string; readonly value?: string; readonly fromSource: boolean }>;
  readonly mounts: Array<{ readonly name: string; readonly mountPath: string; readonly readOnly: boolean; readonly subPath: boolean }>;
}

/**
 * A plugin container in neutral form, rendered by each host in its own way.
 * @internal
 */
export interface SidecarContainerSpec {
  readonly name: string;
  readonly image: string;
  readonly imagePullPolicy: kplus.ImagePullPolicy;
  readonly args: string[];
  readonly env: Array<[string, kplus.EnvValue]>;
  readonly resources: kplus.ContainerResources;
  readonly securityContext: { readonly user: number; readonly group: number };
  readonly volumeName: string;
  readonly mountPath: string;
}

/**
 * The operations a sidecar performs on an operator Deployment. Each is purely additive.
 * @internal
 */
export interface SidecarHost {
  /** The object whose identity keys shared sidecar state (one socket directory per pod). */
  readonly key: object;
  /** The Deployment construct, for error messages. */
  readonly construct: ApiObject | kplus.Deployment;
  view(): PodView;
  addContainer(spec: SidecarContainerSpec): void;
  addEmptyDirVolume(name: string): void;
  mountOnContainer(containerName: string, volumeName: string, mountPath: string): void;
  addEnv(containerName: string, name: string, value: string): void;
  /** An annotation of the Deployment as it stands. */
  annotation(key: string): string | undefined;
  /** Sets an annotation of the Deployment (not of its pod template, so that it restarts nothing). */
  setAnnotation(key: string, value: string): void;
  /** The Deployment as it will be synthesized, for the check that every added key survived. */
  render(): RenderedJson;
}

/** The env variable the CloudNativePG manager reads its namespace from. */
const OPERATOR_NAMESPACE_ENV = 'OPERATOR_NAMESPACE';

/**
 * Whether a container is the CloudNativePG manager: the manager reads its own namespace from
 * `OPERATOR_NAMESPACE` (the release manifest and the Helm chart set it from the downward API),
 * and its binary runs the operator under the `controller` subcommand
 * (the same image also has `instance`, `pgbouncer`, ... subcommands). Both together tell it
 * apart from other operators built with kubebuilder, which also use `/manager`.
 * @internal
 */
export function isManagerContainer(c: ContainerView): boolean {
  return c.env.some((e) => e.name === OPERATOR_NAMESPACE_ENV) && c.argv.includes('controller');
}

const OPTIONS_SPEC: PropSpec<OperatorDeploymentOptions> = {
  managerContainerName: Kind.string('pass the name of the container that runs the CloudNativePG manager'),
};

function resolveManager(where: string, scope: ApiObject | kplus.Deployment, view: PodView, options: OperatorDeploymentOptions): string {
  checkProps(where, 'options', options, OPTIONS_SPEC);
  const wanted = options.managerContainerName;
  const found = view.containers.filter(isManagerContainer);
  const names = view.containers.map((c) => `'${c.name}'`).join(', ') || 'none';
  refuseFirst(scope, [
    [
      wanted !== undefined && !view.containers.some((c) => c.name === wanted),
      'managerContainerName',
      wanted,
      `is not a container of this Deployment (containers: ${names})`,
      'pass the name of the container that runs the CloudNativePG manager',
    ],
    [
      wanted === undefined && found.length !== 1,
      'deployment',
      view.containers.map((c) => c.name),
      found.length === 0
        ? "has no container that sets OPERATOR_NAMESPACE and runs the 'controller' subcommand, so the manager cannot be found"
        : `has ${found.length} containers that look like the CloudNativePG manager`,
      'pass managerContainerName',
    ],
  ]);
  return wanted ?? found[0].name;
}

/** Reads the pod view out of a Deployment's Kubernetes JSON. @internal */
export function podViewOfManifest(json: RenderedJson): PodView | undefined {
  const pod = json?.spec?.template?.spec;
  if (pod === null || typeof pod !== 'object') return undefined;
  const list = (v: unknown): RenderedJson[] => (Array.isArray(v) ? v : []);
  const containerView = (c: RenderedJson): ContainerView => ({
    name: String(c?.name),
    argv: [...list(c?.command), ...list(c?.args)].filter((a) => typeof a === 'string'),
    env: list(c?.env).map((e) => ({
      name: String(e?.name),
      value: typeof e?.value === 'string' ? e.value : undefined,
      fromSource: e?.valueFrom !== undefined,
    })),
    mounts: list(c?.volumeMounts).map((m) => ({
      name: String(m?.name),
      mountPath: String(m?.mountPath),
      readOnly: m?.readOnly === true,
      subPath: m?.subPath !== undefined || m?.subPathExpr !== undefined,
    })),
  });
  const containers = list(pod.containers).map(containerView);
  const initNames = list(pod.initContainers).map((c) => String(c?.name));
  return {
    containers,
    containerNames: [...containers.map((c) => c.name), ...initNames],
    volumes: list(pod.volumes).map((v) => ({ name: String(v?.name), emptyDir: v?.emptyDir !== undefined })),
  };
}

/**
 * The plugin container as Kubernetes JSON.
 * @internal
 */
export function containerManifest(spec: SidecarContainerSpec, quantity: (q: string) => unknown = (q) => q): Record<string, unknown> {
  const container: Record<string, unknown> = {
    name: spec.name,
    image: spec.image,
    imagePullPolicy: spec.imagePullPolicy,
  };
  if (spec.args.length > 0) container.args = [...spec.args];
  if (spec.env.length > 0)
    container.env = spec.env.map(([name, v]) => (v.valueFrom !== undefined ? { name, valueFrom: v.valueFrom } : { name, value: v.value }));
  const resources = resourcesManifest(spec.resources, quantity);
  if (resources) container.resources = resources;
  container.securityContext = restrictedContainerSecurityContextManifest(spec.securityContext.user, spec.securityContext.group);
  container.volumeMounts = [{ name: spec.volumeName, mountPath: spec.mountPath }];
  return container;
}

/**
 * Whether an ApiObject is a generated L1 class (it has the static `GVK` and `manifest` that
 * `cdk8s import` generates, and overrides `toJson` with typed converters). Those converters read
 * quantities as `{ value }` objects and drop anything else (cdk8s issue 2172).
 */
function isGeneratedL1(obj: ApiObject): boolean {
  const ctor = obj.constructor as RenderedJson;
  return (
    ctor !== ApiObject && typeof ctor.manifest === 'function' && ctor.GVK !== undefined && Object.getPrototypeOf(obj).toJson !== ApiObject.prototype.toJson
  );
}

const POD = '/spec/template/spec';

/** Adds sidecars to an ApiObject with JSON patches, applied by cdk8s at synthesis. */
class ApiObjectSidecarHost implements SidecarHost {
  public readonly key: object;
  public readonly construct: ApiObject;
  private readonly typed: boolean;

  constructor(private readonly obj: ApiObject) {
    this.key = obj;
    this.construct = obj;
    this.typed = isGeneratedL1(obj);
    this.view();
  }

  public view(): PodView {
    const deployment = this.obj.kind === 'Deployment' && this.obj.apiVersion === 'apps/v1';
    const view = deployment ? podViewOfManifest(this.obj.toJson()) : undefined;
    if (!view) {
      invalid(
        this.obj,
        'deployment',
        `${this.obj.apiVersion}/${this.obj.kind} ${this.obj.name}`,
        deployment ? 'has no spec.template.spec' : 'is not an apps/v1 Deployment',
        'pass the operator Deployment, with its pod template',
      );
    }
    return view;
  }

  public render(): RenderedJson {
    return this.obj.toJson();
  }

  public addContainer(spec: SidecarContainerSpec): void {
    const quantity = this.typed ? (q: string) => ({ value: q }) : undefined;
    this.obj.addJsonPatch(JsonPatch.add(`${POD}/containers/-`, containerManifest(spec, quantity)));
  }

  public addEmptyDirVolume(name: string): void {
    const pod = this.obj.toJson().spec.template.spec;
    const volume = { name, emptyDir: {} };
    this.obj.addJsonPatch(Array.isArray(pod.volumes) ? JsonPatch.add(`${POD}/volumes/-`, volume) : JsonPatch.add(`${POD}/volumes`, [volume]));
  }

  public mountOnContainer(containerName: string, volumeName: string, mountPath: string): void {
    this.appendToContainer(containerName, 'volumeMounts', { name: volumeName, mountPath });
  }

  public addEnv(containerName: string, name: string, value: string): void {
    this.appendToContainer(containerName, 'env', { name, value });
  }

  public annotation(key: string): string | undefined {
    return this.obj.metadata.toJson().annotations?.[key];
  }

  public setAnnotation(key: string, value: string): void {
    this.obj.metadata.addAnnotation(key, value);
  }

  private appendToContainer(containerName: string, field: string, item: unknown): void {
    const containers: RenderedJson[] = this.obj.toJson().spec.template.spec.containers;
    const index = containers.findIndex((c) => c?.name === containerName);
    const base = `${POD}/containers/${index}/${field}`;
    this.obj.addJsonPatch(Array.isArray(containers[index][field]) ? JsonPatch.add(`${base}/-`, item) : JsonPatch.add(base, [item]));
  }
}

/** Adds sidecars through the cdk8s-plus API, which renders them into its own L1. */
class KplusSidecarHost implements SidecarHost {
  public readonly key: object;
  public readonly construct: kplus.Deployment;

  constructor(private readonly deployment: kplus.Deployment) {
    this.key = ApiObject.of(deployment);
    this.construct = deployment;
  }

  public view(): PodView {
    const containerView = (c: kplus.Container): ContainerView => ({
      name: c.name,
      argv: [...(c.command ?? []), ...(c.args ?? [])],
      env: Object.entries(c.env.variables).map(([name, v]) => ({
        name,
        value: typeof v.value === 'string' ? v.value : undefined,
        fromSource: v.valueFrom !== undefined,
      })),
      mounts: c.mounts.map((m) => ({
        name: m.volume.name,
        mountPath: m.path,
        readOnly: m.readOnly === true,
        subPath: m.subPath !== undefined || m.subPathExpr !== undefined,
      })),
    });
    const containers = this.deployment.containers.map(containerView);
    return {
      containers,
      containerNames: [...containers.map((c) => c.name), ...this.deployment.initContainers.map((c) => c.name)],
      volumes: this.volumes().map((v) => ({ name: v.name, emptyDir: v._toKube().emptyDir !== undefined })),
    };
  }

  public render(): RenderedJson {
    return ApiObject.of(this.deployment).toJson();
  }

  public addContainer(spec: SidecarContainerSpec): void {
    const index = this.deployment.containers.length;
    this.deployment.addContainer({
      name: spec.name,
      image: spec.image,
      imagePullPolicy: spec.imagePullPolicy,
      args: spec.args.length > 0 ? [...spec.args] : undefined,
      envVariables: Object.fromEntries(spec.env),
      // Rendered below through the library's one quantity rendering (1Gi, not 1024Mi).
      resources: {},
      securityContext: restrictedContainerSecurityContext(spec.securityContext.user, spec.securityContext.group),
      volumeMounts: [{ path: spec.mountPath, volume: this.volume(spec.volumeName) }],
    });
    const resources = resourcesManifest(spec.resources, (q) => ({ value: q }));
    if (resources !== undefined) ApiObject.of(this.deployment).addJsonPatch(JsonPatch.add(`${POD}/containers/${index}/resources`, resources));
  }

  public addEmptyDirVolume(name: string): void {
    this.deployment.addVolume(kplus.Volume.fromEmptyDir(this.deployment, `SidecarPluginVolume-${name}`, name));
  }

  public mountOnContainer(containerName: string, volumeName: string, mountPath: string): void {
    this.container(containerName).mount(mountPath, this.volume(volumeName));
  }

  public addEnv(containerName: string, name: string, value: string): void {
    this.container(containerName).env.addVariable(name, kplus.EnvValue.fromValue(value));
  }

  public annotation(key: string): string | undefined {
    return this.deployment.metadata.toJson().annotations?.[key];
  }

  public setAnnotation(key: string, value: string): void {
    this.deployment.metadata.addAnnotation(key, value);
  }

  private container(name: string): kplus.Container {
    return this.deployment.containers.find((c) => c.name === name)!;
  }

  /** Pod volumes plus the volumes only referenced by mounts (cdk8s-plus adds those at synthesis). */
  private volumes(): kplus.Volume[] {
    const all = new Map<string, kplus.Volume>();
    for (const v of this.deployment.volumes) all.set(v.name, v);
    for (const c of [...this.deployment.containers, ...this.deployment.initContainers]) {
      for (const m of c.mounts) if (!all.has(m.volume.name)) all.set(m.volume.name, m.volume);
    }
    return [...all.values()];
  }

  private volume(name: string): kplus.Volume {
    return this.volumes().find((v) => v.name === name)!;
  }
}

/**
 * The jsii type information that cdk8s-plus (compiled with jsii) stamps on its classes, e.g.
 * `{ module: 'cdk8s-plus-33', fqn: 'Deployment', version: '2.5.57' }`; undefined for other values.
 */
function jsiiOrigin(value: unknown): { module: string; fqn: string; version: string } | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const ctor = (value as { constructor?: unknown }).constructor as Record<symbol, unknown> | undefined;
  const rtti = typeof ctor === 'function' ? (ctor[Symbol.for('jsii.rtti')] as { fqn?: unknown; version?: unknown } | undefined) : undefined;
  if (!rtti || typeof rtti.fqn !== 'string' || typeof rtti.version !== 'string') return undefined;
  const dot = rtti.fqn.indexOf('.');
  return { module: rtti.fqn.slice(0, dot), fqn: rtti.fqn.slice(dot + 1), version: rtti.version };
}
