/*
 * CNPGI337: the Cluster webhook's check of managed roles.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A managed role of a Cluster (`spec.managed.roles`) is declared twice, has a connection limit below -1, is reserved (`postgres`, `streaming_replica`, or a name starting with `cnpg_` or `pg_`), or both sets and disables its password. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI337',
  name: 'cluster-managed-roles',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A managed role of a Cluster (`spec.managed.roles`) is declared twice, has a connection limit below -1, is reserved (`postgres`, `streaming_replica`, or a name starting with `cnpg_` or `pg_`), or both sets and disables its password.',
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateManagedRoles; cloudnative-pg v1.30.0 pkg/postgres/roles.go IsRoleReserved).',
  fix: 'Declare each role once, with a name of your own, a connection limit of -1 or more, and either `passwordSecret` or `disablePassword`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateManagedRoles'),
};
