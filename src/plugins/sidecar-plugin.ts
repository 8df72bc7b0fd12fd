import { ApiObject, Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Kind } from '../common/prop-kinds';
import { PropSpec, Rule, checkProps, refuseFirst } from '../common/props';
import { describeValue, invalid } from '../manifests/errors';
import { RenderedJson } from '../manifests/json';
import { isDnsLabel } from '../manifests/k8s-names';
import {
  SIDECAR_PLUGINS_ANNOTATION,
  SidecarPluginEntry,
  formatSidecarPlugins,
  parseSidecarPlugins,
  readSidecarPluginsAnnotation,
} from '../manifests/sidecar-plugins';
import { ContainerView, IOperatorDeployment, PodView, SidecarContainerSpec, SidecarHost, containerManifest } from './cnpg-operator-deployment';
import { RENAMED_PLUGIN_KEYS, containerResourcesKind, guardOnce, reportedNameRule, subcommandRule } from './internal';
import { IPlugin, IPluginCluster, PluginClusterEntry } from './plugin';
import { DEFAULT_PLUGIN_USER_ID, PluginSecurityContextProps } from './pod-security';

/**
 * The directory the CloudNativePG operator lists for plugin sockets when `PLUGIN_SOCKET_DIR`
 * is not set (the operator code says `/plugins`; some upstream docs wrongly say `/plugin`).
 */
export const DEFAULT_PLUGIN_SOCKET_DIR = '/plugins';

/** The env variable that tells the CloudNativePG manager where to look for plugin sockets. */
export const PLUGIN_SOCKET_DIR_ENV = 'PLUGIN_SOCKET_DIR';

/**
 * The name of the `emptyDir` volume that sidecar plugins and the manager share, unless the
 * manager already mounts a volume at the socket directory (then that one is shared).
 */
export const SIDECAR_PLUGIN_VOLUME_NAME = 'cnpg-i-plugins';

/**
 * Longest path a Unix socket can have on Linux (`sun_path` holds 108 bytes with the final NUL).
 */
const MAX_SOCKET_PATH = 107;

/**
 * How a sidecar plugin is told where to create its socket.
 */
export class PluginPathFlag {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories = "PluginPathFlag.flag('--plugin-path') or PluginPathFlag.none()";

  /**
   * Passes the directory as `<name>=<dir>`, after the other `args`. cnpg-i-machinery based
   * plugins (hello-world and most others) take `--plugin-path`.
   */
  public static flag(name: string): PluginPathFlag {
    if (typeof name !== 'string' || !/^--?[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
      invalid('PluginPathFlag.flag', 'name', name, 'is not a command line flag', "pass a flag such as '--plugin-path'");
    }
    return new PluginPathFlag(name);
  }

  /**
   * Does not pass the directory: for plugins that take it some other way (their own flag in
   * `args`, an env variable, or a built-in default equal to `socketDir`).
   */
  public static none(): PluginPathFlag {
    return new PluginPathFlag(undefined);
  }

  /** The flag, or `undefined` when the directory is not passed. */
  public readonly flagName?: string;

  private constructor(flagName: string | undefined) {
    this.flagName = flagName;
  }
}

/**
 * What a sidecar plugin runs and where its socket lives. Used by
 * `CnpgOperator.addSidecarPlugin()` and, with `operator`, by `SidecarPlugin`.
 */
export interface SidecarPluginOptions {
  /**
   * The plugin's name: the file name of its socket, which is how the operator knows the
   * plugin, and the name Clusters use. Must equal the name the plugin reports.
   */
  readonly pluginName: string;

  /** The plugin's container image, pinned to a tag other than `latest` or to a digest. */
  readonly image: string;

  /**
   * Arguments of the plugin container, before the socket directory flag
   * (for cnpg-i-hello-world: `['plugin']`, which that image is refused without).
   * @default - none: the image's default command with only the socket directory flag
   */
  readonly args?: string[];

  /**
   * Environment variables of the plugin container (cdk8s-plus `ContainerProps.envVariables`).
   * @default - none
   */
  readonly envVariables?: Record<string, kplus.EnvValue>;

