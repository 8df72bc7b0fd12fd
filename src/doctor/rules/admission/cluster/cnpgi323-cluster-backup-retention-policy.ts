/*
 * CNPGI323: the Cluster webhook's check of the in-tree retention policy.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `spec.backup.retentionPolicy` that Barman Cloud cannot read. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI323',
  name: 'cluster-backup-retention-policy',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.backup.retentionPolicy` does not end in a number of days, weeks or months (`30d`, `4w`, `6m`).",
  why: 'The Cluster webhook parses the policy as Barman Cloud does and refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateRetentionPolicy; barman-cloud v0.5.1 pkg/api/webhooks/config.go ValidateRetentionPolicy, pkg/utils/barman.go ParsePolicy). Its pattern is not anchored at the start, so only the end of the text counts.',
  fix: 'Write a recovery window such as `30d`, `4w` or `6m`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateRetentionPolicy'),
};
