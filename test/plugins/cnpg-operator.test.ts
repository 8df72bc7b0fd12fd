import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as YAML from 'yaml';
import { CnpgOperator, OperatorDeployment } from '../../src';
import { clientSideApplyAnnotationsSize } from '../../src/checks/client-side-apply';
import { describeWithShared, sharedPath } from '../shared';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'operator', 'operator.yaml');
const REFERENCE = sharedPath('reference', 'cnpg-1.30.0.yaml');
const HELLO = {
  pluginName: 'cnpg-i-hello-world.cloudnative-pg.io',
  image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
  args: ['plugin'],
};

/**
 * The manifest as Kubernetes would read it, parsed independently of cdk8s (YAML 1.2 core
 * schema, the `yaml` package's default, where cdk8s `Include` reads YAML 1.1).
 */
function parse(file: string): any[] {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => d.toJSON())
    .filter((d) => d !== null && d !== undefined);
}

function key(o: any): string {
  return `${o.apiVersion} ${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

function isOperator(o: any, name: string): boolean {
  return o.kind === 'Deployment' && o.metadata.name === name;
}

/**
 * Removes exactly what a sidecar adds to the operator Deployment, so the rest can be compared
 * with the input: the plugin containers, the socket volume, its mount and PLUGIN_SOCKET_DIR on
 * the manager. Fails if an added key is not where it is expected.
 */
function withoutSidecars(deployment: any, plugins: string[], dir: string): any {
  const copy = JSON.parse(JSON.stringify(deployment));
  const pod = copy.spec.template.spec;
  for (const name of plugins) {
    const at = pod.containers.findIndex((c: any) => c.name === name);
    expect(at).toBeGreaterThan(-1);
    pod.containers.splice(at, 1);
  }
  const volume = pod.volumes.pop();
  expect(volume).toEqual({ emptyDir: {}, name: 'cnpg-i-plugins' });
  const manager = pod.containers.find((c: any) => c.name === 'manager');
  expect(manager.volumeMounts.pop()).toEqual({ mountPath: dir, name: 'cnpg-i-plugins' });
  if (dir !== '/plugins') expect(manager.env.pop()).toEqual({ name: 'PLUGIN_SOCKET_DIR', value: dir });
  // the sidecars named for the doctor, on the Deployment (its pod template gains no annotation)
  const annotations = copy.metadata.annotations;
  expect(JSON.parse(annotations['cnpg-i.dev/sidecar-plugins']).map((e: any) => [e.container, e.socket.slice(0, e.socket.lastIndexOf('/'))])).toEqual(
    [...plugins].sort().map((c) => [c, dir]),
  );
  delete annotations['cnpg-i.dev/sidecar-plugins'];
  if (Object.keys(annotations).length === 0) delete copy.metadata.annotations;
  return copy;
}

const SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';

/** The object without the sync options annotation the library adds to objects too large for client-side apply. */
function withoutSyncOptions(o: any): any {
  if (o.metadata.annotations?.[SYNC_OPTIONS] === undefined) return o;
  const copy = JSON.parse(JSON.stringify(o));
  delete copy.metadata.annotations[SYNC_OPTIONS];
  if (Object.keys(copy.metadata.annotations).length === 0) delete copy.metadata.annotations;
  return copy;
}

/** Writes a variant of the fixture to a temporary file. */
function variant(edit: (docs: any[]) => any[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cnpg-operator-test-'));
  const file = path.join(dir, 'operator.yaml');
  fs.writeFileSync(
    file,
    edit(parse(FIXTURE))
      .map((d) => YAML.stringify(d))
      .join('---\n'),
  );
  return file;
}

describe('CnpgOperator.fromManifest on a small operator manifest', () => {
  test('finds the operator Deployment, its namespace and manager', () => {
    const chart = Testing.chart();
    const operator = CnpgOperator.fromManifest(chart, 'operator', { path: FIXTURE });
    expect(operator.namespace).toBe('pg-operator');
    expect(operator.deployment.name).toBe('pg-operator-controller');
    expect(operator.deployment.node.path).toBe('test/operator/Resource/pg-operator-controller-deployment-pg-operator');
    expect(operator.managerContainerName).toBe('manager');
    expect(operator.apiObjects.map((o) => o.kind)).toEqual([
      'Namespace',
      'CustomResourceDefinition',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'ConfigMap',
      'Service',
      'Deployment',
      'MutatingWebhookConfiguration',
      'ValidatingWebhookConfiguration',
    ]);
    expect(operator.sidecarPlugins).toEqual([]);
  });

  test('without sidecars every object comes out as it went in, in the same order', () => {
    const chart = Testing.chart();
    CnpgOperator.fromManifest(chart, 'operator', { path: FIXTURE });
    expect(Testing.synth(chart)).toEqual(parse(FIXTURE));
  });

  test('cdk8s Include drops null values and empty metadata maps, as documented (no change in meaning)', () => {
    const file = variant((docs) => {
      const deployment = docs.find((d) => d.kind === 'Deployment');
      deployment.spec.template.metadata.creationTimestamp = null;
      deployment.metadata.annotations = {};
      return docs;
    });
    const chart = Testing.chart();
    CnpgOperator.fromManifest(chart, 'operator', { path: file });
    expect(Testing.synth(chart)).toEqual(parse(FIXTURE));
  });

  test('the example of the sidecar-plugins guide', () => {
    const chart = Testing.chart();
    const operator = CnpgOperator.fromManifest(chart, 'operator', { path: FIXTURE });
    const hello = operator.addSidecarPlugin('hello', HELLO);
    expect(hello.socketPath).toBe('/plugins/cnpg-i-hello-world.cloudnative-pg.io');
    expect(operator.sidecarPlugins).toEqual([hello]);
    expect(Testing.synth(chart)).toMatchSnapshot();
  });

  test.each(['/plugins', '/run/cnpg-i'])('with sidecars in %s, only the Deployment changes, and only by the added keys', (dir) => {
    const chart = Testing.chart();
    const operator = CnpgOperator.fromManifest(chart, 'operator', { path: FIXTURE });
    operator.addSidecarPlugin('hello', { ...HELLO, socketDir: dir });
    operator.addSidecarPlugin('other', { pluginName: 'other.example.com', image: 'example.com/other:1', socketDir: dir });
    const out = Testing.synth(chart);
    const input = parse(FIXTURE);
    expect(out.map(key)).toEqual(input.map(key));
    out.forEach((o, i) => {
      if (isOperator(o, 'pg-operator-controller')) {
        expect(withoutSidecars(o, ['cnpg-i-hello-world', 'other'], dir)).toEqual(input[i]);
      } else {
        expect(o).toEqual(input[i]);
      }
    });
  });

  test('finds the operator by what it runs, not by its position or names', () => {
    const file = variant((docs) => {
      const operator = docs.find((d) => d.kind === 'Deployment');
      operator.metadata.name = 'postgres-operator';
      const manager = operator.spec.template.spec.containers[0];
      operator.spec.template.spec.containers = [
        { name: 'manager', image: 'example.com/proxy:1', command: ['/manager'] },
        { ...manager, name: 'cnpg' },
      ];
      const decoy = {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'pg-operator' },
        spec: { template: { spec: { containers: [{ name: 'manager', image: 'nginx', args: ['controller'] }] } } },
      };
      return [decoy, ...docs];
    });
    const chart = Testing.chart();
    const operator = CnpgOperator.fromManifest(chart, 'operator', { path: file });
    expect(operator.deployment.name).toBe('postgres-operator');
    expect(operator.managerContainerName).toBe('cnpg');
    operator.addSidecarPlugin('hello', HELLO);
    const pod = Testing.synth(chart).find((o) => o.metadata.name === 'postgres-operator').spec.template.spec;
    expect(pod.containers.map((c: any) => c.name)).toEqual(['manager', 'cnpg', 'cnpg-i-hello-world']);
    expect(pod.containers[1].volumeMounts).toContainEqual({ mountPath: '/plugins', name: 'cnpg-i-plugins' });
    expect(pod.containers[0].volumeMounts).toBeUndefined();
  });

  test('a manifest without namespaces takes the namespace prop, or the chart namespace', () => {
    const file = variant((docs) =>
      docs.map((d) => {
        delete d.metadata.namespace;
        return d;
      }),
    );
    const operator = CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: file, namespace: 'databases' });
    expect(operator.namespace).toBe('databases');
    const chart = new Chart(Testing.app(), 'c', { namespace: 'from-chart' });
    expect(CnpgOperator.fromManifest(chart, 'operator', { path: file }).namespace).toBe('from-chart');
  });

  test('a namespace prop equal to the manifest is accepted', () => {
    expect(CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: FIXTURE, namespace: 'pg-operator' }).namespace).toBe('pg-operator');
  });
});

describe('CnpgOperator.fromManifest and client-side apply', () => {
  /** A ConfigMap whose annotations, once client-side apply records it, come to `total` bytes. */
  function configMap(name: string, total: number, annotations?: Record<string, string>): any {
    const o: any = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'cnpg-system', ...(annotations && { annotations }) },
      data: { big: '' },
    };
    o.data.big = 'x'.repeat(total - clientSideApplyAnnotationsSize(o));
    expect(clientSideApplyAnnotationsSize(o)).toBe(total);
    return o;
  }

  test('an object over 262144 bytes gains ServerSideApply=true, appended to its sync options; one at the limit does not', () => {
    const file = variant((docs) => [
      ...docs,
      configMap('over', 262145),
      configMap('over-with-options', 262145, { [SYNC_OPTIONS]: 'Prune=false' }),
      configMap('at-limit', 262144),
    ]);
    const out = Testing.synth(
      (() => {
        const chart = Testing.chart();
        CnpgOperator.fromManifest(chart, 'operator', { path: file });
        return chart;
      })(),
    );
    const options = (name: string) => out.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name)?.metadata.annotations?.[SYNC_OPTIONS];
    expect(options('over')).toBe('ServerSideApply=true');
    expect(options('over-with-options')).toBe('Prune=false,ServerSideApply=true');
    expect(options('at-limit')).toBeUndefined();
  });
});

describe('CnpgOperator.fromManifest errors', () => {
  const relative = path.relative(process.cwd(), FIXTURE);

  test('a manifest without an operator Deployment', () => {
    const file = variant((docs) => docs.filter((d) => d.kind !== 'Deployment'));
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: file })).toThrow(
      `test/operator: path '${file}' has no CloudNativePG operator Deployment (an apps/v1 Deployment with a container that sets OPERATOR_NAMESPACE and runs the 'controller' subcommand); pass the CloudNativePG release manifest (cnpg-<version>.yaml)`,
    );
  });

  test('a manifest with two operator Deployments', () => {
    const file = variant((docs) => {
      const copy = JSON.parse(JSON.stringify(docs.find((d) => d.kind === 'Deployment')));
      copy.metadata.namespace = 'second';
      return [...docs, copy];
    });
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: file })).toThrow(
      `test/operator: path '${file}' has 2 CloudNativePG operator Deployments (pg-operator/pg-operator-controller, second/pg-operator-controller); keep one operator per manifest, or load it with Include and use OperatorDeployment.fromApiObject on the one you mean`,
    );
  });

  test('an operator Deployment with two manager containers', () => {
    const file = variant((docs) => {
      const pod = docs.find((d) => d.kind === 'Deployment').spec.template.spec;
      pod.containers.push({ ...pod.containers[0], name: 'manager-2' });
      return docs;
    });
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: file })).toThrow(
      `test/operator: path '${file}' has an operator Deployment pg-operator/pg-operator-controller with 2 manager containers ('manager', 'manager-2'); keep one manager container, or use OperatorDeployment.fromApiObject with managerContainerName`,
    );
  });

  test('a URL', () => {
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: 'https://example.com/cnpg-1.30.0.yaml' })).toThrow(
      "test/operator: path 'https://example.com/cnpg-1.30.0.yaml' is a URL; synthesis would depend on the network; download the manifest into your repository and pass the path of the operator release manifest, such as 'vendor/cnpg-1.30.0.yaml'",
    );
  });

  test('a missing file', () => {
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: `${relative}.missing` })).toThrow(
      `test/operator: path '${relative}.missing' is not a file (relative paths start at the working directory ${process.cwd()}); pass the path of the operator release manifest, such as 'vendor/cnpg-1.30.0.yaml'`,
    );
  });

  test('props and path from JavaScript', () => {
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', undefined as any)).toThrow(
      "test/operator: props is missing: it must be an object; pass e.g. { path: 'vendor/cnpg-1.30.0.yaml' }",
    );
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: 42 as any })).toThrow(
      "test/operator: path 42 must be a string, not a number; pass the path of the operator release manifest, such as 'vendor/cnpg-1.30.0.yaml'",
    );
  });

  test('a namespace that is not a namespace name', () => {
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: FIXTURE, namespace: 'PG' })).toThrow(
      "test/operator: namespace 'PG' is not a namespace name (RFC 1123 label); use lower-case letters, digits and '-', such as 'cnpg-system'",
    );
  });

  test('a namespace that disagrees with the manifest', () => {
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: FIXTURE, namespace: 'cnpg-system' })).toThrow(
      "test/operator: namespace 'cnpg-system' differs from 'pg-operator', where the manifest puts the operator Deployment; drop namespace (the operator runs in 'pg-operator') or change the manifest",
    );
  });

  test('no namespace anywhere', () => {
    const file = variant((docs) =>
      docs.map((d) => {
        delete d.metadata.namespace;
        return d;
      }),
    );
    expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: file })).toThrow(
      "has an operator Deployment pg-operator-controller without metadata.namespace, so the operator's namespace cannot be known; pass namespace (the namespace you apply the manifest to)",
    );
  });
});

describeWithShared('CnpgOperator.fromManifest on the CloudNativePG 1.30.0 release manifest', () => {
  // Parsed once (the file is over a megabyte), in beforeAll: jest runs describe bodies while collecting.
  let input: any[];
  beforeAll(() => {
    input = parse(REFERENCE);
  });

  test('without sidecars, all objects (CRDs, RBAC, webhooks) come out deep-equal and in order', () => {
    const chart = Testing.chart();
    const operator = CnpgOperator.fromManifest(chart, 'operator', { path: REFERENCE });
    expect(operator.namespace).toBe('cnpg-system');
    expect(operator.deployment.name).toBe('cnpg-controller-manager');
    expect(operator.managerContainerName).toBe('manager');
    const out = Testing.synth(chart);
    expect(out.length).toBe(input.length);
    expect(out.map(key)).toEqual(input.map(key));
    // the two CRDs client-side apply cannot store ask Argo CD for server-side apply, and only they
    const asked = out.filter((o) => o.metadata.annotations?.[SYNC_OPTIONS] !== undefined);
    expect(asked.map((o) => [o.metadata.name, o.metadata.annotations[SYNC_OPTIONS]])).toEqual([
      ['clusters.postgresql.cnpg.io', 'ServerSideApply=true'],
      ['poolers.postgresql.cnpg.io', 'ServerSideApply=true'],
    ]);
    out.forEach((o, i) => expect(withoutSyncOptions(o)).toEqual(input[i]));
  });

  test.each(['/plugins', '/run/cnpg-i'])('with the hello-world sidecar in %s', (dir) => {
    const chart = Testing.chart();
    const operator = CnpgOperator.fromManifest(chart, 'operator', { path: REFERENCE });
    const hello = operator.addSidecarPlugin('hello', { ...HELLO, socketDir: dir });
    const out = Testing.synth(chart);
    expect(out.map(key)).toEqual(input.map(key));

    const at = out.findIndex((o) => isOperator(o, 'cnpg-controller-manager'));
    const pod = out[at].spec.template.spec;
    const before = input[at].spec.template.spec;
    const plugin = pod.containers.find((c: any) => c.name === 'cnpg-i-hello-world');
    const manager = pod.containers.find((c: any) => c.name === 'manager');
    expect(plugin.image).toBe(HELLO.image);
    expect(plugin.args).toEqual(['plugin', `--plugin-path=${dir}`]);
    expect(pod.volumes).toContainEqual({ emptyDir: {}, name: 'cnpg-i-plugins' });
    expect(plugin.volumeMounts).toEqual([{ mountPath: dir, name: 'cnpg-i-plugins' }]);
    expect(manager.volumeMounts).toContainEqual({ mountPath: dir, name: 'cnpg-i-plugins' });
    expect(`${dir}/${hello.pluginName}`).toBe(hello.socketPath);
    // the manager's own env and mounts are kept, in order, before the additions
    expect(manager.env.slice(0, before.containers[0].env.length)).toEqual(before.containers[0].env);
    expect(manager.volumeMounts.slice(0, before.containers[0].volumeMounts.length)).toEqual(before.containers[0].volumeMounts);
    expect(pod.volumes.slice(0, before.volumes.length)).toEqual(before.volumes);
    expect(manager.env.some((e: any) => e.name === 'PLUGIN_SOCKET_DIR')).toBe(dir !== '/plugins');

    out.forEach((o, i) => {
      if (i === at) {
        expect(withoutSidecars(o, ['cnpg-i-hello-world'], dir)).toEqual(input[i]);
      } else {
        expect(withoutSyncOptions(o)).toEqual(input[i]);
      }
    });
  });
});

test('CnpgOperator.fromManifest and OperatorDeployment options refuse unknown keys, naming the nearest', () => {
  expect(() => CnpgOperator.fromManifest(Testing.chart(), 'operator', { path: FIXTURE, namepsace: 'cnpg-system' } as any)).toThrow(
    "test/operator: props.namepsace 'cnpg-system' is not a declared key of props; did you mean 'namespace'?",
  );
  const chart = Testing.chart();
  const operator = CnpgOperator.fromManifest(chart, 'operator', { path: FIXTURE });
  expect(() => OperatorDeployment.fromApiObject(operator.deployment, { managerContainer: 'manager' } as any)).toThrow(
    "OperatorDeployment.fromApiObject: options.managerContainer 'manager' is not a declared key of options; did you mean 'managerContainerName'?",
  );
});

test('every object of the manifest is schema-guarded at synth, once, however many sidecars the operator gets', () => {
  const file = variant((docs) =>
    docs.map((d) => (d.kind === 'Deployment' ? { ...d, metadata: { ...d.metadata, finalizers: ['example.com/keep', 'example.com/keep'] } } : d)),
  );
  const chart = Testing.chart();
  const operator = CnpgOperator.fromManifest(chart, 'operator', { path: file });
  for (const name of ['a.example.com', 'b.example.com']) {
    operator.addSidecarPlugin(name.split('.')[0], { pluginName: name, image: 'ghcr.io/example/socket-plugin:v1.0.0' });
  }
  let message = '';
  try {
    Testing.synth(chart);
  } catch (e) {
    message = (e as Error).message;
  }
  expect(message).toMatch(/^Validation failed with the following errors:/);
  expect(message.match(/metadata\.finalizers/g)).toHaveLength(1);
});
