/*
 * CNPGI393: the Database webhook's check of foreign servers.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A foreign server on an undeclared wrapper, or repeated servers, options or usages. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI393',
  name: 'database-foreign-servers',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A foreign server of a Database (not `ensure: absent`) names a wrapper that `spec.fdws` does not declare, or two servers have the same name, or two options or usages of one server.',
  why: 'The Database webhook refuses them (cloudnative-pg v1.30.0 internal/webhook/v1/database_webhook.go DatabaseCustomValidator.validateForeignServers, validateServerFDWReference and validateNameOptionsUsages; for `usage` it names the path spec.servers[i].usages[j].name).',
  fix: 'Declare the wrapper in `spec.fdws`, and keep one entry per server, option and usage name.',
  kinds: ['postgresql.cnpg.io/Database'],
  check: reportAdmission('Database', 'validateForeignServers'),
};
