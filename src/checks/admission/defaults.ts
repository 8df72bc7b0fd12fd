/*
 * What happens to an object before CloudNativePG's validating webhook judges it: the API server
 * applies the `default`s of the CRD's schema, then the defaulting webhook runs (for a Cluster,
 * cloudnative-pg v1.30.0 api/v1/cluster_defaults.go Cluster.Default; the other kinds' defaulters
 * change nothing). A value the defaulter writes is judged as written.
 */
import type { Json } from '../../manifests/json';
import type { applyCrdDefaults as ApplyCrdDefaults } from '../../schema/validate-object';
import type { AdmissionContext, AdmissionKind } from './admission-check';
import { defaultCluster } from './cluster-defaults';

let applyCrdDefaults: typeof ApplyCrdDefaults | undefined;

/** The schema layer's CRD defaulting, loaded on first use: the constructs load this module, and the schema layer stays lazy for them. */
function crdDefaults(object: Json): Json {
  applyCrdDefaults ??= (require('../../schema/validate-object') as { applyCrdDefaults: typeof ApplyCrdDefaults }).applyCrdDefaults;
  return applyCrdDefaults(object);
}

/**
 * A copy of `object` as the API server and the defaulting webhook of `kind` leave it. With
 * `preserveUserSettings: false` the Cluster is defaulted as `SetDefaults` does it, which the
 * webhook runs on the stored Cluster of an update (fixed parameters the user set are dropped).
 * @internal
 */
export function defaultObject(kind: AdmissionKind, object: Json, context: AdmissionContext, preserveUserSettings = true): Json {
  const stored = crdDefaults(object);
  return kind === 'Cluster' ? defaultCluster(stored, context, { keepUserFixedParameters: preserveUserSettings }) : stored;
}
