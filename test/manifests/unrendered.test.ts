import { variableFinderFor } from '../../src/manifests/flux-variables';
import { recordingReads, touchesUnrendered, trackLike, trackUnrendered, unrenderedFields } from '../../src/manifests/unrendered';

const cluster = () => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: '${APP}-db', labels: { team: 'payments' } },
  spec: {
    instances: '${PG_REPLICAS}',
    storage: { size: '10Gi', storageClass: '${STORAGE_CLASS}' },
    plugins: [{ name: 'barman-cloud.cloudnative-pg.io' }, { name: 'x', parameters: { '${KEY}': 'v', bucket: 's3://${BUCKET}/${APP}' } }],
  },
});

describe('unrendered text', () => {
  test('an object without variables is itself, untracked', () => {
    const o = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { cost: '$5', escaped: '$${NOT}' } };
    expect(trackUnrendered(o, variableFinderFor)).toBe(o);
    expect(unrenderedFields(o)).toEqual([]);
    expect(trackUnrendered('text ${X}', variableFinderFor)).toBe('text ${X}');
  });

  test('the fields that hold variables, in path order, keys included', () => {
    const tracked = trackUnrendered(cluster(), variableFinderFor);
    expect(unrenderedFields(tracked)).toEqual([
      { path: 'metadata.name', variables: ['APP'] },
      { path: 'spec.instances', variables: ['PG_REPLICAS'] },
      { path: 'spec.plugins[1].parameters.bucket', variables: ['BUCKET', 'APP'] },
      { path: 'spec.plugins[1].parameters["${KEY}"]', variables: ['KEY'], inKey: true },
      { path: 'spec.storage.storageClass', variables: ['STORAGE_CLASS'] },
    ]);
    // the view reads as the object does
    expect(JSON.parse(JSON.stringify(tracked))).toEqual(cluster());
  });

  test('reading a field that holds a variable records the object and the containers on the way; other reads do not', () => {
    const tracked = trackUnrendered(cluster(), variableFinderFor) as ReturnType<typeof cluster>;
    expect(
      recordingReads(() => [tracked.spec.storage.size, tracked.metadata.labels.team, Object.keys(tracked.spec), 'instances' in tracked.spec]).read.size,
    ).toBe(0);
    const { result, read } = recordingReads(() => tracked.spec.storage.storageClass);
    expect(result).toBe('${STORAGE_CLASS}');
    expect(read.has(tracked)).toBe(true);
    expect(read.has(tracked.spec.storage)).toBe(true);
    expect(read.has(tracked.spec.plugins)).toBe(false);
    // a copy reads every field
    expect(recordingReads(() => ({ ...tracked.spec })).read.has(tracked)).toBe(true);
    // one container is one object, however often it is reached
    expect(tracked.spec.storage).toBe(tracked.spec.storage);
  });

  test('a nested recording records for itself only; outside any recording nothing is kept', () => {
    const tracked = trackUnrendered(cluster(), variableFinderFor) as ReturnType<typeof cluster>;
    void tracked.spec.instances;
    const outer = recordingReads(() => recordingReads(() => tracked.spec.instances).read.has(tracked));
    expect(outer.result).toBe(true);
    expect(outer.read.size).toBe(0);
  });

  test('each item of a List is an object of its own', () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [cluster(), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } }] };
    const tracked = trackUnrendered(list, variableFinderFor) as { items: unknown[] };
    expect(tracked).not.toBe(list);
    expect(unrenderedFields(tracked)).toEqual([]);
    expect(unrenderedFields(tracked.items[0]).map((f) => f.path)).toContain('spec.instances');
    expect(tracked.items[1]).toBe(list.items[1]);
  });

  test('a changed copy of a tracked object (a defaulted one) is tracked at the same paths', () => {
    const tracked = trackUnrendered(cluster(), variableFinderFor) as ReturnType<typeof cluster>;
    const copy = trackLike(tracked, { ...cluster(), spec: { ...cluster().spec, enableSuperuserAccess: false } });
    expect(recordingReads(() => copy.spec.enableSuperuserAccess).read.size).toBe(0);
    expect(recordingReads(() => copy.spec.instances).read.size).toBeGreaterThan(0);
    const plain = { a: 1 };
    expect(trackLike(plain, { a: 2 })).toEqual({ a: 2 });
  });

  test('a field path touches an unrendered field at it, above it or below it', () => {
    const fields = unrenderedFields(trackUnrendered(cluster(), variableFinderFor));
    expect(touchesUnrendered(fields, 'spec.instances')).toBe(true);
    expect(touchesUnrendered(fields, 'spec.storage')).toBe(true);
    expect(touchesUnrendered(fields, 'spec')).toBe(true);
    expect(touchesUnrendered(fields, 'spec.plugins[1]')).toBe(true);
    // near misses
    expect(touchesUnrendered(fields, 'spec.storage.size')).toBe(false);
    expect(touchesUnrendered(fields, 'spec.instancesX')).toBe(false);
    expect(touchesUnrendered(fields, 'spec.plugins[0].name')).toBe(false);
    expect(touchesUnrendered(fields, 'spec.plugins[10]')).toBe(false);
    expect(touchesUnrendered(fields, undefined)).toBe(false);
    expect(touchesUnrendered([], 'spec')).toBe(false);
    // a key with dots or a slash, written either way
    const labelled = unrenderedFields(trackUnrendered({ kind: 'Cluster', metadata: { labels: { 'app.kubernetes.io/part-of': '${P}' } } }, variableFinderFor));
    expect(labelled.map((f) => f.path)).toEqual(['metadata.labels["app.kubernetes.io/part-of"]']);
    expect(touchesUnrendered(labelled, 'metadata.labels.app.kubernetes.io/part-of')).toBe(true);
    expect(touchesUnrendered(labelled, 'metadata.labels["app.kubernetes.io/part-of"]')).toBe(true);
    expect(touchesUnrendered(labelled, 'metadata.labels["app.kubernetes.io/name"]')).toBe(false);
  });

  test('an object that holds itself (a YAML alias) is scanned once', () => {
    const o: Record<string, unknown> = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '${N}' } };
    o.self = o;
    expect(unrenderedFields(trackUnrendered(o, variableFinderFor))).toEqual([{ path: 'metadata.name', variables: ['N'] }]);
  });
});

