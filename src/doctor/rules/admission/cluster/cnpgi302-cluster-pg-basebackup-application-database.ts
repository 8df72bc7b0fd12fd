/*
 * CNPGI302: the Cluster webhook's validatePgBaseBackupApplicationDatabase.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validatePgBaseBackupApplicationDatabase refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI302',
  name: 'cluster-pg-basebackup-application-database',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.bootstrap.pg_basebackup` has a database without an owner or an owner without a database, and is not completed by the defaulter because a `recovery` section is set beside it.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePgBaseBackupApplicationDatabase, validateApplicationDatabase). The defaulting webhook fills in the database and owner of the one method it bootstraps with (api/v1/cluster_defaults.go setDefaults: recovery first), so the error reaches admission only beside a recovery section, which validateBootstrapMethod refuses as well. validateRecoveryApplicationDatabase, its twin for recovery, never reaches admission and has no rule.',
  fix: 'Keep one bootstrap method; in `pg_basebackup` set both `database` and `owner`, or neither.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validatePgBaseBackupApplicationDatabase'),
};
