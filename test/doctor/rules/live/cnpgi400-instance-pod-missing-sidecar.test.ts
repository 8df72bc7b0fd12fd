import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { find, healthyCluster, liveFindings } from '../../../live/live-cluster';

const RESTART =
  'kubectl cnpg restart pg -n databases (without the kubectl plugin: kubectl annotate cluster pg -n databases --overwrite kubectl.kubernetes.io/restartedAt=$(date -u +%Y-%m-%dT%H:%M:%SZ))';
const SAYS =
  'in it WAL archiving fails with "wal archive plugin is not available: barman-cloud.cloudnative-pg.io" and a backup with "requested plugin is not available: barman-cloud.cloudnative-pg.io"';

describe('CNPGI400 instance-pod-missing-sidecar', () => {
  test('a pod without the injected sidecar, with the command that rolls it', () => {
    const objects = healthyCluster();
    find(objects, 'Pod', 'pg-2').spec.initContainers.pop();
    expect(liveFindings(objects, 'CNPGI400')).toEqual([
      {
        severity: 'error',
        object: 'Cluster/databases/pg',
        message: `instance pod 'pg-2' of this Cluster has no 'plugin-barman-cloud' container, which barman-cloud.cloudnative-pg.io injects (the plugin entry sets barmanObjectName); ${SAYS}; the operator rolls a pod whose spec lacks an injected sidecar once it reconciles the Cluster with the plugin reachable; if it has not, the plugin was not available to it then (see CNPGI402 and the Cluster's phase)`,
        fix: `roll the instances: ${RESTART}`,
        path: 'spec.plugins',
      },
    ]);
  });

  test('says why the operator did not roll them: pod spec reconciliation disabled, or pods of an older operator', () => {
    const disabled = healthyCluster();
    find(disabled, 'Pod', 'pg-1').spec.initContainers.pop();
    find(disabled, 'Cluster').metadata.annotations = { 'cnpg.io/reconcilePodSpec': 'disabled' };
    expect(liveFindings(disabled, 'CNPGI400')[0].message).toContain(
      "; the Cluster's annotation cnpg.io/reconcilePodSpec: disabled keeps the operator from comparing pod specs, so it never rolls them for a sidecar",
    );
    const legacy = healthyCluster();
    for (const name of ['pg-1', 'pg-2']) {
      const pod = find(legacy, 'Pod', name);
      pod.spec.initContainers.pop();
      delete pod.metadata.annotations['cnpg.io/podSpec'];
    }
    expect(liveFindings(legacy, 'CNPGI400')[0].message).toContain("instance pods 'pg-1', 'pg-2' of this Cluster have no 'plugin-barman-cloud' container");
    expect(liveFindings(legacy, 'CNPGI400')[0].message).toContain(
      'some of them have no cnpg.io/podSpec annotation (made by an older operator), so the operator runs only its legacy checks, which do not look at sidecars',
    );
  });

  test('near misses pass: the sidecar as a container, a disabled plugin, a plugin entry without an ObjectStore, pods of another Cluster', () => {
    const asContainer = healthyCluster();
    const pod = find(asContainer, 'Pod', 'pg-1');
    const sidecar = pod.spec.initContainers.pop();
    delete sidecar.restartPolicy;
    pod.spec.containers.push(sidecar);
    expect(liveFindings(asContainer, 'CNPGI400')).toEqual([]);

    const notInjected = healthyCluster();
    find(notInjected, 'Pod', 'pg-1').spec.initContainers.pop();
    delete find(notInjected, 'Cluster').spec.plugins[0].parameters.barmanObjectName;
    expect(liveFindings(notInjected, 'CNPGI400')).toEqual([]);

    const disabledPlugin = healthyCluster();
    find(disabledPlugin, 'Pod', 'pg-1').spec.initContainers.pop();
    Object.assign(find(disabledPlugin, 'Cluster').spec.plugins[0], { enabled: false, isWALArchiver: false });
    expect(liveFindings(disabledPlugin, 'CNPGI400')).toEqual([]);

    const other = healthyCluster();
    find(other, 'Pod', 'pg-1').spec.initContainers.pop();
    find(other, 'Pod', 'pg-1').metadata.labels['cnpg.io/cluster'] = 'another';
    expect(liveFindings(other, 'CNPGI400')).toEqual([]);

    // an init container that runs once is no sidecar
    const runOnce = healthyCluster();
    delete find(runOnce, 'Pod', 'pg-1').spec.initContainers[1].restartPolicy;
    expect(liveFindings(runOnce, 'CNPGI400')).toHaveLength(1);
  });

  test('Scale-to-Zero injects its sidecar into every instance, whatever its parameters', () => {
    const objects = healthyCluster();
    find(objects, 'Cluster').spec.plugins.push({ name: 'cnpg-i-scale-to-zero.xata.io', enabled: true });
    find(objects, 'Pod', 'pg-1').spec.containers.push({ name: 'scale-to-zero', image: 'ghcr.io/xataio/cnpg-i-scale-to-zero-sidecar:v0.1.9' });
    expect(liveFindings(objects, 'CNPGI400').map((f) => f.message)).toEqual([
      "instance pod 'pg-2' of this Cluster has no 'scale-to-zero' container, which cnpg-i-scale-to-zero.xata.io injects; the plugin's sidecar does not run there; the operator rolls a pod whose spec lacks an injected sidecar once it reconciles the Cluster with the plugin reachable; if it has not, the plugin was not available to it then (see CNPGI402 and the Cluster's phase)",
    ]);
  });

  test('not judged when the pods could not be listed, nor on manifests', () => {
    const objects = healthyCluster();
    find(objects, 'Pod', 'pg-2').spec.initContainers.pop();
    expect(liveFindings(objects, 'CNPGI400', undefined, ['Pod'])).toEqual([]);
    expect(analyzeManifests(objects).findings.filter((f) => f.ruleId === 'CNPGI400')).toEqual([]);
  });
});
