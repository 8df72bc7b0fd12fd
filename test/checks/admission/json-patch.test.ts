import { instancePod } from '../../../src/checks/admission/instance-pod';
import { applyPatch, decodePatch, DocNode, objectNode } from '../../../src/checks/admission/json-patch';

const cluster = { apiVersion: 'postgresql.cnpg.io/v1', kind: 'Cluster', metadata: { name: 'pg', namespace: 'db' }, spec: { instances: 1 } };
/** What applying `patch` (JSON text) to the instance Pod of `c` gives. */
function apply(patch: string, c: object = cluster) {
  const decoded = decodePatch(patch);
  if (!decoded.ok) throw new Error(decoded.error);
  return applyPatch(instancePod(c as Record<string, unknown>), decoded.operations);
}
const fails = (patch: string, c?: object) => {
  const outcome = apply(patch, c);
  return outcome.applies === false ? outcome.error : outcome.applies;
};
const op = (o: object) => JSON.stringify([o]);

describe('decodePatch', () => {
  test('an array of operations, or null', () => {
    expect(decodePatch('[]')).toEqual({ ok: true, operations: [] });
    expect(decodePatch('null')).toEqual({ ok: true, operations: [] });
    expect(decodePatch(op({ op: 'remove', path: '/a' })).ok).toBe(true);
  });

  test('what DecodePatch refuses, with its texts', () => {
    const error = (text: string) => {
      const d = decodePatch(text);
      return d.ok ? 'ok' : d.error;
    };
    expect(error('invalid-json-patch')).toBe('invalid state detected');
    expect(error('')).toBe('invalid state detected');
    expect(error('{"op": "add"}')).toBe('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(error('["add"]')).toBe('json: cannot unmarshal string into Go value of type jsonpatch.Operation');
    expect(error('[null]')).toBe('invalid operation null: unsupported operation');
    expect(error('[{"op": "Add", "path": "/a", "value": 1}]')).toBe('invalid operation {"op":"Add","path":"/a","value":1}: unsupported operation');
    expect(error('[{"op": 1}]')).toBe('invalid operation {"op":1}: unsupported operation');
    expect(error('[{"op": "add", "path": "/a"}]')).toBe(
      'invalid operation {"op":"add","path":"/a"}: failed to decode \'value\': operation, missing value field: missing value',
    );
    expect(error('[{"op": "copy", "path": "/a"}]')).toBe(
      'invalid operation {"op":"copy","path":"/a"}: failed to decode \'from\': operation, missing from field: missing value',
    );
    expect(error('[{"op": "move", "from": 1, "path": "/a"}]')).toBe(
      'invalid operation {"from":1,"op":"move","path":"/a"}: failed to decode \'from\': json: cannot unmarshal number into Go value of type string',
    );
    expect(error('[{"op": "remove"}]')).toBe('invalid operation {"op":"remove"}: failed to decode \'path\': operation missing path field: missing value');
    expect(error('[{"op": "test", "path": null}]')).toBe(
      'invalid operation {"op":"test","path":null}: failed to decode \'path\': operation missing path field: missing value',
    );
    expect(error('[{"op": "remove", "path": ["/a"]}]')).toBe(
      'invalid operation {"op":"remove","path":["/a"]}: failed to decode \'path\': json: cannot unmarshal array into Go value of type string',
    );
    // A value of null is a value; the last of a repeated key wins.
    expect(error('[{"op": "add", "path": "/a", "value": null}]')).toBe('ok');
    expect(error('[{"op": "bad", "op": "remove", "path": "/a"}]')).toBe('ok');
  });
});

describe('applyPatch to the instance Pod', () => {
  test("the operator's own paths", () => {
    expect(fails(op({ op: 'replace', path: '/metadata/name', value: 'test' }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/metadata/labels/team', value: 'db' }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/metadata/annotations/a~1b', value: 'x' }))).toBe(true);
    expect(fails(op({ op: 'remove', path: '/metadata/labels/cnpg.io~1podRole' }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/spec/containers/0/env/-', value: { name: 'TZ', value: 'UTC' } }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/spec/volumes/-', value: { name: 'x', emptyDir: {} } }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/spec/hostNetwork', value: true }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/spec/podInvalidSection', value: 'test' }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/spec/containers/1', value: { name: 'side', image: 'x' } }))).toBe(true);
    expect(fails(op({ op: 'add', path: '/spec/containers/-1', value: { name: 'side', image: 'x' } }))).toBe(true);
    expect(fails(op({ op: 'test', path: '/metadata/labels/cnpg.io~1cluster', value: 'pg' }))).toBe(true);
    expect(fails(op({ op: 'test', path: '/spec/dnsConfig' }))).toBe(true);
    expect(fails(op({ op: 'copy', from: '/metadata/name', path: '/metadata/labels/pod' }))).toBe(true);
    expect(fails(op({ op: 'move', from: '/metadata/labels/cnpg.io~1podRole', path: '/metadata/labels/role' }))).toBe(true);
    expect(fails(op({ op: 'replace', path: '/spec/schedulerName', value: 'x' }), { ...cluster, spec: { schedulerName: 'mine' } })).toBe(true);
    expect(
      fails(
        JSON.stringify([
          { op: 'add', path: '/spec/dnsConfig', value: {} },
          { op: 'replace', path: '/spec/dnsConfig', value: { options: [] } },
        ]),
      ),
    ).toBe(true);
  });

  test("paths no instance Pod has, with the library's texts", () => {
    expect(fails(op({ op: 'replace', path: '/spec/podInvalidSection', value: 'test' }))).toBe(
      'replace operation does not apply: doc is missing key: /spec/podInvalidSection: missing value',
    );
    expect(fails(op({ op: 'replace', path: '/spec/schedulerName', value: 'x' }))).toBe(
      'replace operation does not apply: doc is missing key: /spec/schedulerName: missing value',
    );
    expect(fails(op({ op: 'replace', path: '/kind', value: 'Pod' }))).toBe('replace operation does not apply: doc is missing key: /kind: missing value');
    expect(fails(op({ op: 'remove', path: '/spec/dnsPolicy' }))).toBe(
      "error in remove for path: '/spec/dnsPolicy': unable to remove nonexistent key: dnsPolicy: missing value",
    );
    expect(fails(op({ op: 'add', path: '/spec/dnsConfig/options/-', value: {} }))).toBe(
      'add operation does not apply: doc is missing path: "/spec/dnsConfig/options/-": missing value',
    );
    expect(fails(op({ op: 'replace', path: '/status/phase/x', value: 1 }))).toBe(
      'replace operation does not apply: doc is missing path: /status/phase/x: missing value',
    );
    expect(fails(op({ op: 'add', path: '/metadata/name/x', value: 1 }))).toBe(
      'add operation does not apply: doc is missing path: "/metadata/name/x": missing value',
    );
    expect(fails(op({ op: 'add', path: '/spec/containers/2', value: {} }))).toBe(
      "error in add for path: '/spec/containers/2': Unable to access invalid index: 2: invalid index referenced",
    );
    expect(fails(op({ op: 'add', path: '/spec/containers/x', value: {} }))).toBe(
      "error in add for path: '/spec/containers/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax",
    );
    expect(fails(op({ op: 'remove', path: '/spec/initContainers/-2' }))).toBe(
      "error in remove for path: '/spec/initContainers/-2': Unable to access invalid index: -2: invalid index referenced",
    );
    expect(fails(op({ op: 'replace', path: '/spec/containers/1', value: {} }))).toBe(
      'replace operation does not apply: doc is missing key: /spec/containers/1: missing value',
    );
    expect(fails(op({ op: 'test', path: '/metadata/labels/cnpg.io~1cluster', value: 'other' }))).toBe(
      'testing value /metadata/labels/cnpg.io~1cluster failed: test failed',
    );
    expect(fails(op({ op: 'test', path: '/metadata/name' }))).toBe('testing value /metadata/name failed: test failed');
    expect(fails(op({ op: 'test', path: '/metadata/name', value: null }))).toBe('testing value /metadata/name failed: test failed');
    expect(fails(op({ op: 'test', path: '/spec/containers/3', value: 1 }))).toBe(
      "error in test for path: '/spec/containers/3': Unable to access invalid index: 3: invalid index referenced",
    );
    expect(fails(op({ op: 'test', path: '/spec/terminationGracePeriodSeconds', value: 1800.0 }))).toBe(true);
    expect(fails('[{"op": "test", "path": "/spec/terminationGracePeriodSeconds", "value": 1800.0}]')).toBe(
      'testing value /spec/terminationGracePeriodSeconds failed: test failed',
    );
    expect(fails(op({ op: 'move', from: '', path: '/a' }))).toBe('unable to move entire document to another path: invalid state detected');
    expect(fails(op({ op: 'move', from: '/spec/dnsConfig', path: '/a' }))).toBe(
      "error in move for path: 'dnsConfig': unable to get nonexistent key: dnsConfig: missing value",
    );
    expect(fails(op({ op: 'move', from: '/metadata/labels', path: '/metadata/labels/x' }))).toBe(
      'move operation does not apply: doc is missing destination path: /metadata/labels/x: missing value',
    );
    expect(fails(op({ op: 'copy', from: '/x/y', path: '/a' }))).toBe('copy operation does not apply: doc is missing from path: "/x/y": missing value');
    expect(fails(op({ op: 'copy', from: '/metadata/name', path: '/x/y' }))).toBe(
      'copy operation does not apply: doc is missing destination path: /x/y: missing value',
    );
    expect(fails(op({ op: 'copy', from: '/metadata/name', path: '/spec/containers/5' }))).toBe(
      'error while adding value during copy: Unable to access invalid index: 5: invalid index referenced',
    );
    // The leading segment is never read.
    expect(fails(op({ op: 'replace', path: 'x/kind', value: 'Pod' }))).toBe('replace operation does not apply: doc is missing key: x/kind: missing value');
    expect(fails(op({ op: 'remove', path: 'metadata' }))).toBe('remove operation does not apply: doc is missing path: "metadata": missing value');
    // An operation fails after the ones before it changed the Pod.
    expect(
      fails(
        JSON.stringify([
          { op: 'remove', path: '/metadata/labels' },
          { op: 'add', path: '/metadata/labels/x', value: 'y' },
        ]),
      ),
    ).toBe('add operation does not apply: doc is missing path: "/metadata/labels/x": missing value');
  });

  test('what the model does not know is not judged', () => {
    for (const patch of [
      op({ op: 'replace', path: '/spec/containers/0/image', value: 'x' }),
      op({ op: 'replace', path: '/spec/affinity', value: {} }),
      op({ op: 'remove', path: '/spec/securityContext' }),
      op({ op: 'replace', path: '/spec/volumes/7', value: {} }),
      op({ op: 'remove', path: '/spec/containers/0/args' }),
      op({ op: 'replace', path: '/spec/initContainers/0/image', value: 'x' }),
      op({ op: 'test', path: '/metadata/labels/app.kubernetes.io~1version', value: '18' }),
      op({ op: 'replace', path: '', value: {} }),
      op({ op: 'remove', path: '/spec/' }),
      op({ op: 'add', path: '//metadata', value: 1 }),
      JSON.stringify([
        { op: 'remove', path: '/spec/securityContext' },
        { op: 'remove', path: '/spec/dnsPolicy' },
      ]),
    ]) {
      expect([patch, apply(patch)]).toEqual([patch, { applies: 'unknown' }]);
    }
    // No namespace in the manifest: the API server gives the object one.
    expect(apply(op({ op: 'replace', path: '/metadata/namespace', value: 'x' }), { ...cluster, metadata: { name: 'pg' } })).toEqual({ applies: 'unknown' });
    expect(fails(op({ op: 'replace', path: '/metadata/namespace', value: 'x' }))).toBe(true);
    // AppArmor annotations of the Cluster are copied to the Pod.
    const apparmor = { ...cluster, metadata: { name: 'pg', annotations: { 'container.apparmor.security.beta.kubernetes.io/postgres': 'runtime/default' } } };
    expect(apply(op({ op: 'remove', path: '/metadata/annotations/x' }), apparmor)).toEqual({ applies: 'unknown' });
    expect(fails(op({ op: 'remove', path: '/metadata/annotations/x' }))).toBe(
      "error in remove for path: '/metadata/annotations/x': unable to remove nonexistent key: x: missing value",
    );
  });

  test('a document node keeps what a patch wrote', () => {
    const doc: DocNode = objectNode({ a: objectNode({}) });
    const decoded = decodePatch('[{"op": "add", "path": "/a/b", "value": [1, {"c": "d"}]}, {"op": "test", "path": "/a/b", "value": [1, {"c": "d"}]}]');
    expect(decoded.ok && applyPatch(doc, decoded.operations)).toEqual({ applies: true });
    const nulls = decodePatch('[{"op": "add", "path": "/a/n", "value": null}, {"op": "test", "path": "/a/n", "value": null}, {"op": "test", "path": "/a/n"}]');
    expect(nulls.ok && applyPatch(doc, nulls.operations)).toEqual({ applies: true });
    const notNull = decodePatch('[{"op": "test", "path": "/a/n", "value": 0}]');
    expect(notNull.ok && applyPatch(doc, notNull.operations)).toEqual({ applies: false, error: 'testing value /a/n failed: test failed' });
    const again = decodePatch('[{"op": "test", "path": "/a/b/1", "value": {"c": "e"}}]');
    expect(again.ok && applyPatch(doc, again.operations)).toEqual({ applies: false, error: 'testing value /a/b/1 failed: test failed' });
  });
});
