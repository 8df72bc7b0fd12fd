import { find, healthyCluster, liveFindings } from '../../../live/live-cluster';

const OLD = 'ghcr.io/cloudnative-pg/plugin-barman-cloud-sidecar:v0.13.0';

describe('CNPGI401 instance-sidecar-image-outdated', () => {
  test('a pod still running the sidecar image of before the plugin upgrade', () => {
    const objects = healthyCluster();
    const now = find(objects, 'Pod', 'pg-1').spec.initContainers[1].image;
    find(objects, 'Pod', 'pg-1').spec.initContainers[1].image = OLD;
    const deployment = objects.find((o) => o.kind === 'Deployment' && o.metadata.name !== 'cnpg-controller-manager')!.metadata.name;
    expect(liveFindings(objects, 'CNPGI401')).toEqual([
      {
        severity: 'warning',
        object: 'Cluster/databases/pg',
        message: `instance pod 'pg-1' runs the 'plugin-barman-cloud' sidecar image '${OLD}', but barman-cloud.cloudnative-pg.io now injects '${now}' (SIDECAR_IMAGE of Deployment/cnpg-system/${deployment}); the pods keep the old sidecar until they are recreated`,
        fix: 'roll the instances: kubectl cnpg restart pg -n databases (without the kubectl plugin: kubectl annotate cluster pg -n databases --overwrite kubectl.kubernetes.io/restartedAt=$(date -u +%Y-%m-%dT%H:%M:%SZ))',
        path: 'spec.plugins',
      },
    ]);
  });

  test('reads SIDECAR_IMAGE given as a value too', () => {
    const objects = healthyCluster();
    const d = objects.find((o) => o.kind === 'Deployment' && o.metadata.name !== 'cnpg-controller-manager')!;
    d.spec.template.spec.containers[0].env = [{ name: 'SIDECAR_IMAGE', value: 'registry.example.com/sidecar:v2' }];
    expect(liveFindings(objects, 'CNPGI401').map((f) => f.message)[0]).toContain("now injects 'registry.example.com/sidecar:v2'");
  });

  test('near misses pass: the same image, a missing sidecar (CNPGI400), plugin Deployments that disagree', () => {
    expect(liveFindings(healthyCluster(), 'CNPGI401')).toEqual([]);
    const missing = healthyCluster();
    find(missing, 'Pod', 'pg-1').spec.initContainers.pop();
    expect(liveFindings(missing, 'CNPGI401')).toEqual([]);
    const unknown = healthyCluster();
    find(unknown, 'Pod', 'pg-1').spec.initContainers[1].image = OLD;
    unknown.splice(unknown.indexOf(find(unknown, 'ConfigMap')), 1);
    expect(liveFindings(unknown, 'CNPGI401')).toEqual([]);
  });
});
