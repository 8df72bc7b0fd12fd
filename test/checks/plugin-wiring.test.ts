import { checkPluginServiceNames } from '../../src/checks/plugin-wiring';

const B = 'barman-cloud.cloudnative-pg.io';
const svc = (name: string, labels: object, ports: object[] = [{ port: 9090 }]) => ({
  kind: 'Service',
  metadata: { name, namespace: 'cnpg-system', labels },
  spec: { ports },
});

describe('checkPluginServiceNames', () => {
  test('a valid label and a named or numeric targetPort pass', () => {
    expect(
      checkPluginServiceNames(
        svc('a', { 'cnpg.io/pluginName': B }, [
          { port: 9090, targetPort: 'grpc' },
          { port: 1, targetPort: 9090 },
        ]),
      ),
    ).toEqual([]);
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
