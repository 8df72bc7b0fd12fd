/*
 * CNPGI390: the Database webhook's check of repeated extensions.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** Two extensions of one name in a Database. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI390',
  name: 'database-extensions',
  severities: [{ severity: 'error', when: 'always' }],
  what: "Two entries of a Database's `spec.extensions` have the same name.",
  why: 'The Database webhook refuses the repeated name (cloudnative-pg v1.30.0 internal/webhook/v1/database_webhook.go DatabaseCustomValidator.validateExtensions, a Duplicate value at spec.extensions[i].name).',
  fix: 'Keep one entry per extension.',
  kinds: ['postgresql.cnpg.io/Database'],
  check: reportAdmission('Database', 'validateExtensions'),
};
