import { annotate, clusterFindings } from '../cluster-findings';

const run = (patch: unknown) => clusterFindings('CNPGI341', (c) => annotate(c, 'cnpg.io/podPatch', typeof patch === 'string' ? patch : JSON.stringify(patch)));
const APPLY_FIX =
  "patch paths the instance Pod has: 'add' creates a key of an existing object (or appends with '/-'), while 'replace', 'remove' and 'test' need the key to exist";

describe('CNPGI341 cluster-pod-patch-annotation', () => {
  test('not a JSON patch', () => {
    expect(run('invalid-json-patch')).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses cnpg.io/podPatch ("error decoding JSON patch: invalid state detected"): the value must be a JSON array of RFC 6902 operations',
        fix: 'write a JSON patch such as [{"op": "add", "path": "/metadata/labels/team", "value": "db"}]',
        path: 'metadata.annotations.cnpg.io/podPatch',
      },
    ]);
    expect(run({ op: 'add', path: '/spec/hostNetwork', value: true })[0].message).toContain(
      '("error decoding JSON patch: json: cannot unmarshal object into Go value of type jsonpatch.Patch")',
    );
    expect(run([{ op: 'delete', path: '/metadata/labels/x' }])[0].message).toContain(
      '("error decoding JSON patch: invalid operation {"op":"delete","path":"/metadata/labels/x"}: unsupported operation")',
    );
  });

  test('a patch that does not apply to the instance Pod', () => {
    expect(run([{ op: 'replace', path: '/spec/podInvalidSection', value: 'test' }])).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses cnpg.io/podPatch ("jsonpatch doesn\'t apply cleanly to the pod: while applying JSON patch from annotation: replace operation does not apply: doc is missing key: /spec/podInvalidSection: missing value"): the webhook applies the patch to the instance Pod the operator builds for this Cluster, and the operator would fail the same way for every instance',
        fix: APPLY_FIX,
        path: 'metadata.annotations.cnpg.io/podPatch',
      },
    ]);
    expect(
      run([
        { op: 'add', path: '/spec/containers/0/env/-', value: { name: 'A', value: 'b' } },
        { op: 'remove', path: '/spec/containers/1' },
      ])[0].message,
    ).toContain("error in remove for path: '/spec/containers/1': Unable to access invalid index: 1: invalid index referenced");
    expect(run([{ op: 'add', path: '/spec/dnsConfig/nameservers/-', value: '1.1.1.1' }])[0].message).toContain(
      'add operation does not apply: doc is missing path: "/spec/dnsConfig/nameservers/-": missing value',
    );
  });

  test('a patch that applies but leaves no Pod the operator can decode', () => {
    expect(run([{ op: 'add', path: '/metadata/labels/version', value: 1 }])).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses cnpg.io/podPatch ("jsonpatch doesn\'t apply cleanly to the pod: while deserializing pod to JSON: " and the JSON decoder\'s error): the patch applies, but /metadata/labels/version becomes a number, and a label value is a string',
        fix: 'write values of the type the Pod field has (quote a number or boolean meant as a label or annotation value)',
        path: 'metadata.annotations.cnpg.io/podPatch',
      },
    ]);
    expect(run([{ op: 'replace', path: '/metadata/annotations', value: { 'example.com/on': true } }])[0].message).toContain(
      'but /metadata/annotations/example.com~1on becomes a boolean, and an annotation value is a string',
    );
    expect(run([{ op: 'replace', path: '/spec', value: [] }])[0].message).toContain("but /spec becomes a list, and a Pod's spec is an object");
  });

  test('near misses the webhook accepts, or that depend on what the doctor cannot see', () => {
    expect(run([{ op: 'add', path: '/metadata/labels/version', value: '1' }])).toEqual([]);
    expect(run([{ op: 'replace', path: '/metadata/labels', value: null }])).toEqual([]);
    expect(run([{ op: 'add', path: '/metadata/labels/gone', value: null }])).toEqual([]);
    for (const patch of [
      [{ op: 'replace', path: '/metadata/name', value: 'test' }],
      [{ op: 'add', path: '/metadata/labels/team', value: 'db' }],
      [{ op: 'add', path: '/spec/containers/0/env/-', value: { name: 'A', value: 'b' } }],
      [{ op: 'add', path: '/spec/containers/-', value: { name: 'side', image: 'busybox' } }],
      [{ op: 'add', path: '/spec/dnsConfig', value: { nameservers: ['1.1.1.1'] } }],
      [{ op: 'add', path: '/spec/podInvalidSection', value: 'test' }],
      [{ op: 'replace', path: '/spec/serviceAccountName', value: 'other' }],
      [{ op: 'replace', path: '/spec/containers/0/image', value: 'x' }],
      [{ op: 'remove', path: '/spec/affinity' }],
      [{ op: 'replace', path: '/spec/volumes/3', value: { name: 'x', emptyDir: {} } }],
      [],
      'null',
    ]) {
      expect([patch, run(patch)]).toEqual([patch, []]);
    }
    // The schedulerName the Cluster sets is on the Pod.
    expect(
      clusterFindings('CNPGI341', (c) => {
        c.spec.schedulerName = 'mine';
        annotate(c, 'cnpg.io/podPatch', JSON.stringify([{ op: 'replace', path: '/spec/schedulerName', value: 'other' }]));
      }),
    ).toEqual([]);
    expect(run([{ op: 'replace', path: '/spec/schedulerName', value: 'other' }])).toHaveLength(1);
  });
});
