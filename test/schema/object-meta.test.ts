import { SchemaIssue, validateCoreObject } from '../../src/schema';

const kinds = (issues: SchemaIssue[]) => issues.map((i) => `${i.kind} ${i.path}`);
const obj = (apiVersion: string, kind: string, metadata: Record<string, unknown>, rest: Record<string, unknown> = {}) => ({
  apiVersion,
  kind,
  metadata,
  ...rest,
});

describe('metadata.name per kind', () => {
  test('a Service name is a DNS-1035 label', () => {
    expect(validateCoreObject(obj('v1', 'Service', { name: 'plugin' }))).toEqual([]);
    for (const bad of ['1plugin', 'a.b', 'a_b', 'A', 'x'.repeat(64)]) {
      expect(kinds(validateCoreObject(obj('v1', 'Service', { name: bad })))).toEqual(['invalid-name metadata.name']);
    }
  });
  test('a Namespace name is a DNS-1123 label', () => {
    expect(validateCoreObject(obj('v1', 'Namespace', { name: '1db' }))).toEqual([]);
    expect(kinds(validateCoreObject(obj('v1', 'Namespace', { name: 'a.b' })))).toEqual(['invalid-name metadata.name']);
  });
  test('most kinds take a DNS-1123 subdomain', () => {
    expect(validateCoreObject(obj('apps/v1', 'Deployment', { name: '1.plugin' }))).toEqual([]);
    const [found] = validateCoreObject(obj('v1', 'ServiceAccount', { name: 'barman_payments54-sa' }));
    expect(found.message).toBe(
      "metadata.name 'barman_payments54-sa' is not a lowercase RFC 1123 subdomain (at most 253 characters of a-z, 0-9, - and ., " +
        "each part starting and ending with a letter or digit), which a ServiceAccount name must be; use lower-case letters, digits, '-' and '.', e.g. 'my-name'",
    );
    expect(kinds(validateCoreObject(obj('v1', 'Secret', { name: `${'a'.repeat(250)}.b.c` })))).toEqual(['invalid-name metadata.name']);
    // IsDNS1123Subdomain limits the whole name only, not one part (a DNS label would hold 63)
    expect(validateCoreObject(obj('v1', 'Secret', { name: `${'a'.repeat(64)}.b` }))).toEqual([]);
    expect(validateCoreObject(obj('v1', 'Secret', { name: 'a'.repeat(253) }))).toEqual([]);
  });
  test('RBAC names are path segments', () => {
    expect(validateCoreObject(obj('rbac.authorization.k8s.io/v1', 'ClusterRole', { name: 'system:Plugin_x' }))).toEqual([]);
    expect(kinds(validateCoreObject(obj('rbac.authorization.k8s.io/v1', 'Role', { name: 'a/b' })))).toEqual(['invalid-name metadata.name']);
  });
  test('a missing name, unless generateName is set', () => {
    expect(kinds(validateCoreObject(obj('v1', 'ConfigMap', {})))).toEqual(['required metadata.name']);
    expect(validateCoreObject(obj('v1', 'ConfigMap', { generateName: 'cm-' }))).toEqual([]);
    expect(kinds(validateCoreObject(obj('v1', 'Service', { generateName: '1cm-' })))).toEqual(['invalid-name metadata.generateName']);
  });
});

