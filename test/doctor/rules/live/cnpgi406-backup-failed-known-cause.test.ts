import { healthyCluster, liveFindings } from '../../../live/live-cluster';

const backup = (status: Record<string, unknown>) => ({
  apiVersion: 'postgresql.cnpg.io/v1',
  kind: 'Backup',
  metadata: { name: 'manual', namespace: 'databases' },
  spec: { cluster: { name: 'pg' }, method: 'plugin', pluginConfiguration: { name: 'barman-cloud.cloudnative-pg.io' } },
  status,
});

describe('CNPGI406 backup-failed-known-cause', () => {
  test('"requested plugin is not available": the instance pod lacks the sidecar, not the operator', () => {
    const objects = [
      ...healthyCluster(),
      backup({ phase: 'failed', error: 'requested plugin is not available: barman-cloud.cloudnative-pg.io', instanceID: { podName: 'pg-2' } }),
    ];
    expect(liveFindings(objects, 'CNPGI406')).toEqual([
      {
        severity: 'error',
        object: 'Backup/databases/manual',
        message:
          "Backup failed: \"requested plugin is not available: barman-cloud.cloudnative-pg.io\": the instance pod 'pg-2' that ran it has no socket of barman-cloud.cloudnative-pg.io, so its pod lacks the plugin's sidecar; the operator's own registration of the plugin is not the problem",
        fix: "roll the instances of Cluster 'pg' so that the plugin injects its sidecar: kubectl cnpg restart pg -n databases (without the kubectl plugin: kubectl annotate cluster pg -n databases --overwrite kubectl.kubernetes.io/restartedAt=$(date -u +%Y-%m-%dT%H:%M:%SZ)); then create a new Backup",
        path: 'status.error',
      },
    ]);
  });

  test('near misses pass: a completed Backup, a failure of unknown cause', () => {
    expect(liveFindings([...healthyCluster(), backup({ phase: 'completed' })], 'CNPGI406')).toEqual([]);
    expect(liveFindings([...healthyCluster(), backup({ phase: 'failed', error: 'can not find ObjectStore databases/store' })], 'CNPGI406')).toEqual([]);
    expect(liveFindings([...healthyCluster(), backup({ phase: 'running', error: 'requested plugin is not available: x' })], 'CNPGI406')).toEqual([]);
  });
});
