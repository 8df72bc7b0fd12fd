/*
 * CNPGI308: the Cluster webhook's validatePrimaryUpdateStrategy.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validatePrimaryUpdateStrategy refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI308',
  name: 'cluster-primary-update-strategy',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.primaryUpdateStrategy` is neither `supervised` nor `unsupervised`, or is `supervised` with a single instance.",
  why: 'The Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePrimaryUpdateStrategy): a supervised update waits for a switchover that a single instance cannot make.',
  fix: 'Use `unsupervised`, or `supervised` with two or more instances.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validatePrimaryUpdateStrategy'),
};