  /**
   * Compute resources of the plugin container.
   * @default - requests 50m CPU and 64Mi memory, limits memory to 256Mi, no CPU limit
   * (a throttled plugin slows the operator that waits on it)
   */
  readonly resources?: kplus.ContainerResources;

  /**
   * When the kubelet pulls the image.
   * @default kplus.ImagePullPolicy.IF_NOT_PRESENT
   */
  readonly imagePullPolicy?: kplus.ImagePullPolicy;

  /**
   * The directory, in the manager and in the plugin container, that holds the sockets. Every
   * sidecar of one operator uses the same directory. When it is not `/plugins`,
   * `PLUGIN_SOCKET_DIR` is set on the manager container.
   * @default '/plugins'
   */
  readonly socketDir?: string;

  /**
   * The uid and gid of the plugin container; the rest of its security context is the
   * restricted Pod Security Standard.
   * @default - uid and gid 10001
   */
  readonly securityContext?: PluginSecurityContextProps;

  /**
   * How the socket directory is passed to the plugin.
   * @default PluginPathFlag.flag('--plugin-path'), what cnpg-i-machinery reads
   */
  readonly pluginPathFlag?: PluginPathFlag;

  /**
   * The name of the plugin container.
   * @default - the first label of `pluginName` (`cnpg-i-hello-world` for
   * `cnpg-i-hello-world.cloudnative-pg.io`)
   */
  readonly containerName?: string;
}

/**
 * Props of {@link SidecarPlugin}.
 */
export interface SidecarPluginProps extends SidecarPluginOptions {
  /**
   * The operator Deployment to add the plugin to: `CnpgOperator.fromManifest(...)`,
   * `OperatorDeployment.fromApiObject(...)` or `OperatorDeployment.fromDeployment(...)`.
   */
  readonly operator: IOperatorDeployment;
}

/** What each key of {@link SidecarPluginOptions} holds. */
const OPTIONS_SPEC: PropSpec<SidecarPluginOptions> = {
  pluginName: Kind.pluginName,
  image: Kind.image('ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0'),
  args: Kind.strings,
  envVariables: Kind.envVariables,
  resources: containerResourcesKind,
  imagePullPolicy: Kind.enumOf(kplus.ImagePullPolicy, 'kplus.ImagePullPolicy'),
  socketDir: Kind.string("use an absolute directory such as '/plugins'"),
  securityContext: Kind.props<PluginSecurityContextProps>({ user: Kind.integer(1), group: Kind.integer(1) }),
  pluginPathFlag: Kind.factory(PluginPathFlag),
  containerName: Kind.string("use a DNS label such as 'my-plugin'"),
};

const PROPS_SPEC: PropSpec<SidecarPluginProps> = {
  ...OPTIONS_SPEC,
  operator: Kind.instance(
    (v) => v !== null && typeof v === 'object' && typeof (v as IOperatorDeployment)._sidecarHost === 'function',
    'an operator Deployment',
    'pass CnpgOperator.fromManifest(...), OperatorDeployment.fromApiObject(...) or OperatorDeployment.fromDeployment(...)',
  ),
};

/** What all sidecars of one operator pod must agree on. */
interface SharedSocket {
  readonly socketDir: string;
  readonly firstPath: string;
  readonly plugins: Map<string, string>;
  /** What the Deployment's sidecar plugins annotation names, in the order the sidecars were added. */
  readonly entries: SidecarPluginEntry[];
}

const SHARED = new WeakMap<object, SharedSocket>();

/**
 * A CNPG-I plugin that runs as a sidecar container of the CloudNativePG operator and talks to
 * it over a Unix socket.
 *
 * Adds to the operator Deployment: the plugin container (restricted security context), one
 * `emptyDir` volume shared by the manager and every sidecar plugin, mounted at `socketDir` in
 * each of them, `PLUGIN_SOCKET_DIR` on the manager when `socketDir` is not `/plugins`, and the
 * annotation `cnpg-i.dev/sidecar-plugins` on the Deployment (not on its pod template), which
 * names every sidecar plugin with its container and socket for the doctor: the operator does not
 * read it, and nothing else in the manifests says which plugin a sidecar serves.
 * The plugin creates its socket at `socketPath` (`<socketDir>/<pluginName>`); the operator lists
 * that directory once, at startup. Adding a sidecar changes the pod template, so the operator
 * restarts and finds the new socket. No TLS, no Service, no network.
 *
 * Checked: two sidecars with one plugin name, sidecars with different socket directories, a
 * `PLUGIN_SOCKET_DIR` on the manager that differs from `socketDir`, and a manager that already
 * mounts something unusable at `socketDir` (an emptyDir already mounted there is shared). Not
 * checked: the operator also reads configuration keys, `PLUGIN_SOCKET_DIR` among them, from
 * the ConfigMap / Secret named by its `--config-map-name` / `--secret-name` flags; keep that key
 * unset there or equal to `socketDir`.
 *
 * Implements `IPlugin`, so Clusters can reference it.
 */
export class SidecarPlugin extends Construct implements IPlugin {
  /** The directory the operator lists for sockets when `PLUGIN_SOCKET_DIR` is unset (`/plugins`). */
  public static readonly DEFAULT_PLUGIN_SOCKET_DIR = DEFAULT_PLUGIN_SOCKET_DIR;
  /** The manager's env variable naming the socket directory (`PLUGIN_SOCKET_DIR`). */
  public static readonly PLUGIN_SOCKET_DIR_ENV = PLUGIN_SOCKET_DIR_ENV;
  /** The name of the shared socket volume (`cnpg-i-plugins`). */
  public static readonly SIDECAR_PLUGIN_VOLUME_NAME = SIDECAR_PLUGIN_VOLUME_NAME;
  /** The uid and gid sidecar containers run as unless `securityContext` says otherwise (10001). */
  public static readonly DEFAULT_PLUGIN_USER_ID = DEFAULT_PLUGIN_USER_ID;

