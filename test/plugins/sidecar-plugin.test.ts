import * as path from 'path';
import { ApiObject, Chart, JsonPatch, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import * as kplus33 from 'cdk8s-plus-33';
import { Cluster as CnpgCluster } from '../../imports/postgresql.cnpg.io';
import {
  CnpgIValidationError,
  CnpgOperator,
  Doctor,
  IOperatorDeployment,
  OperatorDeployment,
  PluginPathFlag,
  SidecarPlugin,
  SidecarPluginOptions,
} from '../../src';
import { synthErrors } from '../postgres/synth-errors';
import { expectValidationError } from '../util';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'operator', 'operator.yaml');
const HELLO = {
  pluginName: 'cnpg-i-hello-world.cloudnative-pg.io',
  image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
  args: ['plugin'],
};

/** The restricted security context every plugin container gets, for uid/gid 10001. */
const RESTRICTED = {
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  privileged: false,
  readOnlyRootFilesystem: true,
  runAsGroup: 10001,
  runAsNonRoot: true,
  runAsUser: 10001,
  seccompProfile: { type: 'RuntimeDefault' },
};

/** The hello-world container with every default, as Kubernetes JSON. */
function helloContainer(dir = '/plugins', volume = 'cnpg-i-plugins'): Record<string, unknown> {
  return {
    args: ['plugin', `--plugin-path=${dir}`],
    image: HELLO.image,
    imagePullPolicy: 'IfNotPresent',
    name: 'cnpg-i-hello-world',
    resources: { limits: { memory: '256Mi' }, requests: { cpu: '50m', memory: '64Mi' } },
    securityContext: RESTRICTED,
    volumeMounts: [{ mountPath: dir, name: volume }],
  };
}

/** The pod spec a hand-built operator Deployment starts with. */
function managerPod(extra: { env?: any[]; volumeMounts?: any[]; volumes?: any[]; containers?: any[] } = {}): any {
  return {
    containers: [
      ...(extra.containers ?? []),
      {
        name: 'manager',
        image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
        command: ['/manager'],
        args: ['controller', '--leader-elect'],
        env: [{ name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }, ...(extra.env ?? [])],
        resources: { requests: { cpu: '100m', memory: '100Mi' } },
        ...(extra.volumeMounts ? { volumeMounts: extra.volumeMounts } : {}),
      },
    ],
    ...(extra.volumes ? { volumes: extra.volumes } : {}),
  };
}

function plainDeployment(chart: Chart, pod = managerPod()): ApiObject {
  return new ApiObject(chart, 'Operator', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'cnpg-controller-manager', namespace: 'cnpg-system' },
    spec: { selector: { matchLabels: { app: 'cnpg' } }, template: { metadata: { labels: { app: 'cnpg' } }, spec: pod } },
  });
}

function podOf(objects: any[], name = 'cnpg-controller-manager'): any {
  return objects.find((o) => o.kind === 'Deployment' && o.metadata.name === name).spec.template.spec;
}

function container(pod: any, name: string): any {
  return pod.containers.find((c: any) => c.name === name);
}

