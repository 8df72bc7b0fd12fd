/*
 * The Cluster's defaulting webhook (cloudnative-pg v1.30.0 api/v1/cluster_defaults.go
 * Cluster.Default, setDefaults): WIP on the admission branch, completed before it lands.
 */
import type { Json } from '../../manifests/json';
import type { AdmissionContext } from './admission-check';

/** `cluster` (a copy the caller owns, CRD defaults applied) as Cluster.Default leaves it. @internal */
export function defaultCluster(cluster: Json, _context: AdmissionContext): Json {
  return cluster;
}
