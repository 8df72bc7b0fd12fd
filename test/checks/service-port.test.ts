import { checkPluginServicePort } from '../../src/checks/service-port';

const service = (spec: object, port = '9090') => ({ kind: 'Service', metadata: { name: 'p', annotations: { 'cnpg.io/pluginPort': port } }, spec });
const pods = [{ containerPort: 9090, name: 'grpc' }];

describe('checkPluginServicePort', () => {
  test('a headless Service whose annotation is the container port works', () => {
    expect(checkPluginServicePort(service({ clusterIP: 'None', ports: [{ port: 443, targetPort: 9090 }] }), pods)).toEqual([]);
  });
  test('a headless Service whose annotation is the Service port misses the pods: targetPort is not applied', () => {
    expect(checkPluginServicePort(service({ clusterIP: 'None', ports: [{ port: 443, targetPort: 9090 }] }, '443'), pods)).toEqual([
      expect.objectContaining({
        severity: 'error',
        message:
          "is 443 on a headless Service (clusterIP: None): the operator's dial reaches the pod IPs directly on 443, targetPort is not applied, and the pods listen on 9090",
      }),
    ]);
  });
  test('pods that declare no ports, or pods not in the input, are not judged (declared ports are informational)', () => {
    expect(checkPluginServicePort(service({ clusterIP: 'None', ports: [{ port: 443, targetPort: 9090 }] }, '443'), [])).toEqual([]);
    expect(checkPluginServicePort(service({ clusterIP: 'None', ports: [{ port: 443 }] }, '443'), undefined)).toEqual([]);
  });
  test('a headless Service over pods with several ports: any of them is reached', () => {
    expect(checkPluginServicePort(service({ clusterIP: 'None' }, '8080'), [{ containerPort: 9090 }, { containerPort: 8080 }])).toEqual([]);
    expect(checkPluginServicePort(service({ clusterIP: 'None' }, '7070'), [{ containerPort: 9090 }, { containerPort: 8080 }])[0].fix).toBe(
      'set cnpg.io/pluginPort to the container port, or drop clusterIP: None',
    );
  });
  test('a normal Service is left to CNPGI014/CNPGI015', () => {
    expect(checkPluginServicePort(service({ ports: [{ port: 443, targetPort: 8080 }] }, '443'), pods)).toEqual([]);
  });
});
