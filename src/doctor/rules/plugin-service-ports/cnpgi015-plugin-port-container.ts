/*
 * CNPGI015: the Service port's targetPort must reach the port the plugin container listens on.
 */
import type { Manifest, PodTemplate } from '../../../manifests/manifest-index';
import { commandLine, declaredPorts, flagValue, portOfAddress, runningContainers } from '../../../manifests/pod-template';
import type { Report, RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { dialedPort } from './dialed-port';

/** The Service port's `targetPort` reaches no port of the plugin container, or not its `--server-address`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI015',
  name: 'plugin-port-container',
  severities: [
    { severity: 'error', when: "a named `targetPort` that no container declares, or a port other than the container's `--server-address`" },
    { severity: 'warning', when: 'no container declares the port and none shows its `--server-address`' },
  ],
  what: "The Service port's `targetPort` (by number or by name) reaches no port of the plugin container behind the selector, or differs from its `--server-address`.",
  why: 'A cnpg-i-machinery plugin listens on `--server-address` (cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go CreateMainCmd and Server.createTCPListener): traffic sent to another port is refused, and a named port that no container declares gets no endpoints.',
  fix: 'Make `targetPort` equal to the port the plugin listens on (`--server-address`) and declare it as a container port.',
  kinds: ['Service', 'Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
  check(model, report) {
    for (const info of model.pluginServices) {
      const match = dialedPort(info)?.match;
      if (!match) continue;
      const targetPort = match.item.targetPort ?? info.port;
      const portPath = `spec.ports[${match.i}].targetPort`;
      for (const t of info.templates) checkTargetPort(report, info.service, t, targetPort, portPath);
    }
  },
};

function checkTargetPort(report: Report, svc: Manifest, t: PodTemplate, targetPort: unknown, portPath: string): void {
  const containers = runningContainers(t.spec);
  let resolved: number | undefined;
  if (typeof targetPort === 'string' && !/^\d+$/.test(targetPort)) {
    const owner = containers.find((c) => declaredPorts(c.container).some((p) => p.name === targetPort));
    if (!owner) {
      report(
        'error',
        svc,
        `targetPort '${targetPort}' names no container port of ${t.owner.ref}; Kubernetes creates no endpoint for such pods, so the operator cannot connect`,
        `name the plugin container's port '${targetPort}', or use the port number`,
        portPath,
      );
      return;
    }
    resolved = declaredPorts(owner.container).find((p) => p.name === targetPort)!.containerPort;
  } else {
    resolved = typeof targetPort === 'number' ? targetPort : Number(targetPort);
  }
  const listening = containers
    .map((c) => ({ c, address: flagValue(commandLine(c.container), 'server-address') }))
    .filter((x) => x.address !== undefined)
    .map((x) => ({ ...x, port: portOfAddress(x.address!) }));
  if (listening.some((l) => l.port === resolved)) return;
  const other = listening.find((l) => l.port !== undefined);
  if (other) {
    report(
      'error',
      svc,
      `the Service sends traffic to port ${resolved} of ${t.owner.ref}, but container '${other.c.name}' listens on '${other.address}' (--server-address)`,
      `make targetPort ${other.port}, or --server-address=:${resolved}`,
      portPath,
    );
    return;
  }
  if (!containers.some((c) => declaredPorts(c.container).some((p) => p.containerPort === resolved))) {
    report(
      'warning',
      svc,
      `no container of ${t.owner.ref} declares port ${resolved} and none shows its listen address (--server-address); make sure the plugin listens there`,
      `declare containerPort ${resolved} on the plugin container`,
      portPath,
    );
  }
}