describe('namespace, labels and annotations', () => {
  test('a namespace is a DNS-1123 label', () => {
    expect(kinds(validateCoreObject(obj('v1', 'ConfigMap', { name: 'c', namespace: 'cnpg.system' })))).toEqual(['invalid-namespace metadata.namespace']);
  });
  test('label keys: optional DNS prefix and a qualified name', () => {
    const labels = {
      'cnpg.io/pluginName': 'x',
      'app.kubernetes.io/name': 'y',
      Team: 'z',
      'a/b/c': 'v',
      '/x': 'v',
      'Bad_Prefix/x': 'v',
      [`k${'x'.repeat(63)}`]: 'v',
    };
    expect(kinds(validateCoreObject(obj('v1', 'ConfigMap', { name: 'c', labels })))).toEqual([
      'invalid-label-key metadata.labels["a/b/c"]',
      'invalid-label-key metadata.labels["/x"]',
      'invalid-label-key metadata.labels["Bad_Prefix/x"]',
      `invalid-label-key metadata.labels.k${'x'.repeat(63)}`,
    ]);
  });
  test('label values: at most 63 characters of the value alphabet, or empty', () => {
    const labels = { a: '', b: 'x.y_z-1', c: 'x'.repeat(64), d: '-x', e: 'a b' };
    const issues = validateCoreObject(obj('v1', 'ConfigMap', { name: 'c', labels }));
    expect(kinds(issues)).toEqual(['invalid-label-value metadata.labels.c', 'invalid-label-value metadata.labels.d', 'invalid-label-value metadata.labels.e']);
    expect(issues[0].message).toContain('is 64 characters long; a label value holds at most 63');
  });
  test('annotation keys are checked in lower case, values need not be short', () => {
    const annotations = { 'CNPG.io/pluginPort': '9090', 'cnpg.io/x': 'y'.repeat(1000), 'bad key': 'v' };
    expect(kinds(validateCoreObject(obj('v1', 'Service', { name: 's', annotations })))).toEqual(['invalid-annotation-key metadata.annotations["bad key"]']);
  });
  test('annotations hold at most 256 KiB', () => {
    const annotations = { 'a/b': 'x'.repeat(256 * 1024) };
    expect(kinds(validateCoreObject(obj('v1', 'ConfigMap', { name: 'c', annotations })))).toEqual(['max metadata.annotations']);
  });
  test('finalizers are qualified names and a set', () => {
    const finalizers = ['example.com/a', 'example.com/a', 'bad name'];
    expect(kinds(validateCoreObject(obj('v1', 'ConfigMap', { name: 'c', finalizers })))).toEqual([
      'duplicate metadata.finalizers[1]',
      'invalid-name metadata.finalizers[2]',
    ]);
  });
  test('owner references need a uid', () => {
    const ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o' }];
    expect(kinds(validateCoreObject(obj('v1', 'ConfigMap', { name: 'c', ownerReferences })))).toEqual(['required metadata.ownerReferences[0].uid']);
  });
});

describe('Service ports', () => {
  const svc = (ports: unknown[]) => obj('v1', 'Service', { name: 's' }, { spec: { ports } });
  test('a string targetPort must be a port name', () => {
    expect(
      validateCoreObject(
        svc([
          { port: 9090, targetPort: 'grpc' },
          { port: 80, targetPort: 8080 },
        ]),
      ),
    ).toEqual([]);
    const issues = validateCoreObject(
      svc([
        { port: 9090, targetPort: '9090' },
        { port: 1, targetPort: 'a--b' },
        { port: 2, targetPort: 'sixteen-chars-xx' },
        { port: 3, targetPort: 'Grpc' },
      ]),
    );
    expect(kinds(issues)).toEqual([
      'invalid-port spec.ports[0].targetPort',
      'invalid-port spec.ports[1].targetPort',
      'invalid-port spec.ports[2].targetPort',
      'invalid-port spec.ports[3].targetPort',
    ]);
    expect(issues[0].message).toBe(
      "spec.ports[0].targetPort '9090' is a number written as a string, which the API server reads as a port name; write it as the number 9090",
    );
  });
  test('a numeric port is 1..65535', () => {
    expect(kinds(validateCoreObject(svc([{ port: 0 }, { port: 65536 }, { port: 80, targetPort: 1.5 }])))).toEqual([
      'invalid-port spec.ports[0].port',
      'invalid-port spec.ports[1].port',
      'invalid-port spec.ports[2].targetPort',
    ]);
  });
});
