/*
 * CNPGI031: the socket directory the manager reads and the one each sidecar creates its socket in.
 */
import { flagValue } from '../../../manifests/pod-template';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { mountsOf, normalizeDir } from '../../model/sidecars';
import { LISTED, sidecarSocket } from './socket-dir';

/** The manager mounts nothing at its socket directory, or a sidecar creates its socket outside the shared volume. */
export const rule: RuleDefinition<DoctorModel> = {
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
  check(model, report) {
    for (const d of model.sidecarDeployments) {
      const { deployment, dir, dirSource: source, managerMount, managerMounts } = d;
      if (dir !== undefined && !managerMount && d.containers.length > 0) {
        const elsewhere = managerMounts.filter((m) => d.containers.some((c) => mountsOf(c.container).some((cm) => cm.name === m.name)));
        report(
          'error',
          deployment,
          `the manager container mounts nothing at its socket directory '${dir}' (${source})${elsewhere.length ? `; the volume it shares with the plugin is at '${elsewhere[0].mountPath}'` : ''}, so the operator finds no plugin socket`,
          elsewhere.length
            ? `set PLUGIN_SOCKET_DIR=${elsewhere[0].mountPath} on the manager container, or mount the shared volume at '${dir}'`
            : `mount an emptyDir at '${dir}' in the manager and plugin containers`,
          `${d.managerPath}.volumeMounts`,
        );
      }
      if (!managerMount) continue;
      for (const c of d.containers) {
        const { argv, pluginPath, own, path } = sidecarSocket(c, managerMount.name);
        if (own.length === 0 || own.some((m) => m.mountPath === pluginPath)) continue;
        const explicit = flagValue(argv, 'plugin-path') !== undefined;
        // Without --plugin-path the directory is cnpg-i-machinery's default only for plugins
        // built on it; a plugin with a flag of its own that names the shared mount is fine.
        const namedElsewhere =
          !explicit && own.some((m) => argv.some((a) => normalizeDir(a.includes('=') ? a.slice(a.indexOf('=') + 1) : a) === normalizeDir(m.mountPath)));
        if (namedElsewhere) continue;
        report(
          explicit ? 'error' : 'warning',
          deployment,
          `sidecar container '${c.name}' creates its socket in '${pluginPath}' (${explicit ? '--plugin-path' : 'the cnpg-i-machinery default, assumed since no argument names the shared volume'}), but mounts the shared volume '${managerMount.name}' at '${own[0].mountPath}'`,
          `mount '${managerMount.name}' at '${pluginPath}', or pass --plugin-path=${own[0].mountPath}`,
          `${path}.volumeMounts`,
        );
      }
    }
  },
};
