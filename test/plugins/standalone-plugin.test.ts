import { ApiObject, Chart, Duration, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { IssuerRef, PluginTls, StandalonePlugin, StandalonePluginProps } from '../../src';
import { chartIn, expectValidationError, Manifest, named, ofKind, only, synth } from '../util';

const HELLO = {
  pluginName: 'cnpg-i-hello-world.cloudnative-pg.io',
  image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
  args: ['plugin'],
};

const MODES: Array<[string, PluginTls | undefined]> = [
  ['selfSigned (default)', undefined],
  ['privateCa', PluginTls.privateCa()],
  ['fromIssuer', PluginTls.fromIssuer(IssuerRef.clusterIssuer('corp-ca'))],
  ['fromSecrets', PluginTls.fromSecrets({ clientSecretName: 'hello-client-tls', serverSecretName: 'hello-server-tls' })],
];

function render(props: Partial<StandalonePluginProps> = {}, namespace = 'cnpg-system') {
  const chart = chartIn(namespace);
  const plugin = new StandalonePlugin(chart, 'hello', { ...HELLO, ...props });
  return { plugin, objects: synth(chart) };
}

function container(objects: Manifest[]) {
  return only(objects, 'Deployment').spec.template.spec.containers[0];
}

/** The Secret behind a mount path, read from the Deployment's volumes and mounts. */
function secretMountedAt(objects: Manifest[], path: string): string {
  const pod = only(objects, 'Deployment').spec.template.spec;
  const mount = pod.containers[0].volumeMounts.find((m: any) => m.mountPath === path);
  return pod.volumes.find((v: any) => v.name === mount.name).secret.secretName;
}

/** The value of a `--flag=value` argument of the plugin container. */
function flag(objects: Manifest[], name: string): string {
  const arg = (container(objects).args as string[]).find((a) => a.startsWith(`${name}=`));
  if (!arg) throw new Error(`no ${name}`);
  return arg.slice(name.length + 1);
}

describe.each(MODES)('StandalonePlugin with TLS %s', (_mode, tls) => {
  const { plugin, objects } = render({ tls, serverName: 'hello-world.cnpg-system.svc' });
  const service = only(objects, 'Service');

  test('snapshot', () => {
    expect(objects).toMatchSnapshot();
  });

  test('the Service carries the discovery label and all annotations, consistent with the container', () => {
    expect(service.metadata.labels['cnpg.io/pluginName']).toBe('cnpg-i-hello-world.cloudnative-pg.io');
    const ann = service.metadata.annotations;
    expect(ann['cnpg.io/pluginPort']).toMatch(/^[0-9]+$/);
    expect(ann['cnpg.io/pluginPort']).toBe(String(service.spec.ports[0].port));
    expect(service.spec.ports[0].targetPort).toBe(container(objects).ports[0].containerPort);
    expect(flag(objects, '--server-address')).toBe(`:${ann['cnpg.io/pluginPort']}`);
    expect(ann['cnpg.io/pluginClientSecret']).toBe(plugin.clientSecretName);
    expect(ann['cnpg.io/pluginServerSecret']).toBe(plugin.serverSecretName);
    expect(ann['cnpg.io/pluginServerName']).toBe('hello-world.cnpg-system.svc');
  });

  test('the Service selects exactly the plugin pods', () => {
    const deployment = only(objects, 'Deployment');
    expect(deployment.spec.selector.matchLabels).toEqual(service.spec.selector);
    for (const [k, v] of Object.entries(service.spec.selector)) {
      expect(deployment.spec.template.metadata.labels[k]).toBe(v);
    }
  });

  test('the annotated Secrets are the ones the Deployment mounts, and the Certificates write', () => {
    const ann = service.metadata.annotations;
    expect(secretMountedAt(objects, '/server')).toBe(ann['cnpg.io/pluginServerSecret']);
    expect(secretMountedAt(objects, '/client')).toBe(ann['cnpg.io/pluginClientSecret']);
    expect(flag(objects, '--server-cert')).toBe('/server/tls.crt');
    expect(flag(objects, '--server-key')).toBe('/server/tls.key');
    const certs = ofKind(objects, 'Certificate');
    if (tls?.mode === 'Secrets') {
      expect(certs).toEqual([]);
      expect(ofKind(objects, 'Issuer')).toEqual([]);
      return;
    }
    const client = certs.find((c) => c.spec.usages.includes('client auth'));
    const server = certs.find((c) => c.spec.usages.includes('server auth'));
    expect(client?.spec.secretName).toBe(ann['cnpg.io/pluginClientSecret']);
    expect(server?.spec.secretName).toBe(ann['cnpg.io/pluginServerSecret']);
  });

  test('the plugin trusts the client CA (ca.crt), never the client leaf', () => {
    expect(flag(objects, '--client-cert')).toBe('/client/ca.crt');
  });

  test('server SANs cover the name the operator verifies, the Service forms and serverName', () => {
    const server = ofKind(objects, 'Certificate').find((c) => c.spec.usages.includes('server auth'));
    if (!server) return; // fromSecrets: the user's Secret
    const svc = service.metadata.name;
    expect(server.spec.dnsNames).toEqual([
      svc,
      `${svc}.cnpg-system`,
      `${svc}.cnpg-system.svc`,
      `${svc}.cnpg-system.svc.cluster.local`,
      'hello-world.cnpg-system.svc',
    ]);
    expect(server.spec.dnsNames).toContain(plugin.serverName);
  });

  test('issuerRefs point at issuers that exist in the namespace, or at the given issuer', () => {
    const issuers = ofKind(objects, 'Issuer').map((i) => i.metadata.name);
    for (const cert of ofKind(objects, 'Certificate')) {
      const ref = cert.spec.issuerRef;
      if (tls?.mode === 'Issuer') {
        expect(ref).toEqual({ group: 'cert-manager.io', kind: 'ClusterIssuer', name: 'corp-ca' });
      } else {
        expect(ref.kind).toBe('Issuer');
        expect(issuers).toContain(ref.name);
      }
    }
  });

  test('everything is in the chart namespace', () => {
    for (const o of objects) expect(o.metadata.namespace).toBe('cnpg-system');
  });
});

describe('StandalonePlugin TLS layouts', () => {
  test('selfSigned: one SelfSigned Issuer issues both leaves', () => {
    const { objects } = render();
    const issuer = only(objects, 'Issuer');
    expect(issuer.spec).toEqual({ selfSigned: {} });
    expect(ofKind(objects, 'Certificate').map((c) => c.spec.issuerRef.name)).toEqual([issuer.metadata.name, issuer.metadata.name]);
  });

  test('privateCa: SelfSigned bootstrap -> CA Certificate -> CA Issuer -> leaves', () => {
    const { plugin, objects } = render({ tls: PluginTls.privateCa() });
    const bootstrap = named(objects, 'Issuer', plugin.tls.bootstrapIssuer!.name);
    const ca = named(objects, 'Certificate', plugin.tls.caCertificate!.name);
    const caIssuer = named(objects, 'Issuer', plugin.tls.issuer!.name);
    expect(bootstrap.spec).toEqual({ selfSigned: {} });
    expect(ca.spec.isCA).toBe(true);
    expect(ca.spec.issuerRef.name).toBe(bootstrap.metadata.name);
    expect(caIssuer.spec).toEqual({ ca: { secretName: ca.spec.secretName } });
    const leaves = ofKind(objects, 'Certificate').filter((c) => !c.spec.isCA);
    expect(leaves.map((c) => c.spec.issuerRef.name)).toEqual([caIssuer.metadata.name, caIssuer.metadata.name]);
  });

  test('fromIssuer with a namespaced Issuer or an external issuer creates no Issuer', () => {
    for (const ref of [IssuerRef.issuer('corp-ca'), IssuerRef.external({ group: 'awspca.cert-manager.io', kind: 'AWSPCAClusterIssuer', name: 'pca' })]) {
      const { objects } = render({ tls: PluginTls.fromIssuer(ref) });
      expect(ofKind(objects, 'Issuer')).toEqual([]);
      for (const c of ofKind(objects, 'Certificate')) expect(c.spec.issuerRef).toEqual({ group: ref.group, kind: ref.kind, name: ref.name });
    }
  });

  test('fromSecrets with another clientCaKey mounts and trusts that key', () => {
    const { plugin, objects } = render({ tls: PluginTls.fromSecrets({ clientSecretName: 'c', serverSecretName: 's', clientCaKey: 'client-ca.pem' }) });
    expect(plugin.clientCaPath).toBe('/client/client-ca.pem');
    expect(flag(objects, '--client-cert')).toBe('/client/client-ca.pem');
  });

  test('leaf usages are client auth and server auth', () => {
    const { objects } = render();
    expect(ofKind(objects, 'Certificate').map((c) => c.spec.usages)).toEqual([
      ['digital signature', 'client auth'],
      ['digital signature', 'server auth'],
    ]);
  });
});

describe('StandalonePlugin defaults', () => {
  const { plugin, objects } = render();
  const pod = only(objects, 'Deployment').spec.template.spec;
  const c = pod.containers[0];

  test('port 9090 everywhere', () => {
    expect(plugin.port).toBe(9090);
    expect(only(objects, 'Service').metadata.annotations['cnpg.io/pluginPort']).toBe('9090');
    expect(c.ports).toEqual([{ containerPort: 9090, name: 'grpc', protocol: 'TCP' }]);
  });

  test('no serverName: no annotation, the operator verifies the short Service name', () => {
    expect(only(objects, 'Service').metadata.annotations['cnpg.io/pluginServerName']).toBeUndefined();
    expect(plugin.serverName).toBe(only(objects, 'Service').metadata.name);
  });

  test('TLS flags appended after the user args', () => {
    expect(c.args).toEqual([
      'plugin',
      '--server-cert=/server/tls.crt',
      '--server-key=/server/tls.key',
      '--client-cert=/client/ca.crt',
      '--server-address=:9090',
    ]);
    expect(c.command).toBeUndefined();
  });

  test('one replica, RollingUpdate 25%/25%, no PodDisruptionBudget', () => {
    const d = only(objects, 'Deployment');
    expect(d.spec.replicas).toBe(1);
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
    expect(ofKind(objects, 'PodDisruptionBudget')).toEqual([]);
  });

  test('resources: requests cpu 100m, memory 128Mi; limit memory 256Mi, no CPU limit', () => {
    expect(c.resources).toEqual({ requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } });
  });

  test('imagePullPolicy IfNotPresent', () => {
    expect(c.imagePullPolicy).toBe('IfNotPresent');
  });

  test('restricted security context, uid/gid 10001', () => {
    expect(c.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
      privileged: false,
      readOnlyRootFilesystem: true,
      runAsGroup: 10001,
      runAsNonRoot: true,
      runAsUser: 10001,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, seccompProfile: { type: 'RuntimeDefault' } });
  });

  test('readiness probe on the plugin port', () => {
    expect(c.readinessProbe).toEqual({ tcpSocket: { port: 9090 }, periodSeconds: 10, failureThreshold: 3 });
  });

  test('TLS Secrets mounted read-only', () => {
    expect(c.volumeMounts).toEqual([
      { mountPath: '/server', name: 'server', readOnly: true },
      { mountPath: '/client', name: 'client', readOnly: true },
    ]);
  });

  test('own ServiceAccount, no token mounted', () => {
    const sa = only(objects, 'ServiceAccount');
    expect(sa.automountServiceAccountToken).toBe(false);
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.serviceAccountName).toBe(sa.metadata.name);
  });

  test('a NetworkPolicy admits only the operator pods to the plugin port', () => {
    const np = only(objects, 'NetworkPolicy');
    expect(np.spec).toEqual({
      podSelector: { matchLabels: only(objects, 'Service').spec.selector },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'cloudnative-pg' } } }], ports: [{ protocol: 'TCP', port: 9090 }] }],
    });
  });

  test('selfSigned TLS when tls is not given', () => {
    expect(plugin.tls.mode).toBe('SelfSigned');
  });

  test('no imagePullSecrets, nodeSelector, tolerations or priorityClassName', () => {
    expect(pod.imagePullSecrets).toBeUndefined();
    expect(pod.nodeSelector).toBeUndefined();
    expect(pod.tolerations).toBeUndefined();
    expect(pod.priorityClassName).toBeUndefined();
  });

  test('no extra labels on the objects', () => {
    expect(only(objects, 'ServiceAccount').metadata.labels).toBeUndefined();
  });
});

