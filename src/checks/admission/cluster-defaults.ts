/*
 * The Cluster's defaulting webhook (cloudnative-pg v1.30.0 api/v1/cluster_defaults.go
 * Cluster.Default, setDefaults): WIP on the admission branch, completed before it lands. What is
 * here already is what the update checks need (the replication slot stanzas).
 */
import { Json, asObject } from '../../manifests/json';
import type { AdmissionContext } from './admission-check';
import { present } from './cluster-funcs';

/**
 * `cluster` (a copy the caller owns, CRD defaults applied) as Cluster.Default leaves it, or with
 * `preserveUserSettings: false` as SetDefaults does (the stored Cluster of an update).
 * @internal
 */
export function defaultCluster(cluster: Json, _context: AdmissionContext, _preserveUserSettings = true): Json {
  const spec = asObject(cluster.spec);
  if (spec) defaultReplicationSlots(spec);
  return cluster;
}

/**
 * setDefaults: `spec.replicationSlots` exists, with HA slots (enabled, prefix `_cnpg_`) and slot
 * synchronization (enabled) where a stanza is missing. A present `highAvailability` keeps its
 * prefix, even none (the CRD's default gives it `_cnpg_` first).
 */
function defaultReplicationSlots(spec: Json): void {
  const slots = asObject(spec.replicationSlots) ?? {};
  spec.replicationSlots = slots;
  if (!present(slots.highAvailability)) slots.highAvailability = { enabled: true, slotPrefix: '_cnpg_' };
  if (!present(slots.synchronizeReplicas)) slots.synchronizeReplicas = { enabled: true };
}
