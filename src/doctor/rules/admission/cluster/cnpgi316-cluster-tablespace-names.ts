/*
 * CNPGI316: the Cluster webhook's validateTablespaceNames.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateTablespaceNames refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI316',
  name: 'cluster-tablespace-names',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's tablespaces repeat a name (in any case), use a name that is no PostgreSQL identifier of at most 63 characters or that starts with `pg_`, or two names give the same volume name once `_` and `$` become `-`.",
  why: 'The Cluster webhook refuses each (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateTablespaceNames; pkg/postgres IsTablespaceNameValid; pkg/specs VolumeMountNameForTablespace).',
  fix: 'Give each tablespace its own PostgreSQL identifier (letters, digits, `_`, `$`; not `pg_...`), distinct beyond `_`, `$` and case.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateTablespaceNames'),
};
