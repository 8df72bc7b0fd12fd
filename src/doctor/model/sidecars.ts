/*
 * Sidecar (Unix socket) plugins inside the operator Deployment: the model side (the rules are in
 * rules/sidecar-socket/).
 * The operator lists PLUGIN_SOCKET_DIR (default /plugins) once at startup, and every socket's
 * file name is a plugin name; cnpg-i-machinery creates `<--plugin-path>/<plugin name>`
 * (default /plugins).
 */
import { DEFAULT_SOCKET_DIR } from '../../checks/operator-config';
import { dig, objectsOf, asString, asObject, Json } from '../../manifests/json';
import { Manifest } from '../../manifests/manifest-index';
import type { ManifestIndex } from '../../manifests/manifest-index';
import { isOperatorDeployment, managerContainer } from '../../manifests/operator';
import { ContainerRef, commandLine, envValue, flagValue, runningContainers, volumesByName } from '../../manifests/pod-template';
import { SidecarPluginEntry, SidecarPluginsReading, readSidecarPluginsAnnotation } from '../../manifests/sidecar-plugins';

export function normalizeDir(p: string): string {
  const s = p.replace(/\/+$/, '');
  return s === '' ? '/' : s;
}

function decodeBase64(value: string): string | undefined {
  try {
    return Buffer.from(value, 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}

/**
 * The socket directory as the operator computes it: the manager's env, then the ConfigMap of
 * `--config-map-name`, then the Secret of `--secret-name`, each overriding the previous.
 * Undefined when it comes from somewhere the manifests do not show.
 */
function socketDir(ctx: SidecarContext, deployment: Manifest, manager: Json): { dir?: string; source: string } {
  let dir = DEFAULT_SOCKET_DIR;
  let source = 'the default';
  const ns = deployment.namespace;
  const env = envValue(manager, 'PLUGIN_SOCKET_DIR');
  if (env?.fromRef) return { source: 'an env valueFrom the doctor cannot read' };
  if (env?.value) {
    dir = env.value;
    source = 'PLUGIN_SOCKET_DIR on the manager container';
  } else if (env === undefined) {
    // envFrom gives the container the same variables (an explicit env entry wins; among the
    // envFrom sources the last one wins), and the operator reads them like any other.
    for (const { item } of objectsOf(manager.envFrom)) {
      const prefix = asString(item.prefix) ?? '';
      if (!'PLUGIN_SOCKET_DIR'.startsWith(prefix)) continue;
      const key = 'PLUGIN_SOCKET_DIR'.slice(prefix.length);
      const cmRef = asString(dig(item, 'configMapRef', 'name'));
      const secretRef = asString(dig(item, 'secretRef', 'name'));
      const holder =
        cmRef !== undefined
          ? ctx.index.get('ConfigMap', ns, cmRef, '')[0]
          : secretRef !== undefined
            ? ctx.index.get('Secret', ns, secretRef, '')[0]
            : undefined;
      if (!holder) return { source: `an envFrom ${cmRef !== undefined ? 'ConfigMap' : 'Secret'} the input does not contain` };
      const plain = asString(dig(holder.raw, cmRef !== undefined ? 'data' : 'stringData', key));
      const encoded = cmRef === undefined ? asString(dig(holder.raw, 'data', key)) : undefined;
      const value = plain ?? (encoded !== undefined ? decodeBase64(encoded) : undefined);
      // An empty environment value leaves the default in place (cloudnative-pg v1.30.0 pkg/configparser/configparser.go ReadConfigMap).
      if (value) {
        dir = value;
        source = `PLUGIN_SOCKET_DIR from envFrom ${cmRef !== undefined ? 'ConfigMap' : 'Secret'} '${cmRef ?? secretRef}'`;
      }
    }
  }
  const argv = commandLine(manager);
  const cmName = flagValue(argv, 'config-map-name');
  const cm = cmName ? ctx.index.get('ConfigMap', ns, cmName, '')[0] : undefined;
  const cmValue = asString(dig(cm?.raw, 'data', 'PLUGIN_SOCKET_DIR'));
  if (cmValue) {
    dir = cmValue;
    source = `PLUGIN_SOCKET_DIR in ConfigMap '${cmName}'`;
  }
  const secretName = flagValue(argv, 'secret-name');
  const secret = secretName ? ctx.index.get('Secret', ns, secretName, '')[0] : undefined;
  const sData = asString(dig(secret?.raw, 'data', 'PLUGIN_SOCKET_DIR'));
  const sString = asString(dig(secret?.raw, 'stringData', 'PLUGIN_SOCKET_DIR'));
  const sValue = sString ?? (sData !== undefined ? decodeBase64(sData) : undefined);
  if (sValue) {
    // Used byte for byte: a trailing newline is part of the directory name (CNPGI104 says so).
    dir = sValue;
    source = `PLUGIN_SOCKET_DIR in Secret '${secretName}'`;
  }
  return { dir: normalizeDir(dir), source };
}

/** The plugin name of a sidecar, only where the manifest states it. */
function sidecarName(c: ContainerRef): string | undefined {
  const argv = commandLine(c.container);
  return flagValue(argv, 'plugin-name') || envValue(c.container, 'PLUGIN_NAME')?.value || undefined;
}

export function mountsOf(c: Json): Array<{ name: string; mountPath: string; subPath?: string }> {
  const out: Array<{ name: string; mountPath: string; subPath?: string }> = [];
  for (const { item } of objectsOf(c.volumeMounts)) {
    const name = asString(item.name);
    const mountPath = asString(item.mountPath);
    if (name && mountPath) out.push({ name, mountPath: normalizeDir(mountPath), subPath: asString(item.subPath) || undefined });
  }
  return out;
}

/** A volume mount of a container. */
export interface Mount {
  readonly name: string;
  readonly mountPath: string;
  readonly subPath?: string;
}

/** An operator Deployment with sidecar plugin containers, as the operator would see it. */
export interface SidecarDeployment {
  readonly deployment: Manifest;
  readonly spec: Json;
  /** Path of the manager container, e.g. `spec.template.spec.containers[0]`. */
  readonly managerPath: string;
  readonly managerMounts: readonly Mount[];
  readonly volumes: ReadonlyMap<string, Json>;
  /** The socket directory, when the manifests show it. */
  readonly dir?: string;
  /** Where `dir` comes from, for messages. */
  readonly dirSource: string;
  /** The manager's mount at `dir`, if any. */
  readonly managerMount?: Mount;
  /** The sidecar plugin containers and their refs. */
  readonly containers: readonly ContainerRef[];
  readonly sidecars: readonly SidecarInfo[];
  /** The Deployment's `cnpg-i.dev/sidecar-plugins` annotation, when it has one. */
  readonly annotation?: SidecarPluginsReading;
}

/**
 * Finds sidecar plugin containers in operator Deployments, with the socket directory the
 * manager reads and the name each sidecar serves: from its flags or env, else from the
 * `sidecarPlugins` option, else from the Deployment's `cnpg-i.dev/sidecar-plugins` annotation
 * (which `SidecarPlugin` writes). A container the annotation names is a sidecar plugin.
 */
export function readSidecars(ctx: SidecarContext): SidecarDeployment[] {
  const out: SidecarDeployment[] = [];
  for (const deployment of ctx.index.ofKind('Deployment')) {
    if (!isOperatorDeployment(deployment.raw)) continue;
    const specPath = 'spec.template.spec';
    const spec = asObject(dig(deployment.raw, 'spec', 'template', 'spec'));
    const manager = managerContainer(spec);
    if (!spec || !manager) continue;
    const managerMounts = mountsOf(manager);
    const volumes = volumesByName(spec);
    const sharedEmptyDirs = new Set(managerMounts.filter((m) => volumes.get(m.name)?.emptyDir !== undefined).map((m) => m.name));
    const annotation = readSidecarPluginsAnnotation(deployment.raw);
    const annotated = new Map<string, SidecarPluginEntry>(annotation?.ok ? annotation.entries.map((e) => [e.container, e]) : []);
    const containers = runningContainers(spec).filter((c) => {
      if (c.container === manager) return false;
      if (annotated.has(c.name)) return true;
      const argv = commandLine(c.container);
      if (flagValue(argv, 'plugin-path') !== undefined || flagValue(argv, 'plugin-name') !== undefined) return true;
      if (mountsOf(c.container).some((m) => sharedEmptyDirs.has(m.name))) return true;
      if (ctx.sidecarPlugins.has(c.name)) return true;
      return /plugin|cnpg-i/i.test(`${c.name} ${asString(c.container.image) ?? ''}`);
    });
    if (containers.length === 0 && annotation === undefined) continue;
    const { dir, source } = socketDir(ctx, deployment, manager);
    const managerPath = `${specPath}.containers[${objectsOf(spec.containers).find((x) => x.item === manager)!.i}]`;
    const managerMount = dir === undefined ? undefined : managerMounts.find((m) => m.mountPath === dir && !m.subPath);
    const sidecars: SidecarInfo[] = containers.map((c) => {
      const fromManifest = sidecarName(c);
      const fromOption = ctx.sidecarPlugins.get(c.name);
      const fromAnnotation = annotated.get(c.name)?.plugin;
      const name = fromManifest ?? fromOption ?? fromAnnotation;
      const socketPath = name && dir ? `${dir === '/' ? '' : dir}/${name}` : undefined;
      const nameSource = fromManifest ? ('manifest' as const) : fromOption ? ('option' as const) : ('annotation' as const);
      return {
        deployment,
        containerName: c.name,
        containerPath: `${specPath}.${c.path}`,
        pluginName: name,
        ...(name ? { nameSource } : {}),
        socketPath,
      };
    });
    out.push({ deployment, spec, managerPath, managerMounts, volumes, dir, dirSource: source, managerMount, containers, sidecars, annotation });
  }
  return out;
}

/** A sidecar plugin container in the operator Deployment. */
export interface SidecarInfo {
  readonly deployment: Manifest;
  readonly containerName: string;
  readonly containerPath: string;
  /** The plugin name, when the manifests or the options show it. */
  readonly pluginName?: string;
  /**
   * Where the name comes from: the container's own `--plugin-name` or `PLUGIN_NAME`, the
   * `sidecarPlugins` option, or the Deployment's `cnpg-i.dev/sidecar-plugins` annotation.
   */
  readonly nameSource?: 'manifest' | 'option' | 'annotation';
  readonly socketPath?: string;
}

/** What the sidecar readers read of the doctor's model. */
export interface SidecarContext {
  readonly index: ManifestIndex;
  /** Sidecar container name to the plugin name it serves (the `sidecarPlugins` option). */
  readonly sidecarPlugins: ReadonlyMap<string, string>;
}
