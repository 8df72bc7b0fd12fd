import { clusterDoc, findingsOf } from './webhook-findings';

const of = (spec: object) => findingsOf('CNPGI327', clusterDoc(spec));
const synchronous = { method: 'any', number: 1 };

describe('CNPGI327 cluster-synchronous-settings', () => {
  test('the synchronous stanza beside the legacy fields (the upstream test)', () => {
    expect(of({ minSyncReplicas: 1, maxSyncReplicas: 2, postgresql: { synchronous } })).toEqual([
      {
        path: 'spec.postgresql.synchronous',
        message:
          'the Cluster webhook refuses spec.postgresql.synchronous beside minSyncReplicas and maxSyncReplicas ("Can\'t have both legacy synchronous replica configuration and new one")',
        fix: 'keep spec.postgresql.synchronous and remove minSyncReplicas and maxSyncReplicas (or set them to 0)',
      },
    ]);
  });

  test('an election constraint without labels', () => {
    expect(of({ postgresql: { syncReplicaElectionConstraint: { enabled: true } } })).toEqual([
      {
        path: 'spec.postgresql.syncReplicaElectionConstraint.nodeLabelsAntiAffinity',
        message:
          'the Cluster webhook refuses syncReplicaElectionConstraint enabled without nodeLabelsAntiAffinity ("Can\'t enable syncReplicaConstraints without passing labels for comparison inside nodeLabelsAntiAffinity")',
        fix: "list the node labels that must differ between the primary and a synchronous replica, e.g. nodeLabelsAntiAffinity: ['topology.kubernetes.io/zone']",
      },
    ]);
  });

  test.each([
    ['the synchronous stanza with the legacy fields at 0', { minSyncReplicas: 0, maxSyncReplicas: 0, postgresql: { synchronous } }],
    ['the legacy fields alone', { minSyncReplicas: 1, maxSyncReplicas: 2 }],
    [
      'an election constraint with labels',
      { postgresql: { syncReplicaElectionConstraint: { enabled: true, nodeLabelsAntiAffinity: ['topology.kubernetes.io/zone'] } } },
    ],
    ['a disabled election constraint without labels', { postgresql: { syncReplicaElectionConstraint: { enabled: false } } }],
  ])('accepted: %s', (_what, spec) => {
    expect(of(spec)).toEqual([]);
  });
});
