/*
 * CNPGI030: the volume a sidecar plugin shares with the manager for its Unix socket.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { LISTED, sidecarSocket } from './socket-dir';

/** A sidecar plugin does not mount the volume the manager reads sockets from, or it is not an `emptyDir`. */
export const rule: RuleDefinition<DoctorModel> = {
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
  check(model, report) {
    for (const d of model.sidecarDeployments) {
      const { deployment, dir, managerMount, volumes } = d;
      if (!managerMount) continue;
      for (const c of d.containers) {
        const { pluginPath, own, path } = sidecarSocket(c, managerMount.name);
        if (own.length === 0) {
          report(
            'error',
            deployment,
            `sidecar container '${c.name}' does not mount volume '${managerMount.name}', which the manager reads sockets from at '${dir}'; its socket stays invisible to the operator`,
            `mount volume '${managerMount.name}' at '${pluginPath}' in '${c.name}'`,
            `${path}.volumeMounts`,
          );
        }
        const vol = volumes.get(managerMount.name);
        if (vol && vol.emptyDir === undefined) {
          report(
            'warning',
            deployment,
            `the socket volume '${managerMount.name}' is not an emptyDir; a Unix socket needs a directory private to the pod`,
            `make '${managerMount.name}' an emptyDir`,
            'spec.template.spec.volumes',
          );
        }
      }
    }
  },
};
