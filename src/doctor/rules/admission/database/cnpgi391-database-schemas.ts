/*
 * CNPGI391: the Database webhook's check of repeated schemas.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** Two schemas of one name in a Database. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI391',
  name: 'database-schemas',
  severities: [{ severity: 'error', when: 'always' }],
  what: "Two entries of a Database's `spec.schemas` have the same name.",
  why: 'The Database webhook refuses the repeated name (cloudnative-pg v1.30.0 internal/webhook/v1/database_webhook.go DatabaseCustomValidator.validateSchemas, a Duplicate value at spec.schemas[i].name).',
  fix: 'Keep one entry per schema.',
  kinds: ['postgresql.cnpg.io/Database'],
  check: reportAdmission('Database', 'validateSchemas'),
};
