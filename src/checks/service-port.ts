import { Json, dig, stringMap } from '../manifests/json';
import { CheckIssue } from './issue';

/** A container port of the pods a Service selects. @internal */
export interface ContainerPort {
  readonly containerPort: number;
  readonly name?: string;
}

/**
 * Class 9: where the operator's dial of `<svc>.<ns>.svc:<cnpg.io/pluginPort>` lands
 * (cloudnative-pg v1.30.0 internal/controller/plugin_controller.go reconcile). A normal Service
 * maps the annotation port through `spec.ports[].targetPort`; a headless one (`clusterIP: None`)
 * resolves to the pod IPs, so the annotation port is used on the pods as it is.
 * `containerPorts` are the ports of the selected pods, or undefined when no pods are in the input.
 * @internal
 */
export function checkPluginServicePort(service: Json, containerPorts: readonly ContainerPort[] | undefined): CheckIssue[] {
  const annotation = stringMap(dig(service, 'metadata', 'annotations'))['cnpg.io/pluginPort'];
  if (annotation === undefined || !/^[0-9]+$/.test(annotation)) return [];
  const port = Number(annotation);
  const headless = dig(service, 'spec', 'clusterIP') === 'None';
  const listed = containerPorts?.map((p) => p.containerPort).join(', ') || 'none';
  if (headless) {
    // Declared container ports are informational: pods that declare none may listen anywhere.
    if (!containerPorts || containerPorts.length === 0 || containerPorts.some((p) => p.containerPort === port)) return [];
    return [
      {
        severity: 'error',
        path: 'metadata.annotations.cnpg.io/pluginPort',
        message: `is ${port} on a headless Service (clusterIP: None): the operator's dial reaches the pod IPs directly on ${port}, targetPort is not applied, and the pods listen on ${listed}`,
        fix: `set cnpg.io/pluginPort to the container port${containerPorts.length === 1 ? ` (${containerPorts[0].containerPort})` : ''}, or drop clusterIP: None`,
      },
    ];
  }
  // Non-headless Services: CNPGI014/CNPGI015 judge the Service port and its targetPort.
  return [];
}
