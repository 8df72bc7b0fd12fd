/*
 * CNPGI329: the Cluster webhook's check of the alpha failover quorum annotation.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `alpha.cnpg.io/failoverQuorum` that is no Go boolean, or true without synchronous replication. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI329',
  name: 'cluster-failover-quorum-annotation',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `alpha.cnpg.io/failoverQuorum` annotation is no Go boolean (`true`, `false`, `1`, `0`, `t`, `f` and their capitalised forms), or is true while `spec.postgresql.synchronous` is not set.",
  why: "The Cluster webhook reads the annotation with Go's strconv.ParseBool and refuses other values; a quorum needs synchronous replicas to count (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateFailoverQuorumAlphaAnnotation).",
  fix: 'Set `spec.postgresql.synchronous.failoverQuorum` (with `spec.postgresql.synchronous`) and remove the annotation, or write `true` or `false`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateFailoverQuorumAlphaAnnotation'),
};
