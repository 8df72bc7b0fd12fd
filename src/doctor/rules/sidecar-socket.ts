/*
 * CNPGI030, CNPGI031: the Unix socket directory a sidecar plugin shares with the manager.
 */
import { commandLine, flagValue } from '../../manifests/pod-template';
import { SidecarDeployment, mountsOf, normalizeDir, DEFAULT_PLUGIN_SOCKET_DIR } from '../sidecar-rules';
import { Report, defineFamily } from './rule';

const LISTED =
  'the operator lists `PLUGIN_SOCKET_DIR` once at startup and takes every entry as a plugin socket named after the plugin (cloudnative-pg v1.30.0 internal/cmd/manager/controller/controller.go RunController, internal/cnpi/plugin/repository/setup.go data.RegisterUnixSocketPluginsInPath)';

/** The socket rules of sidecar plugins. */
export const sidecarSocket = defineFamily({
  rules: [
    {
      id: 'CNPGI030',
      name: 'sidecar-socket-volume',
      severities: [
        { severity: 'error', when: 'the sidecar does not mount the volume the manager reads sockets from' },
        { severity: 'warning', when: 'that volume is not an `emptyDir`' },
      ],
      what: 'A sidecar plugin container in the operator Deployment does not mount the volume the manager mounts at its socket directory (or the volume is not an `emptyDir`: warning).',
      why: `The socket the plugin creates must be in the manager's directory: ${LISTED}.`,
      fix: 'Mount one `emptyDir` volume at the socket directory in both the manager and the plugin container.',
      kinds: ['Deployment'],
    },
    {
      id: 'CNPGI031',
      name: 'sidecar-socket-dir',
      severities: [
        { severity: 'error', when: 'the manager mounts nothing at its socket directory, or `--plugin-path` names a directory outside the shared volume' },
        { severity: 'warning', when: 'only the cnpg-i-machinery default `/plugins` is assumed and no argument names the shared volume' },
      ],
      what: 'The manager mounts nothing at `PLUGIN_SOCKET_DIR` (default `/plugins`), or a sidecar creates its socket (`--plugin-path`, default `/plugins`) outside the shared volume (warning when only the cnpg-i-machinery default is assumed and no argument names the shared volume).',
      why: `${LISTED[0].toUpperCase()}${LISTED.slice(1)}; the directory defaults to \`/plugins\` (cloudnative-pg v1.30.0 internal/configuration/configuration.go newDefaultConfig; the docs' \`/plugin\` is wrong), and cnpg-i-machinery creates \`<--plugin-path>/<name>\` (cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.createUnixDomainSocketListener).`,
      fix: 'Use the same directory on both sides, or set `PLUGIN_SOCKET_DIR` on the manager container to where the volume is mounted.',
      kinds: ['Deployment', 'ConfigMap', 'Secret'],
    },
  ],
  check(model, report) {
    for (const d of model.sidecarDeployments) checkDeployment(report, d);
  },
});

function checkDeployment(report: Report<'CNPGI030' | 'CNPGI031'>, d: SidecarDeployment): void {
  const { deployment, dir, dirSource: source, managerMount, managerMounts, volumes } = d;
  if (dir !== undefined && !managerMount) {
    const elsewhere = managerMounts.filter((m) => d.containers.some((c) => mountsOf(c.container).some((cm) => cm.name === m.name)));
    report(
      'CNPGI031',
      'error',
      deployment,
      `the manager container mounts nothing at its socket directory '${dir}' (${source})${elsewhere.length ? `; the volume it shares with the plugin is at '${elsewhere[0].mountPath}'` : ''}, so the operator finds no plugin socket`,
      elsewhere.length
        ? `set PLUGIN_SOCKET_DIR=${elsewhere[0].mountPath} on the manager container, or mount the shared volume at '${dir}'`
        : `mount an emptyDir at '${dir}' in the manager and plugin containers`,
      `${d.managerPath}.volumeMounts`,
    );
  }
  if (!managerMount) return;
  for (const c of d.containers) {
    const argv = commandLine(c.container);
    const pluginPath = normalizeDir(flagValue(argv, 'plugin-path') || DEFAULT_PLUGIN_SOCKET_DIR);
    const path = `spec.template.spec.${c.path}`;
    const where = `sidecar container '${c.name}'`;
    const vol = volumes.get(managerMount.name);
    const own = mountsOf(c.container).filter((m) => m.name === managerMount.name && !m.subPath);
    if (own.length === 0) {
      report(
        'CNPGI030',
        'error',
        deployment,
        `${where} does not mount volume '${managerMount.name}', which the manager reads sockets from at '${dir}'; its socket stays invisible to the operator`,
        `mount volume '${managerMount.name}' at '${pluginPath}' in '${c.name}'`,
        `${path}.volumeMounts`,
      );
    } else if (!own.some((m) => m.mountPath === pluginPath)) {
      const explicit = flagValue(argv, 'plugin-path') !== undefined;
      // Without --plugin-path the directory is cnpg-i-machinery's default only for plugins
      // built on it; a plugin with a flag of its own that names the shared mount is fine.
      const namedElsewhere =
        !explicit && own.some((m) => argv.some((a) => normalizeDir(a.includes('=') ? a.slice(a.indexOf('=') + 1) : a) === normalizeDir(m.mountPath)));
      if (!namedElsewhere) {
        report(
          'CNPGI031',
          explicit ? 'error' : 'warning',
          deployment,
          `${where} creates its socket in '${pluginPath}' (${explicit ? '--plugin-path' : 'the cnpg-i-machinery default, assumed since no argument names the shared volume'}), but mounts the shared volume '${managerMount.name}' at '${own[0].mountPath}'`,
          `mount '${managerMount.name}' at '${pluginPath}', or pass --plugin-path=${own[0].mountPath}`,
          `${path}.volumeMounts`,
        );
      }
    }
    if (vol && vol.emptyDir === undefined) {
      report(
        'CNPGI030',
        'warning',
        deployment,
        `the socket volume '${managerMount.name}' is not an emptyDir; a Unix socket needs a directory private to the pod`,
        `make '${managerMount.name}' an emptyDir`,
        'spec.template.spec.volumes',
      );
    }
  }
}
