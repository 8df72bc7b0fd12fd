/*
 * CNPGI347: the Cluster webhook's check of the primary lease.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.primaryLease` lasts no longer than its renew deadline, or has a renew deadline of at most 1.2 retry periods (unset timings are 15, 10 and 2 seconds). */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI347',
  name: 'cluster-primary-lease',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.primaryLease` lasts no longer than its renew deadline, or has a renew deadline of at most 1.2 retry periods (unset timings are 15, 10 and 2 seconds).",
  why: "client-go's leader election refuses such timings, which would crash-loop the primary, so the Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePrimaryLease).",
  fix: 'Keep `leaseDurationSeconds` > `renewDeadlineSeconds` > 1.2 × `retryPeriodSeconds`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validatePrimaryLease'),
};
