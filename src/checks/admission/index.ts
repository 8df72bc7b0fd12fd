/*
 * CloudNativePG's admission, as one function per kind: what the API server's CRD defaults and the
 * defaulting webhook do to an object, then every check of its validating webhook
 * (cloudnative-pg v1.30.0 internal/webhook/v1/*_webhook.go), unless the object switches its
 * validation off (common.go isValidationEnabled).
 */
import { Json, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import { AdmissionCheck, AdmissionContext, AdmissionKind } from './admission-check';
import { BACKUP_CHECKS } from './backup';
import { CLUSTER_BARMAN_CHECKS } from './cluster-barman';
import { CLUSTER_IMAGE_CHECKS } from './cluster-images';
import { CLUSTER_LDAP_CHECKS } from './cluster-ldap';
import { CLUSTER_PARAMETER_CHECKS } from './cluster-parameters';
import { CLUSTER_REPLICATION_SLOT_CHECKS } from './cluster-replication-slots';
import { CLUSTER_SCHEDULING_CHECKS } from './cluster-scheduling';
import { CLUSTER_SYNCHRONOUS_CHECKS } from './cluster-synchronous';
import { DATABASE_CHECKS } from './database';
import { defaultObject } from './defaults';
import { POOLER_CHECKS } from './pooler';

/**
 * Every admission check, by kind, in the order the webhooks run them. Each family of checks is a
 * module of this folder exporting its list.
 * @internal
 */
export const ADMISSION_CHECKS: readonly AdmissionCheck[] = [
  ...CLUSTER_IMAGE_CHECKS,
  ...CLUSTER_SCHEDULING_CHECKS,
  ...CLUSTER_BARMAN_CHECKS,
  ...CLUSTER_PARAMETER_CHECKS,
  ...CLUSTER_SYNCHRONOUS_CHECKS,
  ...CLUSTER_LDAP_CHECKS,
  ...CLUSTER_REPLICATION_SLOT_CHECKS,
  ...BACKUP_CHECKS,
  ...POOLER_CHECKS,
  ...DATABASE_CHECKS,
];

/** What admission does to one object. @internal */
export interface Admission {
  /** The object as the defaulting webhook leaves it: what the checks judged. */
  readonly defaulted: Json;
  /**
   * Set when the object's `cnpg.io/validation: disabled` annotation makes the webhook accept it
   * unjudged (every kind but ScheduledBackup, whose webhook ignores the annotation).
   */
  readonly validationDisabled: boolean;
  /** The issues of each check that found any, by upstream function. */
  readonly issues: ReadonlyMap<string, readonly CheckIssue[]>;
}

/** The annotation with which an object switches its validating webhook off (common.go). */
export const VALIDATION_ANNOTATION = 'cnpg.io/validation';

/**
 * Whether the webhook judges `object`: it does unless the annotation says `disabled` (any other
 * value, or none, leaves validation on; cloudnative-pg v1.30.0 internal/webhook/v1/common.go
 * isValidationEnabled). The ScheduledBackup webhook is registered without that wrapper.
 * @internal
 */
export function validationEnabled(kind: AdmissionKind, object: Json): boolean {
  if (kind === 'ScheduledBackup') return true;
  return asString(dig(object, 'metadata', 'annotations', VALIDATION_ANNOTATION)) !== 'disabled';
}

const BY_KIND = new Map<AdmissionKind, AdmissionCheck[]>();
for (const c of ADMISSION_CHECKS) BY_KIND.set(c.kind, [...(BY_KIND.get(c.kind) ?? []), c]);

/** Runs the admission of `kind` over `object` (which is not changed). @internal */
export function admit(kind: AdmissionKind, object: Json, context: AdmissionContext = {}): Admission {
  const defaulted = defaultObject(kind, object, context);
  const validationDisabled = !validationEnabled(kind, object);
  const issues = new Map<string, readonly CheckIssue[]>();
  if (!validationDisabled) {
    for (const c of BY_KIND.get(kind) ?? []) {
      const found = c.check(defaulted, context);
      if (found.length > 0) issues.set(c.upstream, found);
    }
  }
  return { defaulted, validationDisabled, issues };
}

/** The check of an upstream function, for the conformance table and the tests. @internal */
export function admissionCheck(kind: AdmissionKind, upstream: string): AdmissionCheck | undefined {
  return BY_KIND.get(kind)?.find((c) => c.upstream === upstream);
}
