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
