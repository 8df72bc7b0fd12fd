// kubernetes/apiserver v0.36.3 pkg/endpoints/handlers/patch.go (*patcher).applyPatch (uid on a
// server-side apply of a missing object), pkg/storage/etcd3/store.go (*store).Create
// (resourceVersion on create), pkg/registry/generic/registry/store.go (*Store).Update (a stale
// resourceVersion); apimachinery v0.36.3 pkg/util/managedfields/internal/structuredmerge.go Apply
// (managedFields on apply); apiextensions-apiserver v0.36.3 pkg/registry/customresource/strategy.go
// PrepareForCreate (status, generation).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule } from '../../helpers';

const UID = '6f1f0a8e-1c7b-4c47-9a2b-3f4f5e6d7c8b';
const PREFIX = 'carries what the API server set on a live object (a dump of kubectl get -o yaml): ';
const UID_PART = `metadata.uid: a server-side apply (Flux, Argo CD with ServerSideApply=true, kubectl apply --server-side) is refused with "uid mismatch: the provided object specified uid ${UID}, and no existing object was found" while the object does not exist, and any update is refused once another object of that name does (metadata.uid is immutable); only a client-side create replaces it`;
const RV_PART =
  'metadata.resourceVersion: a create that sends it is refused ("resourceVersion should not be set on objects to be created"; kubectl clears it first), and a server-side apply or update of the object is refused as a conflict as soon as the live object has changed since the dump';
const MF_PART = 'metadata.managedFields: a server-side apply is refused ("metadata.managedFields must be nil")';

/** The good fixture with its Cluster `pg` changed by `change`; CNPGI094's findings. */
function withCluster(change: (c: Doc) => void) {
  const docs = fixture('good-plugin.yaml');
  change(doc(docs, 'Cluster', 'pg'));
  return ofRule(analyzeManifests(docs).findings, 'CNPGI094').map((f) => [f.severity, f.object, f.path, f.message, f.fix]);
}

describe('CNPGI094 live-object-fields', () => {
  test('a dump of a live Cluster: one error for what a server-side apply refuses, one warning for what is ignored', () => {
    const found = withCluster((c) => {
      Object.assign(c.metadata, {
        uid: UID,
        resourceVersion: '123456',
        creationTimestamp: '2026-01-01T00:00:00Z',
        generation: 3,
        selfLink: '/apis/postgresql.cnpg.io/v1/namespaces/app/clusters/pg',
        managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'postgresql.cnpg.io/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
      });
      c.status = { phase: 'Cluster in healthy state', instances: 1 };
    });
    expect(found).toEqual([
      [
        'error',
        'Cluster/app/pg',
        'metadata.uid',
        `${PREFIX}${UID_PART}; ${RV_PART}; ${MF_PART}`,
        'remove metadata.uid, metadata.resourceVersion and metadata.managedFields',
      ],
      [
        'warning',
        'Cluster/app/pg',
        'metadata.creationTimestamp',
        'carries what the API server set on a live object, which it ignores: metadata.creationTimestamp (set at create, kept at update), metadata.generation (1 at create, the live one at update), metadata.selfLink (cleared), status (Cluster has a status subresource: dropped at create, the live one kept at update)',
        'remove metadata.creationTimestamp, metadata.generation, metadata.selfLink and status',
      ],
    ]);
  });

  test('error: each field a server-side apply refuses, alone', () => {
    expect(withCluster((c) => (c.metadata.uid = UID))).toEqual([['error', 'Cluster/app/pg', 'metadata.uid', `${PREFIX}${UID_PART}`, 'remove metadata.uid']]);
    expect(withCluster((c) => (c.metadata.resourceVersion = '1'))).toEqual([
      ['error', 'Cluster/app/pg', 'metadata.resourceVersion', `${PREFIX}${RV_PART}`, 'remove metadata.resourceVersion'],
    ]);
    // an empty list is not nil to the API server
    expect(withCluster((c) => (c.metadata.managedFields = []))).toEqual([
      ['error', 'Cluster/app/pg', 'metadata.managedFields', `${PREFIX}${MF_PART}`, 'remove metadata.managedFields'],
    ]);
  });

  test('warning: a status on a kind with a status subresource (a pinned CRD), and the ignored metadata alone', () => {
    expect(withCluster((c) => (c.status = { phase: 'x' })).map((f) => [f[0], f[2]])).toEqual([['warning', 'status']]);
    expect(withCluster((c) => (c.metadata.creationTimestamp = '2026-01-01T00:00:00Z')).map((f) => [f[0], f[2], f[4]])).toEqual([
      ['warning', 'metadata.creationTimestamp', 'remove metadata.creationTimestamp'],
    ]);
    expect(withCluster((c) => (c.metadata.generation = 1)).map((f) => [f[0], f[2]])).toEqual([['warning', 'metadata.generation']]);
  });

  test('near misses pass: what tools write for a new object, an owner reference uid, a status the API server stores', () => {
    // kubectl create --dry-run=client -o yaml and many generators write these
    expect(
      withCluster((c) => {
        c.metadata.creationTimestamp = null;
        c.metadata.managedFields = null;
        c.metadata.resourceVersion = '';
        c.status = {};
      }),
    ).toEqual([]);
    expect(withCluster((c) => (c.status = null))).toEqual([]);
    // an owner reference's uid is the owner's, which the API server needs
    expect(withCluster((c) => (c.metadata.ownerReferences = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: UID }]))).toEqual([]);
    // a kind without a pinned CRD (whose status may be stored as given) is not judged on its status
    const docs = fixture('good-plugin.yaml');
    doc(docs, 'Service', 'backup').status = { loadBalancer: {} };
    doc(docs, 'Deployment', 'backup').status = { replicas: 1 };
    expect(ofRule(analyzeManifests(docs).findings, 'CNPGI094')).toEqual([]);
  });

  test("near miss: cdk8s output (the example app's dist/) carries none of these fields", () => {
    const dir = join(__dirname, '../../../../dist');
    const objects = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) =>
        parseAllDocuments(readFileSync(join(dir, f), 'utf8'))
          .map((d) => d.toJS())
          .filter(Boolean),
      );
    expect(objects.length).toBeGreaterThan(10);
    expect(ofRule(analyzeManifests(objects).findings, 'CNPGI094')).toEqual([]);
  });
});
