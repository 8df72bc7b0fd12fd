/*
 * Sidecar (Unix socket) plugins inside the operator Deployment (CNPGI030, CNPGI031).
 * The operator lists PLUGIN_SOCKET_DIR (default /plugins) once at startup, and every socket's
 * file name is a plugin name; cnpg-i-machinery creates `<--plugin-path>/<plugin name>`
 * (default /plugins).
 */
import { DoctorContext } from './doctor-context';
import { Json, Manifest, asObject, asString, dig, objectsOf } from './manifest-index';
import { isOperatorDeployment, managerContainer } from './operator-rules';
import { ContainerRef, commandLine, envValue, flagValue, runningContainers, volumesByName } from './pod-template';

/** The operator's default socket directory (the upstream docs' `/plugin` is wrong). */
export const DEFAULT_PLUGIN_SOCKET_DIR = '/plugins';

function normalizeDir(p: string): string {
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
function socketDir(ctx: DoctorContext, deployment: Manifest, manager: Json): { dir?: string; source: string } {
  let dir = DEFAULT_PLUGIN_SOCKET_DIR;
  let source = 'the default';
  const env = envValue(manager, 'PLUGIN_SOCKET_DIR');
  if (env?.fromRef) return { source: 'an env valueFrom the doctor cannot read' };
  if (env?.value) {
    dir = env.value;
    source = 'PLUGIN_SOCKET_DIR on the manager container';
  }
  const argv = commandLine(manager);
  const ns = deployment.namespace;
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
    dir = sValue.trim();
    source = `PLUGIN_SOCKET_DIR in Secret '${secretName}'`;
  }
  return { dir: normalizeDir(dir), source };
}

/** The plugin name of a sidecar, only where the manifest states it. */
function sidecarName(c: ContainerRef): string | undefined {
  const argv = commandLine(c.container);
  return flagValue(argv, 'plugin-name') || envValue(c.container, 'PLUGIN_NAME')?.value || undefined;
}

function mountsOf(c: Json): Array<{ name: string; mountPath: string; subPath?: string }> {
  const out: Array<{ name: string; mountPath: string; subPath?: string }> = [];
  for (const { item } of objectsOf(c.volumeMounts)) {
    const name = asString(item.name);
    const mountPath = asString(item.mountPath);
    if (name && mountPath) out.push({ name, mountPath: normalizeDir(mountPath), subPath: asString(item.subPath) || undefined });
  }
  return out;
}

/**
 * Finds sidecar plugin containers in operator Deployments and checks they share the socket
 * directory with the manager.
 */
export function checkSidecars(ctx: DoctorContext): void {
  for (const deployment of ctx.index.ofKind('Deployment')) {
    if (!isOperatorDeployment(deployment.raw)) continue;
    const specPath = 'spec.template.spec';
    const spec = asObject(dig(deployment.raw, 'spec', 'template', 'spec'));
    const manager = managerContainer(spec);
    if (!spec || !manager) continue;
    const managerMounts = mountsOf(manager);
    const volumes = volumesByName(spec);
    const sharedEmptyDirs = new Set(managerMounts.filter((m) => volumes.get(m.name)?.emptyDir !== undefined).map((m) => m.name));
    const candidates = runningContainers(spec).filter((c) => {
      if (c.container === manager) return false;
      const argv = commandLine(c.container);
      if (flagValue(argv, 'plugin-path') !== undefined || flagValue(argv, 'plugin-name') !== undefined) return true;
      if (mountsOf(c.container).some((m) => sharedEmptyDirs.has(m.name))) return true;
      return /plugin|cnpg-i/i.test(`${c.name} ${asString(c.container.image) ?? ''}`);
    });
    if (candidates.length === 0) continue;

    const { dir, source } = socketDir(ctx, deployment, manager);
    const managerPath = `${specPath}.containers[${objectsOf(spec.containers).find((x) => x.item === manager)!.i}]`;
    const managerMount = dir === undefined ? undefined : managerMounts.find((m) => m.mountPath === dir && !m.subPath);
    if (dir !== undefined && !managerMount) {
      const elsewhere = managerMounts.filter((m) => candidates.some((c) => mountsOf(c.container).some((cm) => cm.name === m.name)));
      ctx.report('CNPGI031', 'error', deployment, `the manager container mounts nothing at its socket directory '${dir}' (${source})${elsewhere.length ? `; the volume it shares with the plugin is at '${elsewhere[0].mountPath}'` : ''}, so the operator finds no plugin socket`,
        elsewhere.length ? `set PLUGIN_SOCKET_DIR=${elsewhere[0].mountPath} on the manager container, or mount the shared volume at '${dir}'` : `mount an emptyDir at '${dir}' in the manager and plugin containers`,
        `${managerPath}.volumeMounts`);
    }
    for (const c of candidates) {
      const argv = commandLine(c.container);
      const pluginPath = normalizeDir(flagValue(argv, 'plugin-path') || DEFAULT_PLUGIN_SOCKET_DIR);
      const name = sidecarName(c);
      const path = `${specPath}.${c.path}`;
      const where = `sidecar container '${c.name}'`;
      if (managerMount) {
        const vol = volumes.get(managerMount.name);
        const own = mountsOf(c.container).filter((m) => m.name === managerMount.name && !m.subPath);
        if (own.length === 0) {
          ctx.report('CNPGI030', 'error', deployment, `${where} does not mount volume '${managerMount.name}', which the manager reads sockets from at '${dir}'; its socket stays invisible to the operator`,
            `mount volume '${managerMount.name}' at '${pluginPath}' in '${c.name}'`, `${path}.volumeMounts`);
        } else if (!own.some((m) => m.mountPath === pluginPath)) {
          const explicit = flagValue(argv, 'plugin-path') !== undefined;
          // Without --plugin-path the directory is cnpg-i-machinery's default only for plugins
          // built on it; a plugin with a flag of its own that names the shared mount is fine.
          const namedElsewhere = !explicit && own.some((m) => argv.some((a) => normalizeDir(a.includes('=') ? a.slice(a.indexOf('=') + 1) : a) === normalizeDir(m.mountPath)));
          if (!namedElsewhere) {
            ctx.report('CNPGI031', explicit ? 'error' : 'warning', deployment,
              `${where} creates its socket in '${pluginPath}' (${explicit ? '--plugin-path' : 'the cnpg-i-machinery default, assumed since no argument names the shared volume'}), but mounts the shared volume '${managerMount.name}' at '${own[0].mountPath}'`,
              `mount '${managerMount.name}' at '${pluginPath}', or pass --plugin-path=${own[0].mountPath}`, `${path}.volumeMounts`);
          }
        }
        if (vol && vol.emptyDir === undefined) {
          ctx.report('CNPGI030', 'warning', deployment, `the socket volume '${managerMount.name}' is not an emptyDir; a Unix socket needs a directory private to the pod`,
            `make '${managerMount.name}' an emptyDir`, `${specPath}.volumes`);
        }
      }
      const socketPath = name && dir ? `${dir === '/' ? '' : dir}/${name}` : undefined;
      ctx.sidecars.push({ deployment, containerName: c.name, containerPath: path, pluginName: name, socketPath });
      if (name) ctx.discover({ name, source: 'sidecar', object: deployment.ref, address: socketPath ? `unix://${socketPath}` : undefined });
    }
  }
}