/** One operator Deployment per source kind, each with the same manager. */
const SOURCES: Array<[string, (chart: Chart) => IOperatorDeployment]> = [
  ['a manifest loaded with Include', (chart) => CnpgOperator.fromManifest(chart, 'operator', { path: FIXTURE })],
  ['a plain ApiObject', (chart) => OperatorDeployment.fromApiObject(plainDeployment(chart))],
  [
    'a generated L1 KubeDeployment',
    (chart) =>
      OperatorDeployment.fromApiObject(
        new kplus.k8s.KubeDeployment(chart, 'Operator', {
          metadata: { name: 'cnpg-controller-manager', namespace: 'cnpg-system' },
          spec: {
            selector: { matchLabels: { app: 'cnpg' } },
            template: {
              metadata: { labels: { app: 'cnpg' } },
              spec: {
                containers: [
                  {
                    name: 'manager',
                    image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
                    command: ['/manager'],
                    args: ['controller'],
                    env: [{ name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
                    resources: { requests: { cpu: kplus.k8s.Quantity.fromString('100m') } },
                  },
                ],
              },
            },
          },
        }),
      ),
  ],
  ['a cdk8s-plus Deployment', (chart) => OperatorDeployment.fromDeployment(kplusOperator(chart))],
];

function kplusOperator(chart: Chart): kplus.Deployment {
  const deployment = new kplus.Deployment(chart, 'Operator', {
    metadata: { name: 'cnpg-controller-manager', namespace: 'cnpg-system' },
    containers: [
      {
        name: 'manager',
        image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
        command: ['/manager'],
        args: ['controller'],
        envVariables: { OPERATOR_NAMESPACE: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAMESPACE) },
        securityContext: { ensureNonRoot: true, user: 10001, group: 10001 },
      },
    ],
  });
  return deployment;
}

describe('SidecarPlugin on every kind of operator Deployment', () => {
  test.each(SOURCES)('on %s, every added key survives synthesis', (_kind, make) => {
    const chart = Testing.chart();
    const operator = make(chart);
    new SidecarPlugin(chart, 'hello', { operator, ...HELLO, socketDir: '/run/cnpg-i', envVariables: { LOG_LEVEL: kplus.EnvValue.fromValue('debug') } });
    const objects = Testing.synth(chart);
    const deployment = objects.find((o) => o.kind === 'Deployment');
    const pod = deployment.spec.template.spec;

    const expected = { ...helloContainer('/run/cnpg-i'), env: [{ name: 'LOG_LEVEL', value: 'debug' }] };
    expect(container(pod, 'cnpg-i-hello-world')).toEqual(expected);
    expect(pod.volumes).toContainEqual({ name: 'cnpg-i-plugins', emptyDir: {} });
    const manager = container(pod, 'manager');
    expect(manager.volumeMounts).toContainEqual({ name: 'cnpg-i-plugins', mountPath: '/run/cnpg-i' });
    expect(manager.env).toContainEqual({ name: 'PLUGIN_SOCKET_DIR', value: '/run/cnpg-i' });
    expect(manager.env).toContainEqual({ name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    // the Deployment names its sidecar for the doctor; the pod template gains no annotation
    expect(deployment.metadata.annotations).toEqual({
      'cnpg-i.dev/sidecar-plugins':
        '[{"container":"cnpg-i-hello-world","plugin":"cnpg-i-hello-world.cloudnative-pg.io","socket":"/run/cnpg-i/cnpg-i-hello-world.cloudnative-pg.io"}]',
    });
    expect(deployment.spec.template.metadata.annotations).toBeUndefined();
  });

  test.each(SOURCES)('on %s, the annotation names every sidecar, sorted by container, and the Doctor reads it', (_kind, make) => {
    const chart = Testing.chart();
    const operator = make(chart);
    new SidecarPlugin(chart, 'hello', { operator, ...HELLO });
    new SidecarPlugin(chart, 'audit', { operator, pluginName: 'audit.example.com', image: 'example.com/audit:v1', containerName: 'audit' });
    const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
    expect(JSON.parse(deployment.metadata.annotations['cnpg-i.dev/sidecar-plugins'])).toEqual([
      { container: 'audit', plugin: 'audit.example.com', socket: '/plugins/audit.example.com' },
      { container: 'cnpg-i-hello-world', plugin: 'cnpg-i-hello-world.cloudnative-pg.io', socket: '/plugins/cnpg-i-hello-world.cloudnative-pg.io' },
    ]);
    const discovered = Doctor.analyze(chart).plugins.filter((p) => p.source === 'sidecar');
    expect(discovered.map((p) => [p.name, p.address])).toEqual([
      ['cnpg-i-hello-world.cloudnative-pg.io', 'unix:///plugins/cnpg-i-hello-world.cloudnative-pg.io'],
      ['audit.example.com', 'unix:///plugins/audit.example.com'],
    ]);
  });

  test('sidecars an annotation already names keep their names while their containers are there', () => {
    const legacy = { name: 'legacy', image: 'example.com/legacy:v1', volumeMounts: [{ name: 'cnpg-i-plugins', mountPath: '/plugins' }] };
    const pod = managerPod({
      containers: [legacy],
      volumeMounts: [{ name: 'cnpg-i-plugins', mountPath: '/plugins' }],
      volumes: [{ name: 'cnpg-i-plugins', emptyDir: {} }],
    });
    const before = JSON.stringify([
      { container: 'gone', plugin: 'gone.example.com', socket: '/plugins/gone.example.com' },
      { container: 'legacy', plugin: 'legacy.example.com', socket: '/plugins/legacy.example.com' },
    ]);
    const chart = Testing.chart();
    const deployment = plainDeployment(chart, pod);
    deployment.metadata.addAnnotation('cnpg-i.dev/sidecar-plugins', before);
    new SidecarPlugin(chart, 'hello', { operator: OperatorDeployment.fromApiObject(deployment), ...HELLO });
    const out = Testing.synth(chart).find((o) => o.kind === 'Deployment');
    expect(JSON.parse(out.metadata.annotations['cnpg-i.dev/sidecar-plugins']).map((e: any) => `${e.container}=${e.plugin}`)).toEqual([
      'cnpg-i-hello-world=cnpg-i-hello-world.cloudnative-pg.io',
      'legacy=legacy.example.com',
    ]);
    // an annotation it cannot read is replaced
    const chart2 = Testing.chart();
    const unreadable = plainDeployment(chart2);
    unreadable.metadata.addAnnotation('cnpg-i.dev/sidecar-plugins', 'legacy=legacy.example.com');
    new SidecarPlugin(chart2, 'hello', { operator: OperatorDeployment.fromApiObject(unreadable), ...HELLO });
    expect(JSON.parse(Testing.synth(chart2)[0].metadata.annotations['cnpg-i.dev/sidecar-plugins']).map((e: any) => e.container)).toEqual([
      'cnpg-i-hello-world',
    ]);
  });

  test('synthesis fails when a Deployment drops the annotation', () => {
    class Unannotated extends ApiObject {
      public toJson(): any {
        const json = super.toJson();
        delete json.metadata.annotations;
        return json;
      }
    }
    const chart = Testing.chart();
    const deployment = new Unannotated(chart, 'Operator', plainDeployment(Testing.chart()).toJson());
    new SidecarPlugin(chart, 'hello', { operator: OperatorDeployment.fromApiObject(deployment), ...HELLO });
    expect(() => Testing.synth(chart)).toThrow(
      "Validation failed with the following errors:\n  [test/hello] annotation cnpg-i.dev/sidecar-plugins does not name container 'cnpg-i-hello-world' in the synthesized Deployment",
    );
  });

  test('a plain JSON patch on a generated L1 loses its quantities (cdk8s issue 2172), which is why SidecarPlugin does not use one', () => {
    const chart = Testing.chart();
    const l1 = new kplus.k8s.KubeDeployment(chart, 'Operator', {
      spec: { selector: {}, template: { spec: { containers: [{ name: 'manager', image: 'x' }] } } },
    });
    l1.addJsonPatch(JsonPatch.add('/spec/template/spec/containers/-', { name: 'naive', image: 'y', resources: { limits: { memory: '256Mi' } } }));
    expect(container(Testing.synth(chart)[0].spec.template.spec, 'naive').resources).toEqual({ limits: {} });
  });

  test('synthesis fails, naming what was lost, when a Deployment drops added fields', () => {
    class Lossy extends ApiObject {
      public toJson(): any {
        const json = super.toJson();
        for (const c of json.spec.template.spec.containers) delete c.securityContext;
        return json;
      }
    }
    const chart = Testing.chart();
    const lossy = new Lossy(chart, 'Operator', plainDeployment(Testing.chart()).toJson());
    new SidecarPlugin(chart, 'hello', { operator: OperatorDeployment.fromApiObject(lossy), ...HELLO });
    expect(() => Testing.synth(chart)).toThrow(
      "Validation failed with the following errors:\n  [test/hello] container 'cnpg-i-hello-world' lost /securityContext in synthesis; " +
        "the Deployment's toJson drops fields it does not know (cdk8s issue 2172), use OperatorDeployment.fromApiObject on a plain ApiObject",
    );
  });

  test('on a cdk8s-plus Deployment the plugin container gets no cdk8s-plus defaults (no probe, no extra resources)', () => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromDeployment(kplusOperator(chart));
    new SidecarPlugin(chart, 'hello', { operator, ...HELLO });
    expect(container(podOf(Testing.synth(chart)), 'cnpg-i-hello-world')).toEqual(helloContainer());
  });
});

describe('SidecarPlugin defaults', () => {
  test('socket directory /plugins, one emptyDir, no PLUGIN_SOCKET_DIR, restricted uid/gid 10001, IfNotPresent, --plugin-path, default resources', () => {
    const chart = Testing.chart();
    const plugin = new SidecarPlugin(chart, 'hello', { operator: OperatorDeployment.fromApiObject(plainDeployment(chart)), ...HELLO });
    const pod = podOf(Testing.synth(chart));
    expect(container(pod, 'cnpg-i-hello-world')).toEqual(helloContainer());
    expect(pod.volumes).toEqual([{ emptyDir: {}, name: 'cnpg-i-plugins' }]);
    expect(container(pod, 'manager').volumeMounts).toEqual([{ mountPath: '/plugins', name: 'cnpg-i-plugins' }]);
    expect(container(pod, 'manager').env.map((e: any) => e.name)).toEqual(['OPERATOR_NAMESPACE']);
    expect(plugin.socketDir).toBe('/plugins');
    expect(plugin.socketPath).toBe('/plugins/cnpg-i-hello-world.cloudnative-pg.io');
    expect(plugin.containerName).toBe('cnpg-i-hello-world');
    expect(plugin.volumeName).toBe('cnpg-i-plugins');
  });

  test('without args the container only gets the socket directory flag', () => {
    const chart = Testing.chart();
    new SidecarPlugin(chart, 'p', { operator: OperatorDeployment.fromApiObject(plainDeployment(chart)), pluginName: 'p.example.com', image: 'p:1' });
    expect(container(podOf(Testing.synth(chart)), 'p').args).toEqual(['--plugin-path=/plugins']);
  });
});

describe('SidecarPlugin options', () => {
  function render(options: Partial<SidecarPluginOptions>, pod = managerPod()): any {
    const chart = Testing.chart();
    new SidecarPlugin(chart, 'hello', { operator: OperatorDeployment.fromApiObject(plainDeployment(chart, pod)), ...HELLO, ...options });
    return podOf(Testing.synth(chart));
  }

  test('envVariables keep their order, resources (one quantity rendering: 1Gi), securityContext, imagePullPolicy and containerName are used as given', () => {
    const pod = render({
      envVariables: { B: kplus.EnvValue.fromValue('2'), A: kplus.EnvValue.fromValue('1') },
      resources: {
        cpu: { request: kplus.Cpu.millis(10), limit: kplus.Cpu.units(1) },
        memory: { limit: Size.gibibytes(1) },
        ephemeralStorage: { request: Size.gibibytes(1) },
      },
      securityContext: { user: 2000, group: 3000 },
      imagePullPolicy: kplus.ImagePullPolicy.ALWAYS,
      containerName: 'hello',
    });
    const c = container(pod, 'hello');
    expect(c.env).toEqual([
      { name: 'B', value: '2' },
      { name: 'A', value: '1' },
    ]);
    expect(c.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '10m', 'ephemeral-storage': '1Gi' } });
    expect(c.securityContext).toEqual({ ...RESTRICTED, runAsUser: 2000, runAsGroup: 3000 });
    expect(c.imagePullPolicy).toBe('Always');
  });

  test('empty resources render no resources', () => {
    expect(container(render({ resources: {} }), 'cnpg-i-hello-world').resources).toBeUndefined();
  });

  test('pluginPathFlag picks the flag or passes nothing', () => {
    expect(container(render({ pluginPathFlag: PluginPathFlag.flag('--socket-dir') }), 'cnpg-i-hello-world').args).toEqual(['plugin', '--socket-dir=/plugins']);
    expect(container(render({ pluginPathFlag: PluginPathFlag.none() }), 'cnpg-i-hello-world').args).toEqual(['plugin']);
    expect(
      container(render({ image: 'ghcr.io/example/socket-plugin:v1.0.0', pluginPathFlag: PluginPathFlag.none(), args: [] }), 'cnpg-i-hello-world').args,
    ).toBeUndefined();
    expect(container(render({ pluginPathFlag: PluginPathFlag.none(), args: ['plugin', '--plugin-path=/plugins'] }), 'cnpg-i-hello-world').args).toEqual([
      'plugin',
      '--plugin-path=/plugins',
    ]);
  });

  test('a PLUGIN_SOCKET_DIR already equal to socketDir is kept, not repeated', () => {
    const pod = render({ socketDir: '/sockets' }, managerPod({ env: [{ name: 'PLUGIN_SOCKET_DIR', value: '/sockets' }] }));
    expect(container(pod, 'manager').env.filter((e: any) => e.name === 'PLUGIN_SOCKET_DIR')).toEqual([{ name: 'PLUGIN_SOCKET_DIR', value: '/sockets' }]);
  });

  test('an emptyDir the manager already mounts at the socket directory is shared, not doubled', () => {
    const pod = render(
      {},
      managerPod({
        volumeMounts: [{ name: 'sockets', mountPath: '/plugins' }],
        volumes: [{ name: 'sockets', emptyDir: { medium: 'Memory' } }],
      }),
    );
    expect(pod.volumes).toEqual([{ name: 'sockets', emptyDir: { medium: 'Memory' } }]);
    expect(container(pod, 'manager').volumeMounts).toEqual([{ name: 'sockets', mountPath: '/plugins' }]);
    expect(container(pod, 'cnpg-i-hello-world').volumeMounts).toEqual([{ name: 'sockets', mountPath: '/plugins' }]);
  });

  test("the manager's other containers, volumes, mounts and env are untouched", () => {
    const before = managerPod({
      containers: [{ name: 'proxy', image: 'proxy:1' }],
      env: [{ name: 'WATCH_NAMESPACE', value: '' }],
      volumeMounts: [{ name: 'scratch', mountPath: '/controller' }],
      volumes: [{ name: 'scratch', emptyDir: {} }],
    });
    const pod = render({ socketDir: '/run/cnpg-i' }, JSON.parse(JSON.stringify(before)));
    expect(container(pod, 'proxy')).toEqual({ name: 'proxy', image: 'proxy:1' });
    expect(pod.volumes).toEqual([...before.volumes, { name: 'cnpg-i-plugins', emptyDir: {} }]);
    const manager = container(pod, 'manager');
    const was = container(before, 'manager');
    expect(manager.env).toEqual([...was.env, { name: 'PLUGIN_SOCKET_DIR', value: '/run/cnpg-i' }]);
    expect(manager.volumeMounts).toEqual([...was.volumeMounts, { name: 'cnpg-i-plugins', mountPath: '/run/cnpg-i' }]);
    const { env: _e, volumeMounts: _m, ...rest } = manager;
    const { env: _we, volumeMounts: _wm, ...wasRest } = was;
    expect(rest).toEqual(wasRest);
  });
});

