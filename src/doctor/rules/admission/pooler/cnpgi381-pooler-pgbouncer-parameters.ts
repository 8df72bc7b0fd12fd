/*
 * CNPGI381: the Pooler webhook's check of the PgBouncer parameters.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A PgBouncer parameter a Pooler may not set. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI381',
  name: 'pooler-pgbouncer-parameters',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A key of a Pooler's `spec.pgbouncer.parameters` is not one of the PgBouncer settings the operator lets a Pooler set (`pool_mode`, for one, is `spec.pgbouncer.poolMode`).",
  why: 'The Pooler webhook refuses every other key as "Invalid or reserved parameter", naming the path spec.cluster.parameters (cloudnative-pg v1.30.0 internal/webhook/v1/pooler_webhook.go PoolerCustomValidator.validatePgbouncerGenericParameters, the list AllowedPgbouncerGenericConfigurationParameters).',
  fix: 'Use a setting of the list (the finding names the nearest one), the Pooler field that sets it, or remove the key.',
  kinds: ['postgresql.cnpg.io/Pooler'],
  check: reportAdmission('Pooler', 'validatePgbouncerGenericParameters'),
};
