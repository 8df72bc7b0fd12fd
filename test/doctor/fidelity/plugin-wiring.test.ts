import { checkDuplicatePluginEntries, checkPluginServiceNames } from '../../../src/doctor/fidelity/plugin-wiring';

const B = 'barman-cloud.cloudnative-pg.io';
const cluster = (plugins: object[]) => ({ kind: 'Cluster', metadata: { name: 'pg' }, spec: { plugins } });
const svc = (name: string, labels: object, ports: object[] = [{ port: 9090 }]) => ({ kind: 'Service', metadata: { name, namespace: 'cnpg-system', labels }, spec: { ports } });

describe('checkDuplicatePluginEntries', () => {
  test('two identical entries are a warning, not an error', () => {
    expect(checkDuplicatePluginEntries(cluster([{ name: B }, { name: B }])).map((i) => [i.severity, i.path])).toEqual([['warning', 'spec.plugins[1]']]);
  });
  test('two enabled WAL archivers are refused even when they are the same plugin', () => {
    expect(checkDuplicatePluginEntries(cluster([{ name: B, isWALArchiver: true }, { name: B, isWALArchiver: true }])).map((i) => i.severity)).toEqual(['error', 'warning']);
    expect(checkDuplicatePluginEntries(cluster([{ name: B, isWALArchiver: true }, { name: B, isWALArchiver: true, enabled: false }])).map((i) => i.severity)).toEqual(['warning']);
  });
  test('distinct entries pass', () => {
    expect(checkDuplicatePluginEntries(cluster([{ name: B, isWALArchiver: true }, { name: 'other.example.com' }]))).toEqual([]);
  });
});

describe('checkPluginServiceNames', () => {
  test('a valid label and a named or numeric targetPort pass', () => {
    expect(checkPluginServiceNames(svc('a', { 'cnpg.io/pluginName': B }, [{ port: 9090, targetPort: 'grpc' }, { port: 1, targetPort: 9090 }]))).toEqual([]);
  });
  test.each([
    [{ 'cnpg.io/pluginName': `${'a'.repeat(60)}.example.com` }, [{ port: 9090 }], 'metadata.labels.cnpg.io/pluginName'],
    [{ 'cnpg.io/pluginName': 'bad name' }, [{ port: 9090 }], 'metadata.labels.cnpg.io/pluginName'],
    [{}, [{ port: 9090, targetPort: '9090' }], 'spec.ports[0].targetPort'],
    [{}, [{ port: 9090, targetPort: 'plugin-grpc-port-x' }], 'spec.ports[0].targetPort'],
    [{}, [{ port: 9090, targetPort: 'g--rpc' }], 'spec.ports[0].targetPort'],
  ])('refuses %#', (labels, ports, path) => {
    expect(checkPluginServiceNames(svc('a', labels, ports)).map((i) => i.path)).toEqual([path]);
  });
});
