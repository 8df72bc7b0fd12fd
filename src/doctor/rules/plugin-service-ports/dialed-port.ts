/*
 * What the plugin-service-ports rules (CNPGI014 to CNPGI016) share: the Service port that the
 * operator's dial of the annotation's port reaches.
 */
import { dig, objectsOf, asObject, Json } from '../../../manifests/json';
import type { PluginServiceInfo } from '../../model/plugin-services';

/** The Service's spec, or undefined for an ExternalName Service (no selector, no ports to check). */
export function selectingSpec(info: PluginServiceInfo): Json | undefined {
  const spec = asObject(dig(info.service.raw, 'spec')) ?? {};
  return spec.type === 'ExternalName' ? undefined : spec;
}

/** The annotation's port, the Service's ports, and the one that matches it, if any. */
export interface DialedPort {
  readonly port: number;
  readonly ports: ReadonlyArray<{ readonly item: Json; readonly i: number }>;
  readonly match?: { readonly item: Json; readonly i: number };
}

/**
 * The port the operator dials and the Service port it reaches; undefined when there is no usable
 * annotation port, or the Service is an ExternalName or headless one. A headless Service
 * resolves to the pod IPs: the dial uses the annotation's port on the pods and no Service port
 * or targetPort applies (CNPGI111 checks that port against the pods).
 */
export function dialedPort(info: PluginServiceInfo): DialedPort | undefined {
  const spec = selectingSpec(info);
  if (!spec || info.port === undefined || spec.clusterIP === 'None') return undefined;
  const ports = objectsOf(spec.ports);
  const match = ports.find(({ item }) => item.port === info.port);
  return { port: info.port, ports, ...(match ? { match } : {}) };
}