  /** The plugin's name, which is also its socket file name. */
  public readonly pluginName: string;
  /** The directory of the socket, in the manager and in the plugin container. */
  public readonly socketDir: string;
  /** The full path of the plugin's socket: `<socketDir>/<pluginName>`. */
  public readonly socketPath: string;
  /** The name of the plugin container. */
  public readonly containerName: string;
  /** The name of the volume that holds the sockets. */
  public readonly volumeName: string;
  /** The operator Deployment the plugin runs in. */
  public readonly operator: IOperatorDeployment;

  constructor(scope: Construct, id: string, props: SidecarPluginProps) {
    super(scope, id);
    checkProps(this, 'props', props, PROPS_SPEC, {
      required: ['operator', 'pluginName', 'image'],
      example: "{ operator, pluginName: 'cnpg-i-hello-world.cloudnative-pg.io', image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0', args: ['plugin'] }",
      renamed: RENAMED_PLUGIN_KEYS,
    });
    const operator = props.operator;
    this.operator = operator;
    this.pluginName = props.pluginName;
    const image = props.image;
    const args = [...(props.args ?? [])];
    const imagePullPolicy = props.imagePullPolicy ?? kplus.ImagePullPolicy.IF_NOT_PRESENT;
    const user = props.securityContext?.user ?? DEFAULT_PLUGIN_USER_ID;
    const group = props.securityContext?.group ?? DEFAULT_PLUGIN_USER_ID;
    const resources = props.resources ?? defaultResources();
    const flag = props.pluginPathFlag ?? PluginPathFlag.flag('--plugin-path');
    this.socketDir = props.socketDir ?? DEFAULT_PLUGIN_SOCKET_DIR;
    this.socketPath = `${this.socketDir}/${this.pluginName}`;
    const containerName = props.containerName ?? this.pluginName.split('.')[0];
    const clash = flag.flagName === undefined ? undefined : args.find((a) => a === flag.flagName || a.startsWith(`${flag.flagName}=`));
    const dirFix = "use an absolute directory of plain segments such as '/plugins'";
    const host = operator._sidecarHost();
    const view = host.view();
    const managerName = operator.managerContainerName;
    const found = view.containers.find((c) => c.name === managerName);
    const shared = SHARED.get(host.key);
    const socketVolume = this.managerSocketVolume(view, found?.mounts ?? []);
    // Every rule of the props, then the operator's, in the order they are reported.
    refuseFirst(this, [
      subcommandRule(image, args, undefined),
      reportedNameRule(image, this.pluginName),
      [
        !/^(\/[A-Za-z0-9._-]+)+$/.test(this.socketDir) || this.socketDir.split('/').some((seg) => seg === '.' || seg === '..'),
        'socketDir',
        this.socketDir,
        "is not an absolute path of plain segments (letters, digits, '.', '_' and '-'; no '.', '..', empty or trailing segments)",
        dirFix,
      ],
      [
        this.socketPath.length > MAX_SOCKET_PATH,
        'socketDir',
        this.socketDir,
        `makes the socket path '${this.socketPath}' ${this.socketPath.length} characters long; a Unix socket path holds at most ${MAX_SOCKET_PATH}`,
        'use a shorter socketDir',
      ],
      [
        clash !== undefined,
        'args',
        clash,
        `already passes ${flag.flagName}, which the sidecar sets from socketDir`,
        'remove it from args and set socketDir, or set pluginPathFlag: PluginPathFlag.none()',
      ],
      [
        !isDnsLabel(containerName),
        'containerName',
        containerName,
        'is not a DNS label (RFC 1123)',
        "use lower-case letters, digits and '-', at most 63 characters",
      ],
      [found === undefined, 'operator', managerName, 'names a manager container that the Deployment does not have', 'check managerContainerName'],
      ...this.operatorRules(shared, host, view, found, containerName),
      ...socketVolume.rules,
    ]);
    const fullArgs = flag.flagName === undefined ? args : [...args, `${flag.flagName}=${this.socketDir}`];
    this.containerName = containerName;
    const manager = found as ContainerView; // refused above when missing
    const existing = socketVolume.name;
    this.volumeName = existing ?? SIDECAR_PLUGIN_VOLUME_NAME;

    if (existing === undefined) {
      host.addEmptyDirVolume(this.volumeName);
      host.mountOnContainer(managerName, this.volumeName, this.socketDir);
    }
    if (this.socketDir !== DEFAULT_PLUGIN_SOCKET_DIR && !manager.env.some((e) => e.name === PLUGIN_SOCKET_DIR_ENV)) {
      host.addEnv(managerName, PLUGIN_SOCKET_DIR_ENV, this.socketDir);
    }
    const spec: SidecarContainerSpec = {
      name: containerName,
      image,
      imagePullPolicy,
      args: fullArgs,
      env: Object.entries(props.envVariables ?? {}),
      resources,
      securityContext: { user, group },
      volumeName: this.volumeName,
      mountPath: this.socketDir,
    };
    host.addContainer(spec);

    const state: SharedSocket = shared ?? { socketDir: this.socketDir, firstPath: this.node.path, plugins: new Map(), entries: this.namedBefore(host, view) };
    state.plugins.set(this.pluginName, this.node.path);
    state.entries.push({ container: containerName, plugin: this.pluginName, socket: this.socketPath });
    SHARED.set(host.key, state);
    // The socket's name is chosen by the plugin at run time: the Deployment says which plugin
    // each sidecar serves, so the doctor (and anyone reading the YAML) needs no other input.
    host.setAnnotation(SIDECAR_PLUGINS_ANNOTATION, formatSidecarPlugins(state.entries));

    this.node.addValidation({ validate: () => this.lostFields(host, spec, managerName) });
    // The operator Deployment with its sidecars must still be one the API server accepts (a bad
    // sidecar rejects the whole operator): guarded once (by CnpgOperator, or the first sidecar).
    guardOnce(this, host.key as ApiObject);
  }

