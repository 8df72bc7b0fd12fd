/*
 * CNPGI355: the Cluster webhook's warning about a monitoring query TTL of zero.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster whose `spec.monitoring.metricsQueriesTTL` is zero. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI355',
  name: 'cluster-metrics-queries-ttl-zero',
  severities: [{ severity: 'warning', when: '`spec.monitoring.metricsQueriesTTL` is a duration of 0.' }],
  what: 'A Cluster sets `spec.monitoring.metricsQueriesTTL` to a duration of 0, which turns off the caching of monitoring query results.',
  why: 'The Cluster webhook accepts it with a warning: every metrics scrape then runs the monitoring queries again, a heavy load on PostgreSQL (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go getMonitoringFieldsWarnings and cloudnative-pg v1.30.0 api/v1/cluster_funcs.go GetMetricsQueriesTTL, 30s when unset).',
  fix: 'Remove `spec.monitoring.metricsQueriesTTL` (30s) or set a positive duration.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'getMonitoringFieldsWarnings'),
};
