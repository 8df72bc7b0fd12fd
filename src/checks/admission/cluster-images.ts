/*
 * The Cluster webhook's checks of the PostgreSQL image (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go).
 */
import { describeValue } from '../../manifests/errors';
import { Json, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { imageReference, versionFromTag } from './cluster-reading';
import { goString } from './go-values';

/**
 * validateImageName: `spec.imageName` (the operator's default image when the Cluster names none
 * and no catalog, written by the defaulter) has a tag that starts with a PostgreSQL version, from
 * which the operator reads the major version and detects upgrades (machinery reference.New and
 * version.FromTag).
 */
function imageName(cluster: Json): CheckIssue[] {
  const image = goString(dig(cluster, 'spec', 'imageName'));
  if (image === '') return [];
  const { tag } = imageReference(image);
  const refuse = (answer: string, why: string): CheckIssue[] => [
    {
      severity: 'error',
      path: 'spec.imageName',
      message: `the Cluster webhook refuses imageName ${describeValue(image)} ("${answer}"): ${why}`,
      fix: "pin a tag that starts with the PostgreSQL version, such as 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie' (a digest may follow the tag), or use imageCatalogRef",
    },
  ];
  if (tag === 'latest') {
    return refuse(
      "Can't use 'latest' as image tag as we can't detect upgrades",
      `${/:latest(@|$)/.test(image) ? 'the latest tag' : 'an image without tag or digest is the latest tag, which'} names no PostgreSQL version, so the operator cannot tell the major version or a major upgrade`,
    );
  }
  if (tag === '')
    return refuse(
      "Can't use just the image sha as we can't detect upgrades",
      'a digest alone names no PostgreSQL version, so the operator cannot tell the major version or a major upgrade',
    );
  if (versionFromTag(tag) === undefined) {
    return refuse(
      'invalid version tag',
      `the tag ${describeValue(tag)} does not start with a PostgreSQL version, from which the operator reads the major version`,
    );
  }
  return [];
}

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
export const CLUSTER_IMAGE_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateImageName', check: imageName },
  { kind: 'Cluster', upstream: 'validateImagePullPolicy', check: imagePullPolicy },
];