describe('where ${...} is not a Flux variable', () => {
  const cluster = (postgresql: Record<string, unknown>, annotations?: Record<string, string>) => ({
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name: 'a', ...(annotations ? { annotations } : {}) },
    spec: { postgresql },
  });
  const paths = (o: unknown) => unrenderedFields(trackUnrendered(o, variableFinderFor)).map((f) => f.path);

  test("CloudNativePG's own placeholders: a pg_hba line's ${podselector:NAME}, an extension env value's ${image_root}", () => {
    expect(paths(cluster({ pg_hba: ['host all all ${podselector:web} scram-sha-256'] }))).toEqual([]);
    expect(paths(cluster({ extensions: [{ name: 'postgis', env: [{ name: 'GDAL_DATA', value: '${image_root}/share/gdal' }] }] }))).toEqual([]);
    // near misses: the same text elsewhere in a Cluster, or in another kind, is a variable
    expect(paths(cluster({ parameters: { search_path: '${SCHEMA}' } }))).toEqual(['spec.postgresql.parameters.search_path']);
    expect(paths(cluster({ extensions: [{ name: '${EXT}', env: [] }] }))).toEqual(['spec.postgresql.extensions[0].name']);
    expect(paths({ ...cluster({ pg_hba: ['host all all ${NET} md5'] }), apiVersion: 'example.com/v1' })).toEqual(['spec.postgresql.pg_hba[0]']);
  });

  test('a CustomResourceDefinition, and an object that switches Flux substitution off', () => {
    expect(paths({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'x' }, spec: { d: '${podselector}' } })).toEqual(
      [],
    );
    expect(paths(cluster({ parameters: { a: '${A}' } }, { 'kustomize.toolkit.fluxcd.io/substitute': 'disabled' }))).toEqual([]);
    // any other value of the annotation leaves substitution on
    expect(paths(cluster({ parameters: { a: '${A}' } }, { 'kustomize.toolkit.fluxcd.io/substitute': 'enabled' }))).toEqual(['spec.postgresql.parameters.a']);
  });
});
