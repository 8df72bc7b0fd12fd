/*
 * The `cnpg.io/validation` annotation, with which an object switches CloudNativePG's validating
 * webhook off (cloudnative-pg v1.30.0 internal/webhook/v1/common.go isValidationEnabled and the
 * bypassable validator's validate). The Cluster, Backup, Pooler and Database webhooks are
 * registered through that wrapper; the ScheduledBackup webhook is not, so the annotation changes
 * nothing in its admission.
 */
import { Json, asString, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionKind } from './admission-check';

/** The annotation with which an object switches its validating webhook off (common.go). */
export const VALIDATION_ANNOTATION = 'cnpg.io/validation';

/** The kinds whose validating webhook reads the annotation. @internal */
export const BYPASSABLE_KINDS: readonly AdmissionKind[] = ['Cluster', 'Backup', 'Pooler', 'Database'];

/** What the annotation says (common.go isValidationEnabled). @internal */
export interface ValidationAnnotation {
  /** The annotation's value; empty when it is absent (or not a string). */
  readonly value: string;
  /** Validation runs: the value is empty, `enabled`, or anything but `disabled`. */
  readonly enabled: boolean;
  /** The value is none of empty, `enabled` and `disabled`: the webhook warns and validates. */
  readonly unrecognized: boolean;
}

/** Reads the annotation of `object` as isValidationEnabled does. @internal */
export function readValidationAnnotation(object: Json): ValidationAnnotation {
  const value = asString(dig(object, 'metadata', 'annotations', VALIDATION_ANNOTATION)) ?? '';
  return { value, enabled: value !== 'disabled', unrecognized: !['', 'enabled', 'disabled'].includes(value) };
}

/**
 * Whether the webhook of `kind` judges `object`: it does unless the annotation says `disabled`
 * (any other value, or none, leaves validation on). The ScheduledBackup webhook always does.
 * @internal
 */
export function validationEnabled(kind: AdmissionKind, object: Json): boolean {
  return !BYPASSABLE_KINDS.includes(kind) || readValidationAnnotation(object).enabled;
}

const PATH = `metadata.annotations.${VALIDATION_ANNOTATION}`;

/**
 * `cnpg.io/validation: disabled` on an object whose webhook reads it: the webhook accepts the
 * object without judging it, with a warning (common.go validate).
 * @internal
 */
export function checkValidationDisabled(kind: AdmissionKind, object: Json): CheckIssue[] {
  if (validationEnabled(kind, object)) return [];
  return [
    {
      severity: 'warning',
      path: PATH,
      message:
        `is "disabled": the ${kind} webhook accepts this ${kind} without judging it, with the warning "validation webhook is disabled — all changes are accepted without validation. ` +
        'This may lead to unsafe or destructive operations. Proceed with extreme caution."; a mistake it would refuse reaches the operator, ' +
        'and the doctor does not judge it either (its admission rules report nothing on this object)',
      fix: 'remove the annotation, or set it to "enabled", once the change that needed it is applied',
    },
  ];
}

/**
 * A `cnpg.io/validation` value other than `enabled` and `disabled` on an object whose webhook
 * reads it: the webhook warns and validates the object anyway (common.go isValidationEnabled).
 * @internal
 */
export function checkValidationAnnotationValue(kind: AdmissionKind, object: Json): CheckIssue[] {
  const annotation = readValidationAnnotation(object);
  if (!BYPASSABLE_KINDS.includes(kind) || !annotation.unrecognized) return [];
  return [
    {
      severity: 'warning',
      path: PATH,
      message:
        `is ${JSON.stringify(annotation.value)}, which the ${kind} webhook does not know: it answers the warning ` +
        `'invalid "${VALIDATION_ANNOTATION}" annotation: ${JSON.stringify(annotation.value)} (expected "enabled" or "disabled")' and validates the ${kind} as usual`,
      fix: 'write "enabled" (or leave the annotation out) to keep validation on; "disabled" switches it off',
    },
  ];
}
