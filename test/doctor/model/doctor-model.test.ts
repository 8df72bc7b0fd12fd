import { buildModel, modelPart } from '../../../src/doctor/model/doctor-model';
import { DOCTOR_REGISTRY } from '../../../src/doctor/registry';
import { variableFinderFor } from '../../../src/manifests/flux-variables';
import { recordingReads, trackUnrendered } from '../../../src/manifests/unrendered';

const cluster = (instances: unknown) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Cluster',
  metadata: { name: 'a', namespace: 'db' },
  spec: { instances },
});

function model(objects: unknown[]) {
  return buildModel(
    objects.map((o) => trackUnrendered(o, variableFinderFor)),
    { version: [1, 30, 0], versionString: '1.30.0', knownPlugins: [], sidecarPlugins: new Map(), rules: DOCTOR_REGISTRY },
  );
}

describe('the doctor model: shared parts and unrendered text', () => {
  test('hasUnrenderedNames: by kind and group, and again once more unrendered text is known', () => {
    const named = { ...cluster(3), metadata: { name: '${NAME}', namespace: 'db' } };
    const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'db' }, data: { a: '${A}' } };
    const m = model([cluster(3), { ...named, apiVersion: 'example.com/v1' }, config]);
    // the model is built without them (the doctor fills them in after)
    expect(m.unrendered.size).toBe(0);
    expect(m.hasUnrenderedNames('Cluster')).toBe(false);
    m.unrendered.set(m.index.all[2].raw, [{ path: 'data.a', variables: ['A'] }]);
    expect(m.hasUnrenderedNames('Cluster')).toBe(false);
    m.unrendered.set(m.index.all[1].raw, [{ path: 'metadata.name', variables: ['NAME'] }]);
    // the answer given before is not kept once more is known
    expect(m.hasUnrenderedNames('Cluster')).toBe(true);
    expect(m.hasUnrenderedNames('Cluster', 'example.com')).toBe(true);
    expect(m.hasUnrenderedNames('Cluster', 'postgresql.cnpg.io')).toBe(false);
    expect(m.hasUnrenderedNames('ConfigMap')).toBe(false);
  });

  // a part that reads every Cluster's instance count
  const INSTANCES = modelPart((m) => m.index.ofKind('Cluster').map((c) => (c.raw.spec as { instances: unknown }).instances));

  test('a part computed once is read by every rule that asks, with what its computation read', () => {
    const m = model([cluster('${PG_REPLICAS}')]);
    const raw = m.index.all[0].raw;
    const first = recordingReads(() => m.part(INSTANCES));
    const second = recordingReads(() => m.part(INSTANCES));
    expect(first.result).toBe(second.result);
    expect(first.read.has(raw)).toBe(true);
    // the second rule did not compute the part, but it reads what the part read
    expect(second.read.has(raw)).toBe(true);
  });

  test('a part that withholds for itself gives its readers nothing to withhold; rendered input records nothing', () => {
    const OWN = modelPart((m) => m.index.ofKind('Cluster').map((c) => (c.raw.spec as { instances: unknown }).instances), { withholdsUnrendered: true });
    const m = model([cluster('${PG_REPLICAS}')]);
    expect(recordingReads(() => m.part(OWN)).read.size).toBe(0);
    expect(recordingReads(() => m.part(OWN)).read.size).toBe(0);
    const rendered = model([cluster(3)]);
    expect(recordingReads(() => rendered.part(INSTANCES)).read.size).toBe(0);
  });
});