describe('StandalonePlugin options', () => {
  test('a custom port reaches the annotation, both Service ports, the container and the NetworkPolicy', () => {
    const { objects } = render({ port: 7443 });
    const svc = only(objects, 'Service');
    expect(svc.metadata.annotations['cnpg.io/pluginPort']).toBe('7443');
    expect(svc.spec.ports[0]).toMatchObject({ port: 7443, targetPort: 7443 });
    expect(container(objects).ports[0].containerPort).toBe(7443);
    expect(flag(objects, '--server-address')).toBe(':7443');
    expect(only(objects, 'NetworkPolicy').spec.ingress[0].ports[0].port).toBe(7443);
    expect(container(objects).readinessProbe.tcpSocket.port).toBe(7443);
  });

  test('replicas > 1 adds a PodDisruptionBudget on the plugin pods', () => {
    const { objects } = render({ replicas: 2 });
    const pdb = only(objects, 'PodDisruptionBudget');
    expect(pdb.spec).toEqual({ minAvailable: 1, selector: { matchLabels: only(objects, 'Service').spec.selector } });
  });

  test('networkPolicy: false and custom operator labels', () => {
    expect(ofKind(render({ networkPolicy: false }).objects, 'NetworkPolicy')).toEqual([]);
    const np = only(
      render({ operatorPodLabels: { 'app.kubernetes.io/name': 'cloudnative-pg', 'app.kubernetes.io/instance': 'cnpg' } }).objects,
      'NetworkPolicy',
    );
    expect(np.spec.ingress[0].from[0].podSelector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'cloudnative-pg', 'app.kubernetes.io/instance': 'cnpg' });
  });

  test('pod fields set through patches survive synthesis', () => {
    const { objects } = render({
      imagePullSecrets: [kplus.Secret.fromSecretName(Testing.chart(), 'Pull', 'registry')],
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [kplus.NodeTaintQuery.is('dedicated', 'db', { effect: kplus.TaintEffect.NO_SCHEDULE })],
      priorityClassName: 'system-cluster-critical',
    });
    const pod = only(objects, 'Deployment').spec.template.spec;
    expect(pod.imagePullSecrets).toEqual([{ name: 'registry' }]);
    expect(pod.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux' });
    expect(pod.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' }]);
    expect(pod.priorityClassName).toBe('system-cluster-critical');
  });

  test('envVariables, strategy, command, automountServiceAccountToken, securityContext and labels', () => {
    const { objects } = render({
      envVariables: { LOG_LEVEL: kplus.EnvValue.fromValue('debug') },
      strategy: kplus.DeploymentStrategy.recreate(),
      command: ['/plugin'],
      automountServiceAccountToken: true,
      securityContext: { user: 2000, group: 3000 },
      labels: { team: 'db' },
    });
    const d = only(objects, 'Deployment');
    const c = d.spec.template.spec.containers[0];
    expect(c.env).toEqual([{ name: 'LOG_LEVEL', value: 'debug' }]);
    expect(c.command).toEqual(['/plugin']);
    expect(d.spec.strategy).toEqual({ type: 'Recreate' });
    expect(d.spec.template.spec.automountServiceAccountToken).toBe(true);
    expect(only(objects, 'ServiceAccount').automountServiceAccountToken).toBe(true);
    expect(c.securityContext).toMatchObject({ runAsUser: 2000, runAsGroup: 3000 });
    for (const o of objects) expect(o.metadata.labels?.team).toBe('db');
    expect(d.spec.selector.matchLabels.team).toBeUndefined();
  });

  test('appendTlsArgs: false leaves the args alone and exposes the paths', () => {
    const { plugin, objects } = render({ image: 'ghcr.io/example/other-plugin:v2.0.0', appendTlsArgs: false, args: ['serve', '--tls-cert=/server/tls.crt'] });
    expect(container(objects).args).toEqual(['serve', '--tls-cert=/server/tls.crt']);
    expect([plugin.serverCertPath, plugin.serverKeyPath, plugin.clientCaPath, plugin.serverAddress]).toEqual([
      '/server/tls.crt',
      '/server/tls.key',
      '/client/ca.crt',
      ':9090',
    ]);
  });

  test('appendTlsArgs: false lets the user pass the four TLS flags themselves', () => {
    const args = ['--server-cert=/server/tls.crt', '--server-key=/server/tls.key', '--client-cert=/client/ca.crt', '--server-address=:9090'];
    const { objects } = render({ image: 'ghcr.io/example/other-plugin:v2.0.0', appendTlsArgs: false, args });
    expect(container(objects).args).toEqual(args);
  });

  test('serviceName names the Service and is what the operator verifies', () => {
    const { plugin, objects } = render({ serviceName: 'hello-world' });
    expect(only(objects, 'Service').metadata.name).toBe('hello-world');
    expect(plugin.serverName).toBe('hello-world');
    const server = ofKind(objects, 'Certificate').find((c) => c.spec.usages.includes('server auth'));
    expect(server?.spec.dnsNames).toEqual([
      'hello-world',
      'hello-world.cnpg-system',
      'hello-world.cnpg-system.svc',
      'hello-world.cnpg-system.svc.cluster.local',
    ]);
  });

  test('the namespace follows the chart, never a hard-coded cnpg-system', () => {
    const { objects } = render({}, 'postgres-operator');
    for (const o of objects) expect(o.metadata.namespace).toBe('postgres-operator');
    const server = ofKind(objects, 'Certificate').find((c) => c.spec.usages.includes('server auth'));
    expect(server?.spec.dnsNames[2]).toMatch(/\.postgres-operator\.svc$/);
  });

  test('the escape hatch: JSON patches on the Deployment survive synthesis', () => {
    const chart = chartIn();
    const plugin = new StandalonePlugin(chart, 'hello', HELLO);
    ApiObject.of(plugin.deployment).addJsonPatch(JsonPatch.add('/spec/revisionHistoryLimit', 3));
    expect(only(synth(chart), 'Deployment').spec.revisionHistoryLimit).toBe(3);
  });

  test('the same program gives the same YAML', () => {
    const a = render({ tls: PluginTls.privateCa() }).objects;
    const b = render({ tls: PluginTls.privateCa() }).objects;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  test('a changed image changes only the image', () => {
    const a = render().objects;
    const b = render({ image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.2.0' }).objects;
    const strip = (objs: Manifest[]) => JSON.stringify(objs).replace(/cnpg-i-hello-world:v0\.[12]\.0/g, 'IMAGE');
    expect(strip(b)).toBe(strip(a));
  });
});

describe('StandalonePlugin validation', () => {
  const cases: Array<[string, Partial<StandalonePluginProps>, string]> = [
    [
      'an empty plugin name',
      { pluginName: '' },
      "cnpg-system/hello: pluginName '' must not be empty; use a lower-case DNS subdomain of at most 63 characters, such as 'backup.example.com'",
    ],
    [
      'an upper-case plugin name',
      { pluginName: 'Hello.Example.com' },
      "cnpg-system/hello: pluginName 'Hello.Example.com' is not a lower-case DNS subdomain (RFC 1123); use 'hello.example.com'",
    ],
    [
      'a plugin name that is no DNS subdomain',
      { pluginName: 'hello_world' },
      "cnpg-system/hello: pluginName 'hello_world' is not a lower-case DNS subdomain (RFC 1123); use a lower-case DNS subdomain of at most 63 characters, such as 'backup.example.com'",
    ],
    [
      'a plugin name longer than a label value',
      { pluginName: `${'a'.repeat(60)}.com` },
      `cnpg-system/hello: pluginName '${'a'.repeat(60)}.com' is 64 characters long; a Kubernetes label value holds at most 63; use a lower-case DNS subdomain of at most 63 characters, such as 'backup.example.com'`,
    ],
    [
      'a number as plugin name',
      { pluginName: 42 as any },
      "cnpg-system/hello: pluginName 42 must be a string, not a number; use a lower-case DNS subdomain of at most 63 characters, such as 'backup.example.com'",
    ],
    ['port 0', { port: 0 }, 'cnpg-system/hello: port 0 is out of range; use a whole number from 1 to 65535'],
    ['port 65536', { port: 65536 }, 'cnpg-system/hello: port 65536 is out of range; use a whole number from 1 to 65535'],
    ['a string port', { port: '9090' as any }, "cnpg-system/hello: port '9090' must be a whole number, not a string; use a whole number from 1 to 65535"],
    [
      'a serverName that is no DNS name',
      { serverName: 'hello world' },
      "cnpg-system/hello: serverName 'hello world' is not a DNS name (a lower-case DNS subdomain); use a name such as 'my-plugin.cnpg-system.svc'",
    ],
    [
      'a serverName with a label longer than DNS carries',
      { serverName: `${'h'.repeat(64)}.cnpg-system.svc` },
      `cnpg-system/hello: serverName '${'h'.repeat(64)}.cnpg-system.svc' is not a DNS name: its label '${'h'.repeat(64)}' has 64 characters, and a DNS label holds at most 63; use a name such as 'my-plugin.cnpg-system.svc'`,
    ],
    ['negative replicas', { replicas: -1 }, 'cnpg-system/hello: replicas -1 is out of range; use a whole number from 0 to 2147483647'],
    ['fractional replicas', { replicas: 1.5 }, 'cnpg-system/hello: replicas 1.5 is not a whole number; use a whole number from 0 to 2147483647'],
    [
      'an arg repeating a TLS flag',
      { args: ['plugin', '--server-cert=/tmp/x'] },
      "cnpg-system/hello: args[1] '--server-cert=/tmp/x' repeats a TLS flag that the construct sets from the mounted Secrets; remove it; read the path from serverCertPath, serverKeyPath or clientCaPath, or set appendTlsArgs: false to pass all four yourself",
    ],
    [
      'an arg repeating a TLS flag with a separate value',
      { args: ['--client-cert', '/client/tls.crt'] },
      "cnpg-system/hello: args[0] '--client-cert' repeats a TLS flag that the construct sets from the mounted Secrets; remove it; read the path from serverCertPath, serverKeyPath or clientCaPath, or set appendTlsArgs: false to pass all four yourself",
    ],
    [
      'the socket flag',
      { args: ['--plugin-path=/plugins'] },
      "cnpg-system/hello: args[0] '--plugin-path=/plugins' selects the Unix socket mode, which cnpg-i-machinery refuses together with the TLS flags; remove it, or deploy the plugin as a SidecarPlugin inside the operator Deployment",
    ],
    ['args that are not an array', { args: 'plugin' as any }, "cnpg-system/hello: args 'plugin' must be an array of strings, not a string; pass ['a', 'b']"],
    ['an empty image', { image: '' }, "cnpg-system/hello: image '' must not be empty; use an image reference such as ghcr.io/org/plugin:v1.0.0"],
    [
      'a missing image',
      { image: undefined as any },
      "cnpg-system/hello: props [\"pluginName\",\"args\"] lacks the required key 'image'; pass e.g. { pluginName: 'my-plugin.example.com', image: 'ghcr.io/org/plugin:v1.0.0' }",
    ],
    [
      'an image with spaces',
      { image: 'ghcr.io/x y' },
      "cnpg-system/hello: image 'ghcr.io/x y' contains white space; use an image reference such as ghcr.io/org/plugin:v1.0.0",
    ],
    [
      'empty operator labels',
      { operatorPodLabels: {} },
      "cnpg-system/hello: operatorPodLabels {} is empty, which would admit every pod in the namespace; name the operator's pod labels, e.g. { 'app.kubernetes.io/name': 'cloudnative-pg' }",
    ],
    [
      'a non-string label value',
      { labels: { tier: 1 as any } },
      "cnpg-system/hello: labels.tier 1 must be a string, not a number; write it as a string, e.g. '1'",
    ],
    [
      'a pull secret given by name',
      { imagePullSecrets: ['Registry'] as any },
      "cnpg-system/hello: imagePullSecrets[0] 'Registry' must be a kplus.ISecret with a valid name, not a string; use kplus.Secret.fromSecretName(scope, 'Pull', 'registry-creds')",
    ],
    [
      'a bad priority class',
      { priorityClassName: 'High Priority' },
      "cnpg-system/hello: priorityClassName 'High Priority' is not a PriorityClass name (a lower-case DNS subdomain); use a name such as 'system-cluster-critical'",
    ],
    [
      'tolerations that are not an array',
      { tolerations: {} as any },
      'cnpg-system/hello: tolerations {} must be an array, not an object; pass a list, or leave the prop out',
    ],
    ['uid 0', { securityContext: { user: 0 } }, 'cnpg-system/hello: securityContext.user 0 is out of range; use a whole number from 1 to 2147483647'],
  ];
  test.each(cases)('rejects %s', (_what, props, message) => {
    expectValidationError(() => render(props), message);
  });

  test('rejects a chart without a namespace, and says how to set one', () => {
    const chart = new Chart(Testing.app(), 'plugins');
    expectValidationError(
      () => new StandalonePlugin(chart, 'hello', HELLO),
      "plugins/hello: chart 'plugins' has no namespace; a plugin must be in the operator's namespace; create the chart with the operator's namespace, e.g. new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' })",
    );
  });

  test('rejects missing props from JavaScript callers', () => {
    expectValidationError(
      () => new StandalonePlugin(chartIn(), 'hello', undefined as any),
      "cnpg-system/hello: props is missing: it must be an object; pass e.g. { pluginName: 'my-plugin.example.com', image: 'ghcr.io/org/plugin:v1.0.0' }",
    );
  });

  test('a Duration from a second copy of cdk8s (another node_modules) is accepted by its shape', () => {
    // A fresh module registry loads cdk8s again: its Duration is another class, so an
    // `instanceof` check would refuse it; the library reads Durations by shape.
    let Other: typeof Duration | undefined;
    jest.isolateModules(() => {
      Other = require('cdk8s').Duration;
    });
    expect(Other).toBeDefined();
    expect(Other).not.toBe(Duration);
    const duration = Other!.hours(48);
    expect(duration).not.toBeInstanceOf(Duration);
    const { objects } = render({ tls: PluginTls.selfSigned({ duration, renewBefore: Other!.hours(12) }) });
    const certificates = objects.filter((o: any) => o.kind === 'Certificate');
    expect(certificates.map((c: any) => [c.spec.duration, c.spec.renewBefore])).toEqual([
      ['48h', '12h'],
      ['48h', '12h'],
    ]);
  });
});

describe('StandalonePlugin and what a real API server accepts (issue #13)', () => {
  const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
  const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
  const DNS_1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

  test.each([
    ['barman_payments54', 'cnpg-system'],
    ['hello.barman18', '9lives'],
    ['Hello_World', 'cnpg-system'],
  ])('construct id %s in chart %s gives names valid for each kind, and the same name in every reference', (id, chartId) => {
    const chart = chartIn('cnpg-system', chartId);
    const plugin = new StandalonePlugin(chart, id, { ...HELLO, replicas: 2 });
    const objects = synth(chart);
    for (const o of objects) {
      expect(o.metadata.name).toMatch(DNS_SUBDOMAIN);
      expect(o.metadata.name.length).toBeLessThanOrEqual(253);
    }
    expect(only(objects, 'Deployment').metadata.name).toMatch(DNS_LABEL);
    expect(only(objects, 'Service').metadata.name).toMatch(DNS_1035);
    expect(only(objects, 'Service').metadata.name).toBe(plugin.service.name);
    expect(only(objects, 'Service').metadata.annotations['cnpg.io/pluginServerSecret']).toBe(plugin.serverSecretName);
    expect(ofKind(objects, 'Certificate').map((c) => c.spec.secretName)).toEqual([plugin.clientSecretName, plugin.serverSecretName]);
    expect(only(objects, 'Deployment').spec.template.spec.serviceAccountName).toBe(only(objects, 'ServiceAccount').metadata.name);
  });

  test('a valid id keeps the name cdk8s generates, byte for byte', () => {
    const chart = chartIn();
    const plugin = new StandalonePlugin(chart, 'hello', HELLO);
    // The same cdk8s-plus constructs at the same paths, left to cdk8s's own naming.
    const bare = new Construct(chartIn(), 'hello');
    expect(plugin.service.name).toBe(new kplus.Service(bare, 'Service').name);
    expect(plugin.deployment.name).toBe(new kplus.Deployment(bare, 'Deployment').name);
    expect(plugin.serviceAccount.name).toBe(new kplus.ServiceAccount(bare, 'ServiceAccount').name);
    expect(plugin.networkPolicy!.name).toBe(new kplus.k8s.KubeNetworkPolicy(bare, 'NetworkPolicy', { spec: { podSelector: {} } }).name);
  });

  test('an object name the API server refuses is reported at synth by the schema guard, with the construct path', () => {
    const chart = chartIn();
    new StandalonePlugin(chart, 'hello', { ...HELLO, objectNames: { serviceAccount: 'Plugin_SA', clientCertificate: 'Client.Cert.' } });
    expect(() => Testing.synth(chart)).toThrow(
      /Validation failed with the following errors:[\s\S]*\[cnpg-system\/hello\] ServiceAccount 'Plugin_SA' metadata\.name[\s\S]*Certificate 'Client\.Cert\.' metadata\.name/,
    );
  });

  test('a request above its limit is refused for cpu, memory and ephemeral-storage', () => {
    const cases: Array<[kplus.ContainerResources, string]> = [
      [{ cpu: { request: kplus.Cpu.units(1), limit: kplus.Cpu.millis(500) } }, "resources.requests.cpu: is above the cpu limit '500m'"],
      [{ memory: { request: Size.gibibytes(1), limit: Size.mebibytes(1000) } }, "resources.requests.memory: is above the memory limit '1000Mi'"],
      [
        { ephemeralStorage: { request: Size.gibibytes(2), limit: Size.gibibytes(1) } },
        "resources.requests.ephemeral-storage: is above the ephemeral-storage limit '1Gi'",
      ],
    ];
    // The schema guard compares the quantities at synth (src/schema/guard.ts apiServerIssues).
    for (const [resources, message] of cases) {
      expect(() => render({ resources })).toThrow(message);
    }
    // Equal is fine.
    expect(() => render({ resources: { memory: { request: Size.gibibytes(1), limit: Size.mebibytes(1024) } } })).not.toThrow();
  });

  test('sizes are written in the largest exact binary unit (Size.gibibytes(1) is 1Gi, not 1024Mi)', () => {
    const { objects } = render({
      resources: { memory: { request: Size.mebibytes(512), limit: Size.gibibytes(1) }, ephemeralStorage: { limit: Size.mebibytes(512) } },
    });
    expect(container(objects).resources).toEqual({ limits: { memory: '1Gi', 'ephemeral-storage': '512Mi' }, requests: { memory: '512Mi' } });
  });

  test.each([
    [
      'an untagged image',
      'ghcr.io/example/plugin',
      "cnpg-system/hello: image 'ghcr.io/example/plugin' has no tag, so the runtime pulls :latest; pin a release tag or a digest, e.g. ghcr.io/org/plugin:v1.0.0",
    ],
    [
      'an image on :latest',
      'registry.example.com:5000/plugin:latest',
      "cnpg-system/hello: image 'registry.example.com:5000/plugin:latest' uses the latest tag, which moves under a running Deployment; pin a release tag or a digest, e.g. ghcr.io/org/plugin:v1.0.0",
    ],
    [
      'an image on a branch tag (the one image policy, as PluginManifest and CNPGI126)',
      'ghcr.io/cloudnative-pg/plugin-barman-cloud-testing:main',
      "cnpg-system/hello: image 'ghcr.io/cloudnative-pg/plugin-barman-cloud-testing:main' uses the tag 'main', a branch or channel name that moves under a running Deployment; pin a release tag or a digest, e.g. ghcr.io/org/plugin:v1.0.0",
    ],
  ])('refuses %s', (_what, image, message) => {
    expectValidationError(() => render({ image, args: [] }), message);
  });

  test('accepts a digest, also on :latest, and a registry port that looks like a tag', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    expect(() => render({ image: `ghcr.io/example/plugin@${digest}`, args: [] })).not.toThrow();
    expect(() => render({ image: `ghcr.io/example/plugin:latest@${digest}`, args: [] })).not.toThrow();
    expect(() => render({ image: 'registry.example.com:5000/plugin:v2', args: [] })).not.toThrow();
  });

  test('the known images are refused without their subcommand (mirrors too), unless command replaces the entrypoint', () => {
    expectValidationError(
      () => render({ args: [] }),
      "cnpg-system/hello: args [] does not name the 'plugin' subcommand that image ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0 needs (without it, the plugin prints its help and exits); start args with 'plugin', e.g. args: ['plugin']",
    );
    expectValidationError(
      () => render({ image: 'mirror.example.com/cnpg/plugin-barman-cloud:v0.14.0', args: ['--leader-elect'] }),
      "cnpg-system/hello: args [\"--leader-elect\"] does not name the 'operator' subcommand that image mirror.example.com/cnpg/plugin-barman-cloud:v0.14.0 needs (without it, the plugin prints its help and exits); start args with 'operator', e.g. args: ['operator']",
    );
    expect(() => render({ args: [], command: ['/app/bin/cnpg-i-hello-world', 'plugin'] })).not.toThrow();
  });

  test('a known image is refused under another plugin name than the one it reports (mirrors too)', () => {
    expectValidationError(
      () => render({ pluginName: 'hello.example.com' }),
      "cnpg-system/hello: pluginName 'hello.example.com' differs from the name image ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0 reports about itself ('cnpg-i-hello-world.cloudnative-pg.io'); the operator would find no plugin named 'hello.example.com', so Clusters naming it get no sidecar and no archiving; use pluginName: 'cnpg-i-hello-world.cloudnative-pg.io', or the HelloWorldPlugin preset",
    );
    expect(() => render({ pluginName: 'barman-cloud', image: 'mirror.example.com/cnpg/plugin-barman-cloud-testing:sha-3f2a91c', args: ['operator'] })).toThrow(
      /pluginName 'barman-cloud' differs from the name image mirror\.example\.com\/cnpg\/plugin-barman-cloud-testing:sha-3f2a91c reports about itself \('barman-cloud\.cloudnative-pg\.io'\).*or the BarmanCloudPlugin preset$/,
    );
    expect(() =>
      render({ pluginName: 'barman-cloud.cloudnative-pg.io', image: 'ghcr.io/cloudnative-pg/plugin-barman-cloud:v0.14.0', args: ['operator'] }),
    ).not.toThrow();
    expect(() => render({ pluginName: 'anything.example.com', image: 'example.com/own/plugin:v1' })).not.toThrow();
  });

  test('unknown and renamed keys are refused, naming the nearest or the new key', () => {
    expectValidationError(() => render({ replica: 2 } as any), "cnpg-system/hello: props.replica 2 is not a declared key of props; did you mean 'replicas'?");
    expectValidationError(
      () => render({ env: {} } as any),
      "cnpg-system/hello: props.env {} is not a key of props: it was renamed; use 'envVariables' (the cdk8s-plus name)",
    );
    expectValidationError(
      () => render({ securityContext: { uid: 5 } } as any),
      'cnpg-system/hello: securityContext.uid 5 is not a declared key of securityContext; remove it; securityContext takes group, user',
    );
    expectValidationError(
      () => render({ objectNames: { deploymnet: 'x' } } as any),
      "cnpg-system/hello: objectNames.deploymnet 'x' is not a declared key of objectNames; did you mean 'deployment'?",
    );
  });

  test('the discovery constants are static members too', () => {
    expect(StandalonePlugin.PLUGIN_NAME_LABEL).toBe('cnpg.io/pluginName');
    expect(StandalonePlugin.PLUGIN_PORT_ANNOTATION).toBe('cnpg.io/pluginPort');
    expect(StandalonePlugin.PLUGIN_CLIENT_SECRET_ANNOTATION).toBe('cnpg.io/pluginClientSecret');
    expect(StandalonePlugin.PLUGIN_SERVER_SECRET_ANNOTATION).toBe('cnpg.io/pluginServerSecret');
    expect(StandalonePlugin.PLUGIN_SERVER_NAME_ANNOTATION).toBe('cnpg.io/pluginServerName');
    expect(StandalonePlugin.DEFAULT_OPERATOR_POD_LABELS).toEqual({ 'app.kubernetes.io/name': 'cloudnative-pg' });
    expect(StandalonePlugin.DEFAULT_PLUGIN_USER_ID).toBe(10001);
  });

  test('the error examples of the standalone-plugins guide are the real messages', () => {
    expectValidationError(
      () => PluginTls.selfSigned({ renewBefore: Duration.hours(2160) }),
      "PluginTls.selfSigned: renewBefore '2160h' is not shorter than duration (2160h); make renewBefore shorter than duration, so the certificate is renewed before it expires",
    );
    expectValidationError(() => render({ replica: 2 } as any), "cnpg-system/hello: props.replica 2 is not a declared key of props; did you mean 'replicas'?");
  });
});

describe('StandalonePlugin: synth errors name the construct the user made (issue #13 point 5)', () => {
  test("a schema guard line of a certificate (the inner 'Tls') is reported on the StandalonePlugin", () => {
    const chart = chartIn();
    new StandalonePlugin(chart, 'plugin', { pluginName: 'p.example.com', image: 'ghcr.io/org/p:v1.0.0', objectNames: { clientCertificate: 'Bad_Name' } });
    expect(() => synth(chart)).toThrow(/\n\s*\[cnpg-system\/plugin\] Certificate 'Bad_Name' metadata\.name: is not a lowercase RFC 1123 subdomain/);
    expect(() => synth(chart)).not.toThrow(/plugin\/Tls/);
  });
});
