import { find, healthyCluster, liveFindings } from '../../../live/live-cluster';

const failing = (message: string) => {
  const objects = healthyCluster();
  find(objects, 'Cluster').status.conditions[0] = { type: 'ContinuousArchiving', status: 'False', reason: 'ContinuousArchivingFailing', message };
  return objects;
};

describe('CNPGI405 cluster-archiving-failing', () => {
  test('the missing-plugin message: the primary lacks the sidecar', () => {
    expect(liveFindings(failing('wal archive plugin is not available: barman-cloud.cloudnative-pg.io'), 'CNPGI405')).toEqual([
      {
        severity: 'error',
        object: 'Cluster/databases/pg',
        message:
          "WAL archiving fails: \"wal archive plugin is not available: barman-cloud.cloudnative-pg.io\": the primary 'pg-1' has no socket of barman-cloud.cloudnative-pg.io, so its pod lacks the plugin's sidecar (it predates the plugin entry, or was created while the plugin was unavailable); the operator's own registration of the plugin is not the problem",
        fix: 'roll the instances so that the plugin injects its sidecar: kubectl cnpg restart pg -n databases (without the kubectl plugin: kubectl annotate cluster pg -n databases --overwrite kubectl.kubernetes.io/restartedAt=$(date -u +%Y-%m-%dT%H:%M:%SZ))',
        path: 'status.conditions',
      },
    ]);
  });

  test('another message: where to read why', () => {
    expect(liveFindings(failing('unexpected failure invoking barman-cloud-wal-archive: exit status 4'), 'CNPGI405')).toEqual([
      {
        severity: 'error',
        object: 'Cluster/databases/pg',
        message:
          'WAL archiving fails: "unexpected failure invoking barman-cloud-wal-archive: exit status 4"; WAL accumulates on the primary \'pg-1\' and backups cannot complete',
        fix: "read the archiver's log on the primary: kubectl logs -n databases pg-1 -c plugin-barman-cloud (the plugin's sidecar), or -c postgres for the in-tree archiver",
        path: 'status.conditions',
      },
    ]);
  });

  test('near misses pass: archiving working, no condition yet', () => {
    expect(liveFindings(healthyCluster(), 'CNPGI405')).toEqual([]);
    const none = healthyCluster();
    find(none, 'Cluster').status.conditions = [];
    expect(liveFindings(none, 'CNPGI405')).toEqual([]);
  });
});