describe('several sidecar plugins on one operator', () => {
  test('share the one volume and the one mount on the manager', () => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart));
    new SidecarPlugin(chart, 'a', { operator, pluginName: 'a.example.com', image: 'a:1', socketDir: '/sockets' });
    new SidecarPlugin(chart, 'b', { operator, pluginName: 'b.example.com', image: 'b:1', socketDir: '/sockets' });
    const pod = podOf(Testing.synth(chart));
    expect(pod.volumes).toEqual([{ emptyDir: {}, name: 'cnpg-i-plugins' }]);
    expect(container(pod, 'manager').volumeMounts).toEqual([{ mountPath: '/sockets', name: 'cnpg-i-plugins' }]);
    expect(container(pod, 'manager').env.filter((e: any) => e.name === 'PLUGIN_SOCKET_DIR')).toHaveLength(1);
    expect(pod.containers.map((c: any) => c.name)).toEqual(['manager', 'a', 'b']);
    expect(container(pod, 'b').volumeMounts).toEqual([{ mountPath: '/sockets', name: 'cnpg-i-plugins' }]);
  });

  test('on a cdk8s-plus Deployment too', () => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromDeployment(kplusOperator(chart));
    new SidecarPlugin(chart, 'a', { operator, pluginName: 'a.example.com', image: 'a:1' });
    new SidecarPlugin(chart, 'b', { operator, pluginName: 'b.example.com', image: 'b:1' });
    const pod = podOf(Testing.synth(chart));
    expect(pod.volumes).toEqual([{ emptyDir: {}, name: 'cnpg-i-plugins' }]);
    expect(container(pod, 'manager').volumeMounts).toEqual([{ mountPath: '/plugins', name: 'cnpg-i-plugins' }]);
  });

  test('two with the same plugin name are an error', () => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart));
    new SidecarPlugin(chart, 'a', { operator, ...HELLO });
    expect(() => new SidecarPlugin(chart, 'b', { operator, ...HELLO, containerName: 'other' })).toThrow(
      "test/b: pluginName 'cnpg-i-hello-world.cloudnative-pg.io' is already a sidecar plugin of test/Operator (test/a); " +
        'the socket file name is the plugin name, so it must be unique; add each plugin once, or give the plugins different names',
    );
  });

  test('the same name through two references to one Deployment is still caught', () => {
    const chart = Testing.chart();
    const deployment = plainDeployment(chart);
    new SidecarPlugin(chart, 'a', { operator: OperatorDeployment.fromApiObject(deployment), ...HELLO });
    expect(() => new SidecarPlugin(chart, 'b', { operator: OperatorDeployment.fromApiObject(deployment), ...HELLO, containerName: 'other' })).toThrow(
      CnpgIValidationError,
    );
  });

  test('disagreeing socket directories are an error', () => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart));
    new SidecarPlugin(chart, 'a', { operator, pluginName: 'a.example.com', image: 'a:1' });
    expect(() => new SidecarPlugin(chart, 'b', { operator, pluginName: 'b.example.com', image: 'b:1', socketDir: '/other' })).toThrow(
      "test/b: socketDir '/other' differs from '/plugins' used by test/a; the operator lists one socket directory; use socketDir '/plugins' for every sidecar plugin of this operator",
    );
  });

  test('a container name taken by another sidecar is an error', () => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart));
    new SidecarPlugin(chart, 'a', { operator, pluginName: 'x.example.com', image: 'a:1' });
    expect(() => new SidecarPlugin(chart, 'b', { operator, pluginName: 'x.other.org', image: 'b:1' })).toThrow(
      "test/b: containerName 'x' is already a container of the operator Deployment; set containerName to another name",
    );
  });
});

