import { ApiObject, JsonPatch } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { invalid } from '../common/errors';
import { typeName } from '../common/validate';
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
    const where = 'OperatorDeployment.fromApiObject';
    if (!(deployment instanceof ApiObject)) {
      invalid(where, 'deployment', deployment, `must be a cdk8s ApiObject, not ${typeName(deployment)}`, 'pass the ApiObject of the operator Deployment');
    }
    const host = new ApiObjectSidecarHost(deployment);
    const manager = resolveManager(deployment, host.view(), options);
    return new OperatorDeployment(manager, host);
  }

  /**
   * An operator Deployment built with cdk8s-plus. Sidecars are added with its own API
   * (`addContainer`, `addVolume`, `Container.mount`, `Container.env`).
   */
  public static fromDeployment(deployment: kplus.Deployment, options: OperatorDeploymentOptions = {}): IOperatorDeployment {
    if (!(deployment instanceof kplus.Deployment)) {
      const where = 'OperatorDeployment.fromDeployment';
      const origin = jsiiOrigin(deployment);
      const ours = jsiiOrigin(kplus.Deployment.prototype);
      if (origin && ours && origin.fqn === 'Deployment' && origin.module.startsWith('cdk8s-plus-')) {
        const value = (deployment as { node?: { path?: unknown } }).node?.path ?? '(a Deployment)';
        const what = `is a ${origin.module} ${origin.version} Deployment`;
        if (origin.module !== ours.module) {
          invalid(where, 'deployment', value, `${what}, from another cdk8s-plus major than this library, which is built on ${ours.module} ${ours.version}`,
            `build the operator Deployment with ${ours.module} (npm install ${ours.module}; import * as kplus from '${ours.module}'), `
            + 'or pass its ApiObject to OperatorDeployment.fromApiObject(ApiObject.of(deployment), { managerContainerName })');
        }
        invalid(where, 'deployment', value, `${what} from a second copy of ${origin.module} (this library loads ${ours.version})`,
          `install one copy of ${ours.module} (npm dedupe, or the same version for the library and the app)`);
      }
      invalid(where, 'deployment', deployment, `must be a cdk8s-plus Deployment, not ${typeName(deployment)}`, 'pass the cdk8s-plus Deployment that runs the operator');
    }
    const host = new KplusSidecarHost(deployment);
    const manager = resolveManager(deployment, host.view(), options);
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
  readonly env: Array<[string, string]>;
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
  /** The Deployment as it will be synthesized, for the check that every added key survived. */
  render(): any;
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

function resolveManager(scope: ApiObject | kplus.Deployment, view: PodView, options: OperatorDeploymentOptions): string {
  if (options === null || typeof options !== 'object') {
    invalid(scope, 'options', options, `must be an object, not ${typeName(options)}`, 'pass { managerContainerName } or nothing');
  }
  const wanted = options.managerContainerName;
  if (wanted !== undefined) {
    if (typeof wanted !== 'string' || !view.containers.some((c) => c.name === wanted)) {
      const names = view.containers.map((c) => `'${c.name}'`).join(', ') || 'none';
      invalid(scope, 'managerContainerName', wanted, `is not a container of this Deployment (containers: ${names})`, 'pass the name of the container that runs the CloudNativePG manager');
    }
    return wanted;
  }
  const found = view.containers.filter(isManagerContainer);
  if (found.length !== 1) {
    const problem = found.length === 0
      ? 'no container sets OPERATOR_NAMESPACE and runs the \'controller\' subcommand'
      : `containers ${found.map((c) => `'${c.name}'`).join(' and ')} both look like the CloudNativePG manager`;
    invalid(scope, 'managerContainerName', undefined, `cannot be found: ${problem}`, 'pass managerContainerName');
  }
  return found[0].name;
}

/** Reads the pod view out of a Deployment's Kubernetes JSON. @internal */
export function podViewOfManifest(json: any): PodView | undefined {
  const pod = json?.spec?.template?.spec;
  if (pod === null || typeof pod !== 'object') return undefined;
  const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
  const containerView = (c: any): ContainerView => ({
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
  if (spec.env.length > 0) container.env = spec.env.map(([name, value]) => ({ name, value }));
  const resources = resourcesManifest(spec.resources, quantity);
  if (resources) container.resources = resources;
  container.securityContext = restrictedContainerSecurityContextManifest(spec.securityContext.user, spec.securityContext.group);
  container.volumeMounts = [{ name: spec.volumeName, mountPath: spec.mountPath }];
  return container;
}

/**
 * Renders cdk8s-plus `ContainerResources` exactly as cdk8s-plus does (cpu as given, memory in
 * Mi, ephemeral storage in Gi), so a sidecar looks the same whatever Deployment it lands in.
 * Throws the `Size` conversion error for sizes that are not whole Mi / Gi.
 * @internal
 */
export function resourcesManifest(resources: kplus.ContainerResources, quantity: (q: string) => unknown = (q) => q): Record<string, unknown> | undefined {
  const limits: Record<string, unknown> = {};
  const requests: Record<string, unknown> = {};
  if (resources.cpu?.limit) limits.cpu = quantity(resources.cpu.limit.amount);
  if (resources.memory?.limit) limits.memory = quantity(`${resources.memory.limit.toMebibytes()}Mi`);
  if (resources.ephemeralStorage?.limit) limits['ephemeral-storage'] = quantity(`${resources.ephemeralStorage.limit.toGibibytes()}Gi`);
  if (resources.cpu?.request) requests.cpu = quantity(resources.cpu.request.amount);
  if (resources.memory?.request) requests.memory = quantity(`${resources.memory.request.toMebibytes()}Mi`);
  if (resources.ephemeralStorage?.request) requests['ephemeral-storage'] = quantity(`${resources.ephemeralStorage.request.toGibibytes()}Gi`);
  const out: Record<string, unknown> = {};
  if (Object.keys(limits).length > 0) out.limits = limits;
  if (Object.keys(requests).length > 0) out.requests = requests;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Whether an ApiObject is a generated L1 class (it has the static `GVK` and `manifest` that
 * `cdk8s import` generates, and overrides `toJson` with typed converters). Those converters read
 * quantities as `{ value }` objects and drop anything else (cdk8s issue 2172).
 */
function isGeneratedL1(obj: ApiObject): boolean {
  const ctor = obj.constructor as any;
  return ctor !== ApiObject && typeof ctor.manifest === 'function' && ctor.GVK !== undefined
    && Object.getPrototypeOf(obj).toJson !== ApiObject.prototype.toJson;
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
    if (obj.kind !== 'Deployment' || obj.apiVersion !== 'apps/v1') {
      invalid(obj, 'deployment', `${obj.apiVersion}/${obj.kind}`, 'is not an apps/v1 Deployment', 'pass the operator Deployment');
    }
  }

  public view(): PodView {
    const view = podViewOfManifest(this.obj.toJson());
    if (!view) {
      invalid(this.obj, 'deployment', this.obj.name, 'has no spec.template.spec', 'pass a Deployment with a pod template');
    }
    return view;
  }

  public render(): any {
    return this.obj.toJson();
  }

  public addContainer(spec: SidecarContainerSpec): void {
    const quantity = this.typed ? (q: string) => ({ value: q }) : undefined;
    this.obj.addJsonPatch(JsonPatch.add(`${POD}/containers/-`, containerManifest(spec, quantity)));
  }

  public addEmptyDirVolume(name: string): void {
    const pod = this.obj.toJson().spec.template.spec;
    const volume = { name, emptyDir: {} };
    this.obj.addJsonPatch(Array.isArray(pod.volumes)
      ? JsonPatch.add(`${POD}/volumes/-`, volume)
      : JsonPatch.add(`${POD}/volumes`, [volume]));
  }

  public mountOnContainer(containerName: string, volumeName: string, mountPath: string): void {
    this.appendToContainer(containerName, 'volumeMounts', { name: volumeName, mountPath });
  }

  public addEnv(containerName: string, name: string, value: string): void {
    this.appendToContainer(containerName, 'env', { name, value });
  }

  private appendToContainer(containerName: string, field: string, item: unknown): void {
    const containers: any[] = this.obj.toJson().spec.template.spec.containers;
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
      mounts: c.mounts.map((m) => ({ name: m.volume.name, mountPath: m.path, readOnly: m.readOnly === true, subPath: m.subPath !== undefined || m.subPathExpr !== undefined })),
    });
    const containers = this.deployment.containers.map(containerView);
    return {
      containers,
      containerNames: [...containers.map((c) => c.name), ...this.deployment.initContainers.map((c) => c.name)],
      volumes: this.volumes().map((v) => ({ name: v.name, emptyDir: v._toKube().emptyDir !== undefined })),
    };
  }

  public render(): any {
    return ApiObject.of(this.deployment).toJson();
  }

  public addContainer(spec: SidecarContainerSpec): void {
    this.deployment.addContainer({
      name: spec.name,
      image: spec.image,
      imagePullPolicy: spec.imagePullPolicy,
      args: spec.args.length > 0 ? [...spec.args] : undefined,
      envVariables: Object.fromEntries(spec.env.map(([k, v]) => [k, kplus.EnvValue.fromValue(v)])),
      resources: spec.resources,
      securityContext: restrictedContainerSecurityContext(spec.securityContext.user, spec.securityContext.group),
      volumeMounts: [{ path: spec.mountPath, volume: this.volume(spec.volumeName) }],
    });
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
  const rtti = typeof ctor === 'function' ? ctor[Symbol.for('jsii.rtti')] as { fqn?: unknown; version?: unknown } | undefined : undefined;
  if (!rtti || typeof rtti.fqn !== 'string' || typeof rtti.version !== 'string') return undefined;
  const dot = rtti.fqn.indexOf('.');
  return { module: rtti.fqn.slice(0, dot), fqn: rtti.fqn.slice(dot + 1), version: rtti.version };
}
