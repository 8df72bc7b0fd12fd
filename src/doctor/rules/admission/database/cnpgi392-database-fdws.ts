/*
 * CNPGI392: the Database webhook's check of repeated foreign data wrappers, options and usages.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** Two foreign data wrappers of one name, or two options or usages of one name in a wrapper. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI392',
  name: 'database-fdws',
  severities: [{ severity: 'error', when: 'always' }],
  what: "Two entries of a Database's `spec.fdws` have the same name, or two entries of one wrapper's `options` or `usage`.",
  why: 'The Database webhook refuses each repeated name (cloudnative-pg v1.30.0 internal/webhook/v1/database_webhook.go DatabaseCustomValidator.validateFDWs and validateNameOptionsUsages; for `usage` it names the path spec.fdws[i].usages[j].name).',
  fix: 'Keep one entry per wrapper, and one option and one usage per name in each wrapper.',
  kinds: ['postgresql.cnpg.io/Database'],
  check: reportAdmission('Database', 'validateFDWs'),
};
