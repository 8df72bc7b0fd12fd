import { find, healthyCluster, liveFindings } from '../../../live/live-cluster';

describe('CNPGI402 plugin-service-no-ready-endpoint', () => {
  const service = () => find(healthyCluster(), 'Service').metadata.name as string;
  const fix = (name: string) =>
    `make a plugin pod ready: kubectl -n cnpg-system get pods -l app.kubernetes.io/instance=${name.replace('plugin-service-c8ac7515', 'plugin-deployment-c898e255')},app.kubernetes.io/name=cnpg-i-plugin, then read its events and logs`;

  test('an EndpointSlice whose endpoints are not ready', () => {
    const objects = healthyCluster();
    find(objects, 'EndpointSlice').endpoints[0].conditions.ready = false;
    const name = service();
    expect(liveFindings(objects, 'CNPGI402')).toEqual([
      {
        severity: 'error',
        object: `Service/cnpg-system/${name}`,
        message:
          "plugin 'barman-cloud.cloudnative-pg.io' has no ready endpoint: its EndpointSlices list 1 endpoint, none ready; the operator's connections to the plugin fail, and every Cluster that needs it stops reconciling until a plugin pod is ready",
        fix: fix(name),
        path: 'spec.selector',
      },
    ]);
  });

  test('no EndpointSlice at all', () => {
    const objects = healthyCluster().filter((o) => o.kind !== 'EndpointSlice');
    expect(liveFindings(objects, 'CNPGI402').map((f) => f.message)).toEqual([
      "plugin 'barman-cloud.cloudnative-pg.io' has no ready endpoint: the Service has no EndpointSlice; the operator's connections to the plugin fail, and every Cluster that needs it stops reconciling until a plugin pod is ready",
    ]);
  });

  test('near misses pass: a ready endpoint, an endpoint without conditions (read as ready), a slice not listed', () => {
    expect(liveFindings(healthyCluster(), 'CNPGI402')).toEqual([]);
    const nil = healthyCluster();
    delete find(nil, 'EndpointSlice').endpoints[0].conditions;
    expect(liveFindings(nil, 'CNPGI402')).toEqual([]);
    const two = healthyCluster();
    const slice = find(two, 'EndpointSlice');
    slice.endpoints = [{ addresses: ['10.0.0.6'], conditions: { ready: false } }, ...slice.endpoints];
    expect(liveFindings(two, 'CNPGI402')).toEqual([]);
    const unread = healthyCluster().filter((o) => o.kind !== 'EndpointSlice');
    expect(liveFindings(unread, 'CNPGI402', undefined, ['EndpointSlice'])).toEqual([]);
  });
});
