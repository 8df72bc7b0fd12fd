/**
 * Reads, from plain manifests, what the operator and the kubelet would use to connect a
 * standalone plugin: the discoverable Service (label and annotations), the Deployment behind it,
 * the plugin container's args and the Secret volumes they point into. Nothing is assumed about
 * names or paths: everything is followed from the objects, as in the cluster.
 */
import * as path from 'path';

/** The fields of a manifest that the wiring reads (a loose view of any Kubernetes object). */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly spec?: any;
}

/** How a standalone plugin is wired, as the operator and the kubelet see it. */
export interface PluginWiring {
  readonly pluginName: string;
  readonly namespace: string;
  readonly service: Manifest;
  readonly deployment: Manifest;
  /** `cnpg.io/pluginPort` as a number. */
  readonly port: number;
  readonly clientSecretName: string;
  readonly serverSecretName: string;
  /** `cnpg.io/pluginServerName`, else the short Service name: what the operator verifies. */
  readonly serverName: string;
  /** The container whose args carry `--server-address`. */
  readonly containerArgs: string[];
  readonly containerPorts: number[];
  /** mountPath -> the Secret volume mounted there. */
  readonly secretMounts: ReadonlyArray<{ mountPath: string; secretName: string; items?: Array<{ key: string; path: string }> }>;
}

const LABEL = 'cnpg.io/pluginName';

/** Finds the one plugin Service among `objects` and follows it to its container. */
export function readPluginWiring(objects: Manifest[]): PluginWiring {
  const services = objects.filter((o) => o.kind === 'Service' && o.metadata.labels?.[LABEL]);
  if (services.length !== 1) throw new Error(`expected one Service labelled ${LABEL}, found ${services.length}`);
  const service = services[0];
  const a = service.metadata.annotations ?? {};
  for (const k of ['cnpg.io/pluginPort', 'cnpg.io/pluginClientSecret', 'cnpg.io/pluginServerSecret']) {
    if (!a[k]) throw new Error(`Service ${service.metadata.name} lacks annotation ${k}: the operator would ignore it`);
  }
  const port = Number(a['cnpg.io/pluginPort']);
  if (!Number.isInteger(port)) throw new Error(`cnpg.io/pluginPort ${a['cnpg.io/pluginPort']} is not an integer`);

  const selector: Record<string, string> = service.spec?.selector ?? {};
  const deployments = objects.filter((o) => {
    if (o.kind !== 'Deployment') return false;
    const labels: Record<string, string> = o.spec?.template?.metadata?.labels ?? {};
    return Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
  });
  if (deployments.length !== 1) throw new Error(`expected one Deployment behind Service ${service.metadata.name}, found ${deployments.length}`);
  const deployment = deployments[0];
  const podSpec = deployment.spec.template.spec;
  const containers: any[] = (podSpec.containers ?? []).filter((c: any) =>
    (c.args ?? []).some((arg: string) => arg === '--server-address' || arg.startsWith('--server-address=')),
  );
  if (containers.length !== 1) throw new Error(`expected one container with --server-address, found ${containers.length}`);
  const container = containers[0];
  const volumes = new Map<string, any>((podSpec.volumes ?? []).map((v: any) => [v.name, v]));
  const secretMounts = (container.volumeMounts ?? []).map((m: any) => {
    const v = volumes.get(m.name);
    if (!v) throw new Error(`volumeMount ${m.name} names no volume`);
    if (!v.secret?.secretName) throw new Error(`volume ${m.name} is not a Secret volume`);
    if (m.subPath) throw new Error(`volumeMount ${m.name} uses subPath, which never sees a renewed certificate`);
    return { mountPath: m.mountPath as string, secretName: v.secret.secretName as string, items: v.secret.items };
  });

  return {
    pluginName: service.metadata.labels![LABEL],
    namespace: service.metadata.namespace ?? 'default',
    service,
    deployment,
    port,
    clientSecretName: a['cnpg.io/pluginClientSecret'],
    serverSecretName: a['cnpg.io/pluginServerSecret'],
    serverName: a['cnpg.io/pluginServerName'] ?? service.metadata.name,
    containerArgs: [...container.args],
    containerPorts: (container.ports ?? []).map((p: any) => p.containerPort as number),
    secretMounts,
  };
}

/** The port in `--server-address=<host>:<port>`. */
export function serverAddressPort(wiring: PluginWiring): number {
  const i = wiring.containerArgs.findIndex((arg) => arg === '--server-address' || arg.startsWith('--server-address='));
  const value = wiring.containerArgs[i].includes('=') ? wiring.containerArgs[i].split('=')[1] : wiring.containerArgs[i + 1];
  return Number(value.slice(value.lastIndexOf(':') + 1));
}

/**
 * The container's args as they run on this host: every path inside a Secret mount becomes the
 * file of that Secret's directory under `secretsDir` (honouring `items`), and `--server-address`
 * becomes `address`. A path that is in no mount throws: the file would not exist in the pod.
 */
export function hostArgs(wiring: PluginWiring, secretsDir: string, address: string): string[] {
  const mapPath = (p: string): string => {
    for (const m of wiring.secretMounts) {
      const prefix = m.mountPath.endsWith('/') ? m.mountPath : `${m.mountPath}/`;
      if (!p.startsWith(prefix)) continue;
      const inMount = p.slice(prefix.length);
      let key = inMount;
      if (m.items) {
        const item = m.items.find((it) => it.path === inMount);
        if (!item) throw new Error(`${p}: Secret volume ${m.secretName} projects no item at ${inMount}`);
        key = item.key;
      }
      return path.join(secretsDir, m.secretName, key);
    }
    throw new Error(`${p} is in no mounted volume of the plugin container`);
  };
  const out: string[] = [];
  const args = wiring.containerArgs;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const m = /^(--[a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) {
      out.push(arg);
      continue;
    }
    const [, flag, inline] = m;
    const hasInline = inline !== undefined;
    const value = hasInline ? inline : args[i + 1];
    if (!hasInline && value !== undefined && !value.startsWith('--')) i++;
    let mapped: string | undefined;
    if (flag === '--server-address') mapped = address;
    else if (value !== undefined && value.startsWith('/')) mapped = mapPath(value);
    if (mapped === undefined) {
      out.push(arg);
      if (!hasInline && value !== undefined && !value.startsWith('--')) out.push(value);
    } else {
      out.push(`${flag}=${mapped}`);
    }
  }
  return out;
}
