/*
 * Whether a Cluster is a replica cluster (cloudnative-pg v1.30.0 api/v1/cluster_funcs.go
 * Cluster.IsReplica).
 */
import { Json, asObject, asString, dig } from '../../manifests/json';

/**
 * A Cluster is a replica when `spec.replica.enabled` says so; without `enabled`, when it is not
 * the `primary` it names (itself being `spec.replica.self`, else its name). No `spec.replica`: a
 * primary.
 * @internal
 */
export function isReplicaCluster(cluster: Json): boolean {
  const replica = asObject(dig(cluster, 'spec', 'replica'));
  if (replica === undefined) return false;
  if (typeof replica.enabled === 'boolean') return replica.enabled;
  const self = asString(replica.self) || asString(dig(cluster, 'metadata', 'name')) || '';
  return self !== (asString(replica.primary) ?? '');
}