  /**
   * The operator's rules for sidecars of one pod: each socket file name (the plugin name) once,
   * one socket directory (cloudnative-pg v1.30.0 internal/configuration/configuration.go
   * DefaultPluginSocketDir and the `PLUGIN_SOCKET_DIR` field, listed once at startup by
   * internal/cnpi/plugin/repository/setup.go RegisterUnixSocketPluginsInPath), equal to the
   * manager's `PLUGIN_SOCKET_DIR`, and container names unique in the pod.
   */
  private operatorRules(shared: SharedSocket | undefined, host: SidecarHost, view: PodView, manager: ContainerView | undefined, containerName: string): Rule[] {
    const other = shared?.plugins.get(this.pluginName);
    const set = manager?.env.find((e) => e.name === PLUGIN_SOCKET_DIR_ENV);
    const where = `manager container '${manager?.name}'`;
    return [
      [
        other !== undefined,
        'pluginName',
        this.pluginName,
        `is already a sidecar plugin of ${host.construct.node.path} (${other}); the socket file name is the plugin name, so it must be unique`,
        'add each plugin once, or give the plugins different names',
      ],
      [
        shared !== undefined && shared.socketDir !== this.socketDir,
        'socketDir',
        this.socketDir,
        `differs from '${shared?.socketDir}' used by ${shared?.firstPath}; the operator lists one socket directory`,
        `use socketDir '${shared?.socketDir}' for every sidecar plugin of this operator`,
      ],
      [
        set !== undefined && (set.fromSource || set.value === undefined),
        'socketDir',
        this.socketDir,
        `cannot be checked: ${PLUGIN_SOCKET_DIR_ENV} on ${where} comes from valueFrom`,
        `set ${PLUGIN_SOCKET_DIR_ENV} to a plain value on the manager`,
      ],
      [
        set?.value !== undefined && set.value !== this.socketDir,
        'socketDir',
        this.socketDir,
        `differs from ${PLUGIN_SOCKET_DIR_ENV} ${describeValue(set?.value)} already set on ${where}; the operator only lists that directory`,
        `set socketDir to ${describeValue(set?.value)}`,
      ],
      [
        view.containerNames.includes(containerName),
        'containerName',
        containerName,
        'is already a container of the operator Deployment',
        'set containerName to another name',
      ],
    ];
  }

