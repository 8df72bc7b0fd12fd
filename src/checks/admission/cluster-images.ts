/*
 * The Cluster webhook's checks of the PostgreSQL image (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go).
 */
import { Json, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';

const PULL_POLICIES = ['Always', 'Never', 'IfNotPresent'];

/**
 * validateImagePullPolicy: `spec.imagePullPolicy`, when set, is one of the three Kubernetes pull
 * policies (the CRD types it as a plain string, so only the webhook refuses another value).
 */
function imagePullPolicy(cluster: Json): CheckIssue[] {
  const policy = dig(cluster, 'spec', 'imagePullPolicy');
  if (policy === undefined || policy === '' || (typeof policy === 'string' && PULL_POLICIES.includes(policy))) return [];
  return [
    {
      severity: 'error',
      path: 'spec.imagePullPolicy',
      message: `the Cluster webhook refuses imagePullPolicy ${JSON.stringify(asString(policy) ?? policy)} ("invalid imagePullPolicy, if defined must be one of 'Always', 'Never' or 'IfNotPresent'")`,
      fix: `use ${PULL_POLICIES.join(', ')}, or leave it out (the kubelet's default for the image's tag)`,
    },
  ];
}

/** The image checks, in the webhook's order. @internal */
export const CLUSTER_IMAGE_CHECKS: readonly AdmissionCheck[] = [{ kind: 'Cluster', upstream: 'validateImagePullPolicy', check: imagePullPolicy }];