describe('conflicts with the manager container', () => {
  function add(pod: any, options: Partial<SidecarPluginOptions> = {}): () => void {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart, pod));
    return () => new SidecarPlugin(chart, 'hello', { operator, ...HELLO, ...options });
  }

  test('socketDir differing from PLUGIN_SOCKET_DIR on the manager', () => {
    expect(add(managerPod({ env: [{ name: 'PLUGIN_SOCKET_DIR', value: '/sockets' }] }))).toThrow(
      "test/hello: socketDir '/plugins' differs from PLUGIN_SOCKET_DIR '/sockets' already set on manager container 'manager'; the operator only lists that directory; set socketDir to '/sockets'",
    );
  });

  test('PLUGIN_SOCKET_DIR from valueFrom', () => {
    expect(add(managerPod({ env: [{ name: 'PLUGIN_SOCKET_DIR', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }] }))).toThrow(
      "test/hello: socketDir '/plugins' cannot be checked: PLUGIN_SOCKET_DIR on manager container 'manager' comes from valueFrom; set PLUGIN_SOCKET_DIR to a plain value on the manager",
    );
  });

  test('a read-only mount at the socket directory', () => {
    expect(add(managerPod({ volumeMounts: [{ name: 's', mountPath: '/plugins', readOnly: true }], volumes: [{ name: 's', emptyDir: {} }] }))).toThrow(
      "test/hello: socketDir '/plugins' is where the manager already mounts volume 's', which is read-only; sockets need a writable emptyDir shared with the plugin; choose another socketDir or change that mount",
    );
  });

  test('a subPath mount at the socket directory', () => {
    expect(add(managerPod({ volumeMounts: [{ name: 's', mountPath: '/plugins', subPath: 'x' }], volumes: [{ name: 's', emptyDir: {} }] }))).toThrow(
      "test/hello: socketDir '/plugins' is where the manager already mounts volume 's', which is a subPath; sockets need a writable emptyDir shared with the plugin; choose another socketDir or change that mount",
    );
  });

  test('a Secret mounted at the socket directory', () => {
    expect(add(managerPod({ volumeMounts: [{ name: 's', mountPath: '/plugins' }], volumes: [{ name: 's', secret: { secretName: 's' } }] }))).toThrow(
      "test/hello: socketDir '/plugins' is where the manager already mounts volume 's', which is not an emptyDir; sockets need a writable emptyDir shared with the plugin; choose another socketDir or change that mount",
    );
  });

  test('a volume already named cnpg-i-plugins but mounted elsewhere', () => {
    expect(
      add(managerPod({ volumeMounts: [{ name: 'cnpg-i-plugins', mountPath: '/elsewhere' }], volumes: [{ name: 'cnpg-i-plugins', emptyDir: {} }] })),
    ).toThrow(
      "test/hello: socketDir '/plugins' is not where the manager mounts the existing volume 'cnpg-i-plugins'; set socketDir to where the manager mounts 'cnpg-i-plugins', or rename that volume",
    );
  });

  test('a container name the pod already has', () => {
    expect(add(managerPod(), { containerName: 'manager' })).toThrow(
      "test/hello: containerName 'manager' is already a container of the operator Deployment; set containerName to another name",
    );
  });
});

