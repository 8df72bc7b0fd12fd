/*
 * CNPGI383: the Pooler webhook's check of metrics over TLS.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** Metrics over TLS with the operator's PodMonitor, and no certificate of the Pooler's own. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI383',
  name: 'pooler-monitoring-tls',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Pooler sets `monitoring.tls.enabled` and `monitoring.enablePodMonitor` but no `pgbouncer.clientTLSSecret.name`.',
  why: "The Pooler webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/pooler_webhook.go PoolerCustomValidator.validateMonitoring, Required spec.pgbouncer.clientTLSSecret): the metrics endpoint would serve the Cluster's server certificate, whose names are the Cluster's Services.",
  fix: 'Set `spec.pgbouncer.clientTLSSecret.name` to a certificate of the Pooler, or turn the generated PodMonitor off and write your own.',
  kinds: ['postgresql.cnpg.io/Pooler'],
  check: reportAdmission('Pooler', 'validateMonitoring'),
};
