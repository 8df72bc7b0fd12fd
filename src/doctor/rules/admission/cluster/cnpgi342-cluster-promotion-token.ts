/*
 * CNPGI342: the Cluster webhook's check of the promotion token.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** A Cluster's `spec.replica.promotionToken` is set beside `minApplyDelay`, on a Cluster that is still a replica, or is not the base64 JSON token of a demoted primary with every field set. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI342',
  name: 'cluster-promotion-token',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.replica.promotionToken` is set beside `minApplyDelay`, on a Cluster that is still a replica, or is not the base64 JSON token of a demoted primary with every field set.",
  why: 'The Cluster webhook refuses the Cluster (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validatePromotionToken; cloudnative-pg v1.30.0 api/v1/cluster_funcs.go Cluster.IsReplica; cloudnative-pg v1.30.0 pkg/utils/parser.go ParsePgControldataToken, PgControldataTokenContent.IsValid).',
  fix: "Copy the token from the demoted cluster's `status.demotionToken`, promote this cluster in the same change, and remove `minApplyDelay`.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validatePromotionToken'),
};
