/*
 * CNPGI398: an object that switches CloudNativePG's validating webhook off.
 */
import { BYPASSABLE_KINDS, checkValidationDisabled } from '../../../../checks/admission/validation-annotation';
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportOnObjects } from '../admission-inputs';

/** `cnpg.io/validation: disabled`: the webhook accepts the object unjudged. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI398',
  name: 'validation-disabled',
  severities: [{ severity: 'warning', when: 'always' }],
  what: 'A Cluster, Backup, Pooler or Database carries the annotation `cnpg.io/validation: disabled`.',
  why: "The validating webhook then accepts the object without running any of its checks and answers a warning (cloudnative-pg v1.30.0 internal/webhook/v1/common.go isValidationEnabled, validate); the doctor's admission rules report nothing on such an object either, so a mistake reaches the operator. The ScheduledBackup webhook does not read the annotation.",
  fix: 'Remove the annotation, or set it to `enabled`, once the change that needed it is applied.',
  kinds: BYPASSABLE_KINDS.map((k) => `postgresql.cnpg.io/${k}`),
  check: reportOnObjects('isValidationEnabled', BYPASSABLE_KINDS, checkValidationDisabled),
};
