/*
 * What the sidecar-socket rules (CNPGI030, CNPGI031) share: the upstream code they cite, and
 * where each sidecar creates its socket.
 */
import { DEFAULT_SOCKET_DIR } from '../../../checks/operator-config';
import { ContainerRef, commandLine, flagValue } from '../../../manifests/pod-template';
import { Mount, mountsOf, normalizeDir } from '../../model/sidecars';

/** How the operator finds sidecar sockets. */
export const LISTED =
  'the operator lists `PLUGIN_SOCKET_DIR` once at startup and takes every entry as a plugin socket named after the plugin (cloudnative-pg v1.30.0 internal/cmd/manager/controller/controller.go RunController, internal/cnpi/plugin/repository/setup.go data.RegisterUnixSocketPluginsInPath)';

/** A sidecar container: its command line, the directory it creates its socket in, its mounts of `volume`. */
export interface SidecarSocket {
  readonly argv: readonly string[];
  /** `--plugin-path`, else the cnpg-i-machinery default `/plugins`. */
  readonly pluginPath: string;
  /** The container's own mounts of the volume (without subPath). */
  readonly own: readonly Mount[];
  /** Field path of the container, e.g. `spec.template.spec.containers[1]`. */
  readonly path: string;
}

/** Where `c` creates its socket, and how it mounts `volume`. */
export function sidecarSocket(c: ContainerRef, volume: string): SidecarSocket {
  const argv = commandLine(c.container);
  return {
    argv,
    pluginPath: normalizeDir(flagValue(argv, 'plugin-path') || DEFAULT_SOCKET_DIR),
    own: mountsOf(c.container).filter((m) => m.name === volume && !m.subPath),
    path: `spec.template.spec.${c.path}`,
  };
}