describe('input validation', () => {
  function make(options: any): () => void {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart));
    return () => new SidecarPlugin(chart, 'hello', { operator, ...HELLO, ...options });
  }

  test.each<[string, any, string]>([
    [
      'pluginName upper case',
      { pluginName: 'Hello.example.com' },
      "test/hello: pluginName 'Hello.example.com' is not a lower-case DNS subdomain (RFC 1123); use 'hello.example.com'",
    ],
    [
      'pluginName missing',
      { pluginName: undefined },
      "test/hello: props [\"operator\",\"image\",\"args\"] lacks the required key 'pluginName'; pass e.g. { operator, pluginName: 'cnpg-i-hello-world.cloudnative-pg.io', image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0', args: ['plugin'] }",
    ],
    [
      'image missing',
      { image: undefined },
      "test/hello: props [\"operator\",\"pluginName\",\"args\"] lacks the required key 'image'; pass e.g. { operator, pluginName: 'cnpg-i-hello-world.cloudnative-pg.io', image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0', args: ['plugin'] }",
    ],
    [
      'image with spaces',
      { image: 'a b' },
      "test/hello: image 'a b' contains white space; use an image reference such as ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0",
    ],
    ['args not an array', { args: 'plugin' }, "test/hello: args 'plugin' must be an array of strings, not a string; pass ['a', 'b']"],
    [
      'env value not a string',
      { env: { PORT: 1 } },
      'test/hello: props.env {"PORT":1} is not a key of props: it was renamed; use \'envVariables\' (the cdk8s-plus name)',
    ],
    [
      'env name with =',
      { env: { 'A=B': 'x' } },
      'test/hello: props.env {"A=B":"x"} is not a key of props: it was renamed; use \'envVariables\' (the cdk8s-plus name)',
    ],
    [
      'imagePullPolicy unknown',
      { imagePullPolicy: 'Sometimes' },
      "test/hello: imagePullPolicy 'Sometimes' is not a kplus.ImagePullPolicy; use one of kplus.ImagePullPolicy.ALWAYS, kplus.ImagePullPolicy.IF_NOT_PRESENT, kplus.ImagePullPolicy.NEVER",
    ],
    ['user 0', { user: 0 }, "test/hello: props.user 0 is not a key of props: it was renamed; use 'securityContext.user' (the cdk8s-plus name)"],
    [
      'group not a number',
      { group: '10001' },
      "test/hello: props.group '10001' is not a key of props: it was renamed; use 'securityContext.group' (the cdk8s-plus name)",
    ],
    [
      'resources not an object',
      { resources: 'small' },
      "test/hello: resources 'small' must be an object, not a string; pass an object with any of cpu, ephemeralStorage, memory",
    ],
    [
      'resources cpu as a string',
      { resources: { cpu: { request: '100m' } } },
      "test/hello: resources.cpu.request '100m' must be a cdk8s-plus Cpu, not a string; use Cpu.millis(500) or Cpu.units(1)",
    ],
    [
      'resources memory not an object',
      { resources: { memory: 5 } },
      'test/hello: resources.memory 5 must be an object, not a number; pass an object with any of limit, request',
    ],
    [
      'a resource key that does not exist',
      { resources: { memroy: { limit: Size.gibibytes(1) } } as any },
      'test/hello: resources.memroy {"limit":{"amount":1,"unit":{"label":"gibibytes","inKibiBytes":1048576,"abbr":"Gi"}}} is not a declared key of resources; did you mean \'memory\'?',
    ],
    [
      'an image on :latest',
      { image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:latest' },
      "test/hello: image 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:latest' uses the latest tag, which moves under a running Deployment; pin a release tag or a digest, e.g. ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0",
    ],
    [
      'the hello-world image without its subcommand',
      { args: [] },
      "test/hello: args [] does not name the 'plugin' subcommand that image ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0 needs (without it, the plugin prints its help and exits); start args with 'plugin', e.g. args: ['plugin']",
    ],
    [
      'the hello-world image under another plugin name',
      { pluginName: 'hello.example.com' },
      "test/hello: pluginName 'hello.example.com' differs from the name image ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0 reports about itself ('cnpg-i-hello-world.cloudnative-pg.io'); the operator would find no plugin named 'hello.example.com', so Clusters naming it get no sidecar and no archiving; use pluginName: 'cnpg-i-hello-world.cloudnative-pg.io', or the HelloWorldPlugin preset",
    ],
    [
      'socketDir relative',
      { socketDir: 'plugins' },
      "test/hello: socketDir 'plugins' is not an absolute path of plain segments (letters, digits, '.', '_' and '-'; no '.', '..', empty or trailing segments); use an absolute directory of plain segments such as '/plugins'",
    ],
    [
      'socketDir root',
      { socketDir: '/' },
      "test/hello: socketDir '/' is not an absolute path of plain segments (letters, digits, '.', '_' and '-'; no '.', '..', empty or trailing segments); use an absolute directory of plain segments such as '/plugins'",
    ],
    [
      'socketDir trailing slash',
      { socketDir: '/plugins/' },
      "test/hello: socketDir '/plugins/' is not an absolute path of plain segments (letters, digits, '.', '_' and '-'; no '.', '..', empty or trailing segments); use an absolute directory of plain segments such as '/plugins'",
    ],
    [
      'socketDir with ..',
      { socketDir: '/run/../plugins' },
      "test/hello: socketDir '/run/../plugins' is not an absolute path of plain segments (letters, digits, '.', '_' and '-'; no '.', '..', empty or trailing segments); use an absolute directory of plain segments such as '/plugins'",
    ],
    ['socketDir not a string', { socketDir: 5 }, "test/hello: socketDir 5 must be a string, not a number; use an absolute directory such as '/plugins'"],
    [
      'socket path too long',
      { socketDir: `/${'d'.repeat(80)}` },
      `test/hello: socketDir '/${'d'.repeat(80)}' makes the socket path '/${'d'.repeat(80)}/cnpg-i-hello-world.cloudnative-pg.io' 118 characters long; a Unix socket path holds at most 107; use a shorter socketDir`,
    ],
    [
      'args already pass the flag',
      { args: ['plugin', '--plugin-path=/x'] },
      "test/hello: args '--plugin-path=/x' already passes --plugin-path, which the sidecar sets from socketDir; remove it from args and set socketDir, or set pluginPathFlag: PluginPathFlag.none()",
    ],
    [
      'pluginPathFlag not a PluginPathFlag',
      { pluginPathFlag: '--plugin-path' },
      "test/hello: pluginPathFlag '--plugin-path' must be a PluginPathFlag, not a string; use PluginPathFlag.flag('--plugin-path') or PluginPathFlag.none()",
    ],
    [
      'containerName not a DNS label',
      { containerName: 'Hello_World' },
      "test/hello: containerName 'Hello_World' is not a DNS label (RFC 1123); use lower-case letters, digits and '-', at most 63 characters",
    ],
  ])('%s', (_name, options, message) => {
    expect(make(options)).toThrow(message);
  });

  // The guard on the operator Deployment compares the quantities at synth (src/schema/guard.ts).
  test.each<[string, kplus.ContainerResources, string]>([
    ['memory', { memory: { request: Size.gibibytes(2), limit: Size.mebibytes(1024) } }, "requests.memory: is above the memory limit '1Gi'"],
    ['cpu', { cpu: { request: kplus.Cpu.units(2), limit: kplus.Cpu.millis(1500) } }, "requests.cpu: is above the cpu limit '1500m'"],
    [
      'ephemeral-storage',
      { ephemeralStorage: { request: Size.gibibytes(2), limit: Size.gibibytes(1) } },
      "requests.ephemeral-storage: is above the ephemeral-storage limit '1Gi'",
    ],
  ])('a %s request above its limit is refused at synth', (_kind, resources, message) => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart));
    new SidecarPlugin(chart, 'hello', { operator, ...HELLO, resources });
    expect(synthErrors(chart).join('\n')).toContain(message);
  });

  test('a bad flag name', () => {
    expect(() => PluginPathFlag.flag('plugin path')).toThrow(
      "PluginPathFlag.flag: name 'plugin path' is not a command line flag; pass a flag such as '--plugin-path'",
    );
    expect(() => PluginPathFlag.flag(undefined as any)).toThrow("PluginPathFlag.flag: name is not a command line flag; pass a flag such as '--plugin-path'");
  });

  test('props and operator from JavaScript', () => {
    const chart = Testing.chart();
    expect(() => new SidecarPlugin(chart, 'a', null as any)).toThrow(
      "test/a: props null must be an object, not null; pass e.g. { operator, pluginName: 'cnpg-i-hello-world.cloudnative-pg.io', image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0', args: ['plugin'] }",
    );
    expect(() => new SidecarPlugin(chart, 'b', { ...HELLO, operator: {} as any })).toThrow(
      'test/b: operator {} must be an operator Deployment, not an object; pass CnpgOperator.fromManifest(...), OperatorDeployment.fromApiObject(...) or OperatorDeployment.fromDeployment(...)',
    );
  });
});