  /**
   * The sidecars a Deployment's annotation already names (a manifest this library synthesized
   * before, loaded again), as long as their containers are still there: the annotation is
   * rewritten with every sidecar, so they keep their names.
   */
  private namedBefore(host: SidecarHost, view: PodView): SidecarPluginEntry[] {
    const value = host.annotation(SIDECAR_PLUGINS_ANNOTATION);
    const reading = value === undefined ? undefined : parseSidecarPlugins(value);
    return reading?.ok ? reading.entries.filter((e) => view.containerNames.includes(e.container)) : [];
  }

  /**
   * The volume the manager already mounts at the socket directory, if any. Such a volume is
   * shared rather than shadowed by a second mount at the same path (which Kubernetes rejects);
   * the rules say when the mount there cannot hold sockets.
   */
  private managerSocketVolume(view: PodView, mounts: ContainerView['mounts']): { readonly name?: string; readonly rules: Rule[] } {
    const mount = mounts.find((m) => m.mountPath.replace(/\/+$/, '') === this.socketDir);
    const volume = mount && view.volumes.find((v) => v.name === mount.name);
    const what = mount?.readOnly ? 'read-only' : mount?.subPath ? 'a subPath' : 'not an emptyDir';
    const rules: Rule[] = [
      [
        !mount && view.volumes.some((v) => v.name === SIDECAR_PLUGIN_VOLUME_NAME),
        'socketDir',
        this.socketDir,
        `is not where the manager mounts the existing volume '${SIDECAR_PLUGIN_VOLUME_NAME}'`,
        `set socketDir to where the manager mounts '${SIDECAR_PLUGIN_VOLUME_NAME}', or rename that volume`,
      ],
      [
        mount !== undefined && (mount.readOnly || mount.subPath || !volume || !volume.emptyDir),
        'socketDir',
        this.socketDir,
        `is where the manager already mounts volume '${mount?.name}', which is ${what}; sockets need a writable emptyDir shared with the plugin`,
        'choose another socketDir or change that mount',
      ],
    ];
    return { name: mount?.name, rules };
  }

