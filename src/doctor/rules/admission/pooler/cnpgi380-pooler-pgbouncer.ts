/*
 * CNPGI380: the Pooler webhook's check of the PgBouncer stanza and its authentication.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Pooler without pgbouncer, or with an auth query and no credentials (or the reverse). */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI380',
  name: 'pooler-pgbouncer',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Pooler has no `spec.pgbouncer`, sets `authQuerySecret` or `serverTLSSecret` without `authQuery`, or `authQuery` without either.',
  why: 'The Pooler webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/pooler_webhook.go PoolerCustomValidator.validatePgBouncer): an auth query needs credentials to run with, and credentials of its own make PgBouncer look users up with the query.',
  fix: 'Set both the auth query and its credentials, or neither, so that the operator integrates the Pooler with its Cluster.',
  kinds: ['postgresql.cnpg.io/Pooler'],
  check: reportAdmission('Pooler', 'validatePgBouncer'),
};