describe('OperatorDeployment', () => {
  test('finds the manager by what it runs, not by position or name', () => {
    const chart = Testing.chart();
    const pod = managerPod({ containers: [{ name: 'manager-proxy', image: 'p', args: ['controller'] }] });
    pod.containers[1].name = 'cnpg';
    expect(OperatorDeployment.fromApiObject(plainDeployment(chart, pod)).managerContainerName).toBe('cnpg');
  });

  test('managerContainerName picks the manager explicitly', () => {
    const chart = Testing.chart();
    const pod = { containers: [{ name: 'op', image: 'x' }] };
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart, pod), { managerContainerName: 'op' });
    new SidecarPlugin(chart, 'hello', { operator, ...HELLO });
    expect(container(podOf(Testing.synth(chart)), 'op').volumeMounts).toEqual([{ mountPath: '/plugins', name: 'cnpg-i-plugins' }]);
  });

  describe('a Deployment from another cdk8s-plus major (cdk8s init installs a newer one)', () => {
    function plus33Operator(chart: Chart) {
      return new kplus33.Deployment(chart, 'operator', {
        containers: [
          {
            name: 'manager',
            image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
            command: ['/manager'],
            args: ['controller'],
            envVariables: { OPERATOR_NAMESPACE: kplus33.EnvValue.fromValue('cnpg-system') },
          },
        ],
      });
    }

    test('fromDeployment names both versions and the fix', () => {
      const deployment = plus33Operator(Testing.chart());
      const v33 = require('cdk8s-plus-33/package.json').version;
      const v28 = require('cdk8s-plus-28/package.json').version;
      expectValidationError(
        () => OperatorDeployment.fromDeployment(deployment as any),
        `OperatorDeployment.fromDeployment: deployment 'test/operator' is a cdk8s-plus-33 ${v33} Deployment, from another cdk8s-plus major than this library, which is built on cdk8s-plus-28 ${v28}; ` +
          "build the operator Deployment with cdk8s-plus-28 (npm install cdk8s-plus-28; import * as kplus from 'cdk8s-plus-28'), " +
          'or pass its ApiObject to OperatorDeployment.fromApiObject(ApiObject.of(deployment), { managerContainerName })',
      );
    });

    test('the fix it names works: the sidecar is added through the ApiObject', () => {
      const chart = Testing.chart();
      const deployment = plus33Operator(chart);
      const operator = OperatorDeployment.fromApiObject(ApiObject.of(deployment), { managerContainerName: 'manager' });
      new SidecarPlugin(chart, 'hello', { operator, ...HELLO });
      const pod = Testing.synth(chart).find((o: any) => o.kind === 'Deployment').spec.template.spec;
      expect(pod.containers.map((c: any) => c.name)).toEqual(['manager', 'cnpg-i-hello-world']);
      expect(container(pod, 'manager').volumeMounts).toEqual([{ mountPath: '/plugins', name: 'cnpg-i-plugins' }]);
    });
  });

  test('errors', () => {
    const chart = Testing.chart();
    expect(() => OperatorDeployment.fromApiObject({} as any)).toThrow(
      'OperatorDeployment.fromApiObject: deployment {} must be a cdk8s ApiObject, not an object; pass the ApiObject of the operator Deployment',
    );
    expect(() => OperatorDeployment.fromDeployment(plainDeployment(chart) as any)).toThrow(
      /^OperatorDeployment\.fromDeployment: deployment .* must be a cdk8s-plus Deployment, not an object; pass the cdk8s-plus Deployment that runs the operator$/,
    );
    const service = new ApiObject(chart, 'Svc', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } });
    expect(() => OperatorDeployment.fromApiObject(service)).toThrow(
      "test/Svc: deployment 'v1/Service s' is not an apps/v1 Deployment; pass the operator Deployment, with its pod template",
    );
    const empty = new ApiObject(chart, 'Empty', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'e' } });
    expect(() => OperatorDeployment.fromApiObject(empty)).toThrow(
      "test/Empty: deployment 'apps/v1/Deployment e' has no spec.template.spec; pass the operator Deployment, with its pod template",
    );
    const other = plainDeployment(Testing.chart(), { containers: [{ name: 'web', image: 'nginx' }] });
    expect(() => OperatorDeployment.fromApiObject(other)).toThrow(
      'test/Operator: deployment ["web"] has no container that sets OPERATOR_NAMESPACE and runs the \'controller\' subcommand, so the manager cannot be found; pass managerContainerName',
    );
    expect(() => OperatorDeployment.fromApiObject(other, { managerContainerName: 'manager' })).toThrow(
      "test/Operator: managerContainerName 'manager' is not a container of this Deployment (containers: 'web'); pass the name of the container that runs the CloudNativePG manager",
    );
    const twice = managerPod();
    twice.containers.push({ ...twice.containers[0], name: 'manager2' });
    expect(() => OperatorDeployment.fromApiObject(plainDeployment(Testing.chart(), twice))).toThrow(
      'test/Operator: deployment ["manager","manager2"] has 2 containers that look like the CloudNativePG manager; pass managerContainerName',
    );
    expect(() => OperatorDeployment.fromApiObject(plainDeployment(Testing.chart()), null as any)).toThrow(
      'OperatorDeployment.fromApiObject: options null must be an object, not null; pass an object with any of managerContainerName',
    );
  });
});

