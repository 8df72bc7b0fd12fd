/*
 * What the plugin-tls rules (CNPGI019, CNPGI020, CNPGI022 to CNPGI027) share: the mTLS wiring
 * between the operator and a plugin Service. Operator side: `tls.Config{ServerName, RootCAs:
 * server Secret tls.crt, Certificates: client Secret tls.crt+tls.key}`; plugin side
 * (cnpg-i-machinery): `--server-cert`, `--server-key`, `--client-cert` (ClientCAs),
 * RequireAndVerifyClientCert.
 */
import { dig, asArray } from '../../../manifests/json';
import type { Manifest, PodTemplate } from '../../../manifests/manifest-index';
import { ContainerRef, allContainers, commandLine, flagValue } from '../../../manifests/pod-template';
import { DoctorModel, modelPart } from '../../model/doctor-model';
import type { PluginServiceInfo } from '../../model/plugin-services';

/** The operator's plugin reconciler, which reads the Secrets and dials the plugin. */
export const RECONCILE = 'cloudnative-pg v1.30.0 internal/controller/plugin_controller.go PluginReconciler.reconcile';
/** The plugin side's TLS setup. */
export const MACHINERY_TLS = 'cnpg-i-machinery v0.4.2 pkg/pluginhelper/http/server.go Server.setupTLSCerts';

/** The two Secrets of a plugin Service, by role. */
export const ROLES = ['client', 'server'] as const;

/** The Secret a plugin Service names for a role. */
export function secretOf(info: PluginServiceInfo, role: (typeof ROLES)[number]): string | undefined {
  return role === 'client' ? info.clientSecret : info.serverSecret;
}

/** The cert-manager Certificates in the Service's namespace that write its client and server Secrets. */
export function pluginCertificates(model: DoctorModel, info: PluginServiceInfo): Array<{ role: (typeof ROLES)[number]; cert: Manifest }> {
  const out: Array<{ role: (typeof ROLES)[number]; cert: Manifest }> = [];
  for (const role of ROLES) {
    const secretName = secretOf(info, role);
    if (!secretName) continue;
    for (const cert of model.index.certificatesWriting(info.service.namespace, secretName)) out.push({ role, cert });
  }
  return out;
}

/** A Certificate's `spec.dnsNames`. */
export function dnsNames(cert: Manifest): string[] {
  return asArray(dig(cert.raw, 'spec', 'dnsNames')).filter((d): d is string => typeof d === 'string');
}

/** A container of a plugin pod that passes TLS flags, and the files they name. */
export interface TlsContainer {
  readonly c: ContainerRef;
  readonly serverCert?: string;
  readonly serverKey?: string;
  readonly clientCert?: string;
  /** Field path of the container's args. */
  readonly path: string;
  /** `container '<name>' of <owner>`, for messages. */
  readonly where: string;
}

const TLS_CONTAINERS = modelPart(() => new Map<PodTemplate, TlsContainer[]>());

/** The containers of a pod template that pass `--server-cert`, `--server-key` or `--client-cert`. */
export function tlsContainers(model: DoctorModel, t: PodTemplate): readonly TlsContainer[] {
  const cache = model.part(TLS_CONTAINERS);
  let found = cache.get(t);
  if (!found) {
    found = [];
    for (const c of allContainers(t.spec)) {
      const argv = commandLine(c.container);
      const serverCert = flagValue(argv, 'server-cert');
      const serverKey = flagValue(argv, 'server-key');
      const clientCert = flagValue(argv, 'client-cert');
      if (serverCert === undefined && serverKey === undefined && clientCert === undefined) continue;
      found.push({ c, serverCert, serverKey, clientCert, path: `${t.specPath}.${c.path}.args`, where: `container '${c.name}' of ${t.owner.ref}` });
    }
    cache.set(t, found);
  }
  return found;
}