  /** Proves at synthesis that every added field is in the output (cdk8s issue 2172). */
  private lostFields(host: SidecarHost, spec: SidecarContainerSpec, managerName: string): string[] {
    const json = host.render();
    const pod = json?.spec?.template?.spec ?? {};
    const errors: string[] = [];
    const containers: RenderedJson[] = Array.isArray(pod.containers) ? pod.containers : [];
    const rendered = containers.find((c) => c?.name === spec.name);
    const expected = containerManifest(spec);
    const missing = rendered === undefined ? ['the container'] : missingPaths(expected, rendered, '');
    if (missing.length > 0) {
      errors.push(
        `container '${spec.name}' lost ${missing.join(', ')} in synthesis; the Deployment's toJson drops fields it does not know (cdk8s issue 2172), use OperatorDeployment.fromApiObject on a plain ApiObject`,
      );
    }
    const volume = (Array.isArray(pod.volumes) ? pod.volumes : []).find((v: RenderedJson) => v?.name === this.volumeName);
    if (!volume || volume.emptyDir === undefined) {
      errors.push(`volume '${this.volumeName}' (emptyDir) is missing from the synthesized Deployment`);
    }
    const manager = containers.find((c) => c?.name === managerName);
    const mounts: RenderedJson[] = Array.isArray(manager?.volumeMounts) ? manager.volumeMounts : [];
    if (!mounts.some((m) => m?.name === this.volumeName && m?.mountPath === this.socketDir)) {
      errors.push(`manager container '${managerName}' does not mount volume '${this.volumeName}' at '${this.socketDir}' in the synthesized Deployment`);
    }
    const env: RenderedJson[] = Array.isArray(manager?.env) ? manager.env : [];
    const dir = env.find((e) => e?.name === PLUGIN_SOCKET_DIR_ENV)?.value ?? DEFAULT_PLUGIN_SOCKET_DIR;
    if (dir !== this.socketDir) {
      errors.push(`manager container '${managerName}' lists sockets in '${dir}', not in socketDir '${this.socketDir}'`);
    }
    const annotation = readSidecarPluginsAnnotation(json);
    if (!annotation?.ok || !annotation.entries.some((e) => e.container === spec.name && e.plugin === this.pluginName)) {
      errors.push(`annotation ${SIDECAR_PLUGINS_ANNOTATION} does not name container '${spec.name}' in the synthesized Deployment`);
    }
    return errors;
  }

  /**
   * Adds nothing beside the Cluster's `spec.plugins[]` entry: this plugin needs no Cluster
   * annotation, RBAC or synth-time check. Written out (rather than left out, as `IPlugin`
   * allows in TypeScript) because jsii has no optional methods: the Java binding's `IPlugin`
   * declares it, and a class without it would not compile there.
   */
  public bindToCluster(_cluster: IPluginCluster, _entry: PluginClusterEntry): void {}
}

/** The documented default resources of a sidecar plugin container. */
function defaultResources(): kplus.ContainerResources {
  return {
    cpu: { request: kplus.Cpu.millis(50) },
    memory: { request: Size.mebibytes(64), limit: Size.mebibytes(256) },
  };
}

/**
 * The JSON paths of `expected` that `actual` does not have with the same value. Arrays match
 * element by element regardless of order, because renderers may sort (env, for instance).
 */
function missingPaths(expected: unknown, actual: unknown, at: string): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [at || '/'];
    return expected.flatMap((e, i) => (actual.some((a) => missingPaths(e, a, '').length === 0) ? [] : [`${at}/${i}`]));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [at || '/'];
    return Object.entries(expected as Record<string, unknown>).flatMap(([k, v]) => missingPaths(v, (actual as Record<string, unknown>)[k], `${at}/${k}`));
  }
  return expected === actual ? [] : [at || '/'];
}
