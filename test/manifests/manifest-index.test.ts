import { ManifestIndex, declarationDifference } from '../../src/manifests/manifest-index';

const service = (namespace?: string, port = 9090) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'plugin', ...(namespace !== undefined ? { namespace } : {}), labels: { 'cnpg.io/pluginName': 'p.example.com' } },
  spec: { selector: { app: 'plugin' }, ports: [{ port }] },
});

describe('ManifestIndex', () => {
  test('ofKind with a group: the objects of that group in input order, one list made once', () => {
    const a = { apiVersion: 'example.com/v1', kind: 'Service', metadata: { name: 'a', namespace: 'ns' } };
    const index = new ManifestIndex([service('ns'), a, service('other')], 'ns');
    expect(index.ofKind('Service').map((m) => m.ref)).toEqual(['Service/ns/plugin', 'Service/ns/a', 'Service/other/plugin']);
    expect(index.ofKind('Service', '').map((m) => m.ref)).toEqual(['Service/ns/plugin', 'Service/other/plugin']);
    expect(index.ofKind('Service', 'example.com').map((m) => m.ref)).toEqual(['Service/ns/a']);
    expect(index.ofKind('Service', 'none.example.com')).toEqual([]);
    // rules ask once per object they check: the list is not filtered again
    expect(index.ofKind('Service', '')).toBe(index.ofKind('Service', ''));
  });
  test('an identical repeat is one object, also when one copy spells out the default namespace', () => {
    const index = new ManifestIndex([service('cnpg-system'), service(), service('cnpg-system')], 'cnpg-system');
    expect(index.all.map((m) => `${m.index} ${m.ref}`)).toEqual(['0 Service/cnpg-system/plugin']);
    expect(index.repeats.map((r) => `${r.index} of ${r.of.index}`)).toEqual(['1 of 0', '2 of 0']);
    expect(index.get('Service', 'cnpg-system', 'plugin')).toHaveLength(1);
    expect(index.conflictingDeclarations()).toEqual([]);
  });
  test('declarations that differ stay two objects', () => {
    const index = new ManifestIndex([service('cnpg-system'), service(undefined, 9091)], 'cnpg-system');
    expect(index.all).toHaveLength(2);
    expect(index.repeats).toEqual([]);
    expect(index.conflictingDeclarations().map((list) => list.map((m) => m.index))).toEqual([[0, 1]]);
    expect(declarationDifference(index.all[0].raw, index.all[1].raw)).toBe('spec.ports[0].port');
  });
  test('another namespace, API group or name is another object, not a repeat', () => {
    const knative = { ...service('cnpg-system'), apiVersion: 'serving.knative.dev/v1' };
    const index = new ManifestIndex([service('cnpg-system'), service('other'), knative], 'cnpg-system');
    expect(index.all).toHaveLength(3);
    expect(index.repeats).toEqual([]);
    expect(index.conflictingDeclarations()).toEqual([]);
  });
  test('namespaceOf and manifestOf answer for the raw JSON of an object of the input', () => {
    const objects = [service(), { apiVersion: 'v1', kind: 'List', items: [service('db')] }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'db' } }];
    const index = new ManifestIndex(objects, 'cnpg-system');
    expect(index.namespaceOf(objects[0])).toBe('cnpg-system');
    expect(index.namespaceOf((objects[1] as { items: object[] }).items[0] as Record<string, unknown>)).toBe('db');
    expect(index.namespaceOf(objects[2])).toBeUndefined();
    expect(index.manifestOf(objects[2])?.ref).toBe('Namespace/db');
    expect(index.manifestOf({})).toBeUndefined();
  });
});
