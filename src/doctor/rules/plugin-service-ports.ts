/*
 * CNPGI014 to CNPGI016: the path from the port the operator dials to the port the plugin
 * container listens on.
 */
import { stringMap, dig, objectsOf, asObject } from '../../manifests/json';
import { Manifest, PodTemplate } from '../../manifests/manifest-index';
import { commandLine, declaredPorts, flagValue, portOfAddress, runningContainers } from '../../manifests/pod-template';
import type { PluginServiceInfo } from '../model';
import { PLUGIN_KEYS } from '../plugin-service-rules';
import { Report, defineFamily } from './rule';

type PortRuleId = 'CNPGI014' | 'CNPGI015' | 'CNPGI016';

/** The port rules of plugin Services. */
export const pluginServicePorts = defineFamily({
  rules: [
    {
      id: 'CNPGI014',
      name: 'plugin-port-service',
      severities: [{ severity: 'error', when: 'always' }],
      what: '`cnpg.io/pluginPort` matches no `spec.ports[].port` of the Service.',
      why: 'The operator dials `<service>.<namespace>.svc:<pluginPort>` built from the annotation and never reads `spec.ports` (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile); nothing answers on a port the Service does not expose.',
      fix: 'Make the annotation equal to a Service port.',
      kinds: ['Service'],
    },
    {
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
    },
    {
      id: 'CNPGI016',
      name: 'plugin-service-selector',
      severities: [{ severity: 'warning', when: 'always: the pods may exist outside the input' }],
      what: 'A plugin Service has no selector, or its selector matches no pod template in the input.',
      why: 'Without ready endpoints the operator cannot connect; since v1.30.0 it follows the EndpointSlices of plugin Services (cloudnative-pg v1.30.0 internal/controller/plugin_predicates.go operatorNamespaceServiceEndpointSlicePredicate), so the pods behind the selector are what it talks to.',
      fix: "Select the plugin pods' labels, or include the plugin Deployment in the checked manifests.",
      kinds: ['Service', 'Deployment', 'StatefulSet', 'DaemonSet', 'Pod'],
    },
  ],
  check(model, report) {
    for (const info of model.pluginServices) checkPorts(report, info);
  },
});

function checkPorts(report: Report<PortRuleId>, info: PluginServiceInfo): void {
  const { service: svc, port, templates } = info;
  const spec = asObject(dig(svc.raw, 'spec')) ?? {};
  if (spec.type === 'ExternalName') return;
  const selector = stringMap(spec.selector);
  if (Object.keys(selector).length === 0) {
    report(
      'CNPGI016',
      'warning',
      svc,
      'plugin Service has no selector: Kubernetes manages no endpoints for it, so something else must',
      "select the plugin pods' labels in spec.selector",
      'spec.selector',
    );
  } else if (templates.length === 0) {
    report(
      'CNPGI016',
      'warning',
      svc,
      `selector ${JSON.stringify(selector)} matches no pod template in the input; the plugin pods must come from elsewhere`,
      "check the selector against the plugin Deployment's pod labels, or include the Deployment in the checked manifests",
      'spec.selector',
    );
  }
  if (port === undefined) return;
  // A headless Service resolves to the pod IPs: the dial uses the annotation's port on the pods
  // and no Service port or targetPort applies; CNPGI111 checks that port against the pods.
  if (spec.clusterIP === 'None') return;

  const ports = objectsOf(spec.ports);
  const match = ports.find(({ item }) => item.port === port);
  if (!match) {
    const list =
      ports
        .map(({ item }) => item.port)
        .filter((p) => p !== undefined)
        .join(', ') || 'none';
    report(
      'CNPGI014',
      'error',
      svc,
      `\`${PLUGIN_KEYS.port}\` is ${port} but the Service exposes port(s) ${list}; the operator dials the annotation's port and never reads spec.ports`,
      ports.length === 1 && typeof ports[0].item.port === 'number'
        ? `set \`${PLUGIN_KEYS.port}: "${ports[0].item.port}"\`, or expose port ${port}`
        : `expose port ${port} in spec.ports`,
      `metadata.annotations.${PLUGIN_KEYS.port}`,
    );
    return;
  }
  const targetPort = match.item.targetPort ?? port;
  const portPath = `spec.ports[${match.i}].targetPort`;
  for (const t of templates) checkTargetPort(report, svc, t, targetPort, portPath);
}

function checkTargetPort(report: Report<PortRuleId>, svc: Manifest, t: PodTemplate, targetPort: unknown, portPath: string): void {
  const containers = runningContainers(t.spec);
  let resolved: number | undefined;
  if (typeof targetPort === 'string' && !/^\d+$/.test(targetPort)) {
    const owner = containers.find((c) => declaredPorts(c.container).some((p) => p.name === targetPort));
    if (!owner) {
      report(
        'CNPGI015',
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
      'CNPGI015',
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
      'CNPGI015',
      'warning',
      svc,
      `no container of ${t.owner.ref} declares port ${resolved} and none shows its listen address (--server-address); make sure the plugin listens there`,
      `declare containerPort ${resolved} on the plugin container`,
      portPath,
    );
  }
}
