/*
 * Invariants of a standalone plugin's output that hold for every accepted props object:
 * discovery, mutual TLS, and the certificates' keys.
 */

type Obj = Record<string, any>;

export const TLS_FLAGS = ['--server-cert', '--server-key', '--client-cert', '--server-address'];

function fail(msg: string): never {
  throw new Error(msg);
}

/** The plugin Service of a plugin name, with the Deployment and the container behind it. */
export function pluginParts(objects: Obj[], pluginName: string) {
  const services = objects.filter((o) => o.kind === 'Service' && o.metadata.labels?.['cnpg.io/pluginName'] === pluginName);
  if (services.length !== 1) fail(`expected one Service labelled ${pluginName}, found ${services.length}`);
  const service = services[0];
  const selector: Obj = service.spec.selector ?? {};
  const deployments = objects.filter(
    (o) =>
      o.kind === 'Deployment' &&
      o.metadata.namespace === service.metadata.namespace &&
      Object.entries(selector).every(([k, v]) => o.spec.template.metadata?.labels?.[k] === v),
  );
  if (deployments.length !== 1) fail(`expected one Deployment behind Service ${service.metadata.name}, found ${deployments.length}`);
  const deployment = deployments[0];
  const container = deployment.spec.template.spec.containers.find((c: Obj) => c.name === 'plugin');
  if (!container) fail('no plugin container');
  return { service, deployment, container };
}

/** The Secret a path inside the container comes from, followed through mounts and volumes. */
export function secretOfPath(deployment: Obj, container: Obj, file: string): { secret: string; key: string } | undefined {
  const mount = (container.volumeMounts ?? []).find((m: Obj) => file.startsWith(`${m.mountPath}/`));
  if (!mount) return undefined;
  const volume = (deployment.spec.template.spec.volumes ?? []).find((v: Obj) => v.name === mount.name);
  if (!volume?.secret) return undefined;
  return { secret: volume.secret.secretName, key: file.slice(mount.mountPath.length + 1) };
}

/**
 * mTLS is on and wired: the Service has the label and the three annotations, the container
 * gets each TLS flag once, after the user's args, reading the annotated Secrets, and listens
 * on the annotated port. With `appendTlsArgs: false` only the Service side is checked.
 */
export function expectMutualTls(objects: Obj[], pluginName: string, options: { appendTlsArgs?: boolean } = {}): void {
  const { service, deployment, container } = pluginParts(objects, pluginName);
  const ann: Obj = service.metadata.annotations ?? {};
  for (const key of ['cnpg.io/pluginPort', 'cnpg.io/pluginClientSecret', 'cnpg.io/pluginServerSecret']) {
    if (typeof ann[key] !== 'string' || ann[key] === '') fail(`Service ${service.metadata.name} lacks ${key}`);
  }
  const port = Number(ann['cnpg.io/pluginPort']);
  if (String(port) !== ann['cnpg.io/pluginPort']) fail(`pluginPort '${ann['cnpg.io/pluginPort']}' is not digits`);
  if (!service.spec.ports.some((p: Obj) => p.port === port && p.targetPort === port)) fail('Service port differs from pluginPort');
  if (!(container.ports ?? []).some((p: Obj) => p.containerPort === port)) fail('container port differs from pluginPort');
  if (ann['cnpg.io/pluginClientSecret'] === ann['cnpg.io/pluginServerSecret']) fail('client and server Secret are the same');
  if (options.appendTlsArgs === false) return;
  const args: string[] = container.args ?? [];
  const tail = args.slice(-4).map((a) => a.split('=')[0]);
  if (JSON.stringify(tail) !== JSON.stringify(TLS_FLAGS)) fail(`the TLS flags are not the last four args: ${JSON.stringify(args)}`);
  for (const f of TLS_FLAGS) {
    if (args.filter((a) => a.split('=')[0] === f).length !== 1) fail(`${f} appears more than once`);
  }
  const value = (f: string) => args.find((a) => a.startsWith(`${f}=`))!.slice(f.length + 1);
  if (value('--server-address') !== `:${port}`) fail(`--server-address ${value('--server-address')} is not :${port}`);
  const cert = secretOfPath(deployment, container, value('--server-cert'));
  const key = secretOfPath(deployment, container, value('--server-key'));
  const ca = secretOfPath(deployment, container, value('--client-cert'));
  if (cert?.secret !== ann['cnpg.io/pluginServerSecret'] || cert?.key !== 'tls.crt') fail(`--server-cert reads ${JSON.stringify(cert)}`);
  if (key?.secret !== ann['cnpg.io/pluginServerSecret'] || key?.key !== 'tls.key') fail(`--server-key reads ${JSON.stringify(key)}`);
  if (ca?.secret !== ann['cnpg.io/pluginClientSecret']) fail(`--client-cert reads ${JSON.stringify(ca)}`);
}

/**
 * Every Certificate has a key of at least P-256 or RSA 2048 (or Ed25519), and a new key on
 * each renewal unless the props asked for `Never`.
 */
export function expectStrongCertificates(objects: Obj[], rotationNeverAllowed: boolean): void {
  for (const c of objects.filter((o) => o.kind === 'Certificate')) {
    const pk: Obj = c.spec.privateKey ?? {};
    const ok =
      (pk.algorithm === 'ECDSA' && [256, 384, 521].includes(pk.size)) ||
      (pk.algorithm === 'RSA' && Number.isInteger(pk.size) && pk.size >= 2048) ||
      (pk.algorithm === 'Ed25519' && pk.size === undefined);
    if (!ok) fail(`Certificate ${c.metadata.name} has a weak or unset key: ${JSON.stringify(pk)}`);
    if (pk.rotationPolicy !== 'Always' && !(rotationNeverAllowed && pk.rotationPolicy === 'Never')) {
      fail(`Certificate ${c.metadata.name} rotationPolicy is ${JSON.stringify(pk.rotationPolicy)}`);
    }
  }
}

/** Whether realized props ask for `rotationPolicy: Never` in their TLS options. */
export function asksForNeverRotation(tls: unknown): boolean {
  const certificates = (tls as any)?._config?.certificates;
  return certificates?.rotationPolicy === 'Never';
}