describe('Clusters reference the sidecar by IPlugin', () => {
  test("the Cluster's plugin name is the socket file name", () => {
    const chart = Testing.chart();
    const operator = CnpgOperator.fromManifest(chart, 'operator', { path: FIXTURE });
    const hello = operator.addSidecarPlugin('hello', HELLO);
    new CnpgCluster(chart, 'pg', { metadata: { name: 'pg' }, spec: { instances: 1, plugins: [{ name: hello.pluginName }] } });
    const cluster = Testing.synth(chart).find((o) => o.kind === 'Cluster');
    expect(cluster.spec.plugins).toEqual([{ name: path.posix.basename(hello.socketPath) }]);
    expect(path.posix.dirname(hello.socketPath)).toBe(hello.socketDir);
  });
});

describe('SidecarPlugin and the operator Deployment the API server must accept', () => {
  test('the operator Deployment is guarded at synth: a problem in it is reported with the sidecar path', () => {
    const chart = Testing.chart();
    const deployment = new kplus.Deployment(chart, 'operator', {
      metadata: { labels: { 'bad key!': 'x' } },
      containers: [{ name: 'manager', image: 'cnpg:1', args: ['controller'], envVariables: { OPERATOR_NAMESPACE: kplus.EnvValue.fromValue('cnpg-system') } }],
    });
    new SidecarPlugin(chart, 'hello', { ...HELLO, operator: OperatorDeployment.fromDeployment(deployment) });
    expect(() => Testing.synth(chart)).toThrow(/Validation failed with the following errors:[\s\S]*\[test\/hello\] Deployment '[^']+' metadata\.labels/);
  });

  test('a sidecar request above its limit is refused before it can reject the whole operator', () => {
    const chart = Testing.chart();
    const operator = OperatorDeployment.fromApiObject(plainDeployment(chart, managerPod()));
    new SidecarPlugin(chart, 'hello', { ...HELLO, operator, resources: { memory: { request: Size.mebibytes(512), limit: Size.mebibytes(256) } } });
    expect(synthErrors(chart).join('\n')).toContain("spec.template.spec.containers[1].resources.requests.memory: is above the memory limit '256Mi'");
  });
});

