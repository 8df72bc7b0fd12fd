/*
 * CNPGI399: a `cnpg.io/validation` value the webhook does not know.
 */
import { BYPASSABLE_KINDS, checkValidationAnnotationValue } from '../../../../checks/admission/validation-annotation';
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportOnObjects } from '../admission-inputs';

/** `cnpg.io/validation` set to something other than `enabled` or `disabled`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI399',
  name: 'validation-annotation-value',
  severities: [{ severity: 'warning', when: 'always' }],
  what: 'A Cluster, Backup, Pooler or Database sets the annotation `cnpg.io/validation` to a value other than `enabled` or `disabled`.',
  why: 'The validating webhook answers a warning that the value is invalid and validates the object as usual (cloudnative-pg v1.30.0 internal/webhook/v1/common.go isValidationEnabled, validate): whatever the value meant, validation stays on.',
  fix: 'Write `enabled` (or leave the annotation out) to keep validation on; `disabled` switches it off.',
  kinds: BYPASSABLE_KINDS.map((k) => `postgresql.cnpg.io/${k}`),
  check: reportOnObjects('isValidationEnabled', BYPASSABLE_KINDS, checkValidationAnnotationValue),
};
