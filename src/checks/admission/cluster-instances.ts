/*
 * The Cluster webhook's checks of what depends on the number of instances: the primary update
 * strategy and the bounds of synchronous replicas (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go). The CRD defaults `instances` to 1 and both sync
 * bounds to 0; an absent value here is Go's zero.
 */
import { describeValue } from '../../manifests/errors';
import { Json, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { goInt, goString } from './go-values';

const spec = (cluster: Json, field: string) => dig(cluster, 'spec', field);

/** validatePrimaryUpdateStrategy: `supervised` or `unsupervised`, and not `supervised` with one instance. */
function primaryUpdateStrategy(cluster: Json): CheckIssue[] {
  const strategy = goString(spec(cluster, 'primaryUpdateStrategy'));
  if (strategy === '') return [];
  if (strategy !== 'supervised' && strategy !== 'unsupervised') {
    return [
      {
        severity: 'error',
        path: 'spec.primaryUpdateStrategy',
        message: `the Cluster webhook refuses primaryUpdateStrategy ${describeValue(strategy)} ("primaryUpdateStrategy should be empty, 'supervised' or 'unsupervised'")`,
        fix: "use 'unsupervised' (the operator switches over to an updated replica on its own) or 'supervised' (it waits for you)",
      },
    ];
  }
  if (strategy === 'supervised' && goInt(spec(cluster, 'instances')) === 1) {
    return [
      {
        severity: 'error',
        path: 'spec.primaryUpdateStrategy',
        message: `the Cluster webhook refuses primaryUpdateStrategy 'supervised' with one instance ("supervised update strategy is not allowed for clusters with a single instance"): with no replica there is nothing to switch over to, so the update would wait forever`,
        fix: "use 'unsupervised', or run two or more instances",
      },
    ];
  }
  return [];
}

/** validateMinSyncReplicas: not negative, and not above maxSyncReplicas. */
function minSyncReplicas(cluster: Json): CheckIssue[] {
  const min = goInt(spec(cluster, 'minSyncReplicas'));
  const max = goInt(spec(cluster, 'maxSyncReplicas'));
  if (min === undefined) return [];
  const issues: CheckIssue[] = [];
  if (min < 0) {
    issues.push({
      severity: 'error',
      path: 'spec.minSyncReplicas',
      message: `the Cluster webhook refuses minSyncReplicas ${min} ("minSyncReplicas must be a non negative integer")`,
      fix: 'use 0 or more',
    });
  }
  if (max !== undefined && min > max) {
    issues.push({
      severity: 'error',
      path: 'spec.minSyncReplicas',
      message: `the Cluster webhook refuses minSyncReplicas ${min} above maxSyncReplicas ${max} ("minSyncReplicas cannot be greater than maxSyncReplicas")`,
      fix: `lower minSyncReplicas to at most ${max}, or raise maxSyncReplicas (below the number of instances)`,
    });
  }
  return issues;
}

/** validateMaxSyncReplicas: not negative, and below the number of instances (the primary is one of them). */
function maxSyncReplicas(cluster: Json): CheckIssue[] {
  const max = goInt(spec(cluster, 'maxSyncReplicas'));
  const instances = goInt(spec(cluster, 'instances'));
  if (max === undefined) return [];
  const issues: CheckIssue[] = [];
  if (max < 0) {
    issues.push({
      severity: 'error',
      path: 'spec.maxSyncReplicas',
      message: `the Cluster webhook refuses maxSyncReplicas ${max} ("maxSyncReplicas must be a non negative integer")`,
      fix: 'use 0 or more',
    });
  }
  // Below one instance the CRD's `minimum: 1` (api/v1/cluster_types.go ClusterSpec.Instances)
  // refuses the Cluster first: the API server validates a custom resource against its schema
  // before it calls the validating webhooks, so the webhook never compares a maxSyncReplicas the
  // user may not even have set (the CRD default, 0) with it (kubernetes v1.32.13
  // staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go Store.Create runs
  // rest.BeforeCreate, the schema validation, before createValidation, the admission webhooks).
  if (instances !== undefined && instances >= 1 && max >= instances) {
    issues.push({
      severity: 'error',
      path: 'spec.maxSyncReplicas',
      message: `the Cluster webhook refuses maxSyncReplicas ${max} with ${instances} instance${instances === 1 ? '' : 's'} ("maxSyncReplicas must be lower than the number of instances"): one instance is the primary, so at most ${Math.max(instances - 1, 0)} can be synchronous replicas`,
      fix: instances > 1 ? `use at most ${instances - 1}, or run more instances` : 'run more instances, or leave maxSyncReplicas at 0',
    });
  }
  return issues;
}

/** The instance-count checks, in the webhook's order. @internal */
export const CLUSTER_INSTANCE_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validatePrimaryUpdateStrategy', check: primaryUpdateStrategy },
  { kind: 'Cluster', upstream: 'validateMinSyncReplicas', check: minSyncReplicas },
  { kind: 'Cluster', upstream: 'validateMaxSyncReplicas', check: maxSyncReplicas },
];