test('the sidecar constants are static members too', () => {
  expect(SidecarPlugin.DEFAULT_PLUGIN_SOCKET_DIR).toBe('/plugins');
  expect(SidecarPlugin.PLUGIN_SOCKET_DIR_ENV).toBe('PLUGIN_SOCKET_DIR');
  expect(SidecarPlugin.SIDECAR_PLUGIN_VOLUME_NAME).toBe('cnpg-i-plugins');
  expect(SidecarPlugin.DEFAULT_PLUGIN_USER_ID).toBe(10001);
});

test.each(SOURCES)('on %s, envVariables from a Secret and sizes in their one rendering survive synthesis', (_kind, make) => {
  const chart = Testing.chart();
  const operator = make(chart);
  new SidecarPlugin(chart, 'hello', {
    operator,
    ...HELLO,
    envVariables: {
      TOKEN: kplus.EnvValue.fromSecretValue({ secret: kplus.Secret.fromSecretName(chart, 'Token', 'plugin-token'), key: 'token' }),
      LEVEL: kplus.EnvValue.fromValue('debug'),
    },
    resources: { memory: { request: Size.mebibytes(512), limit: Size.gibibytes(1) } },
  });
  const deployment = Testing.synth(chart).find((o) => o.kind === 'Deployment');
  const c = deployment.spec.template.spec.containers.find((x: any) => x.name === 'cnpg-i-hello-world');
  expect(c.env).toEqual(
    expect.arrayContaining([
      { name: 'LEVEL', value: 'debug' },
      { name: 'TOKEN', valueFrom: { secretKeyRef: expect.objectContaining({ name: 'plugin-token', key: 'token' }) } },
    ]),
  );
  expect(c.resources).toEqual({ limits: { memory: '1Gi' }, requests: { memory: '512Mi' } });
});
