/*
 * CNPGI384: the Pooler webhook's warnings about a Pooler the operator does not integrate.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Pooler with its own auth query or credentials, or the deprecated auth query secret. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI384',
  name: 'pooler-manual-integration',
  severities: [{ severity: 'warning', when: 'always: the webhook accepts the Pooler with a warning' }],
  what: 'A Pooler sets `pgbouncer.authQuery`, `authQuerySecret` or `serverTLSSecret`, so the operator leaves its integration with the Cluster to you; or it sets the deprecated `authQuerySecret`.',
  why: 'The Pooler webhook warns about both (cloudnative-pg v1.30.0 internal/webhook/v1/pooler_webhook.go PoolerCustomValidator.getAdmissionWarnings; which fields switch the integration off: api/v1/pooler_funcs.go Pooler.IsAutomatedIntegration). On create it drops its warnings when it also refuses the Pooler.',
  fix: 'Remove the auth query and its credentials to let the operator integrate the Pooler, or configure the Cluster yourself; prefer `serverTLSSecret` to `authQuerySecret`.',
  kinds: ['postgresql.cnpg.io/Pooler'],
  check: reportAdmission('Pooler', 'getAdmissionWarnings'),
};
