/*
 * CNPGI343: the Cluster webhook's check of the liveness pinger annotation.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `alpha.cnpg.io/livenessPinger` annotation is not the JSON of an isolation check configuration (`enabled`, `requestTimeout`, `connectionTimeout`), or lacks `enabled`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI343',
  name: 'cluster-liveness-pinger-annotation',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `alpha.cnpg.io/livenessPinger` annotation is not the JSON of an isolation check configuration (`enabled`, `requestTimeout`, `connectionTimeout`), or lacks `enabled`.",
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateLivenessPingerProbe; cloudnative-pg v1.30.0 api/v1/cluster_defaults.go NewLivenessPingerConfigFromAnnotations).',
  fix: 'Write JSON such as `{"enabled": true}`, or configure `spec.probes.liveness.isolationCheck` instead.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateLivenessPingerProbe'),
};
