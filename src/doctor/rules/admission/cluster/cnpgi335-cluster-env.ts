/*
 * CNPGI335: the Cluster webhook's check of a reserved environment variable.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.env` sets a variable the operator keeps for itself: a name starting with `PG` or `CNPG_` (any case), or `POD_NAME`, `NAMESPACE`, `CLUSTER_NAME`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI335',
  name: 'cluster-env',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.env` sets a variable the operator keeps for itself: a name starting with `PG` or `CNPG_` (any case), or `POD_NAME`, `NAMESPACE`, `CLUSTER_NAME`.",
  why: 'The operator sets PGDATA, PGPORT, PGHOST, POD_NAME, NAMESPACE, CLUSTER_NAME and the like in every instance, and the Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateEnv; cloudnative-pg v1.30.0 pkg/postgres/environment.go IsReservedEnvironmentVariable).',
  fix: 'Rename the variable; PostgreSQL settings go in `spec.postgresql.parameters`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateEnv'),
};
