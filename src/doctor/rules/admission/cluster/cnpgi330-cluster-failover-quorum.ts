/*
 * CNPGI330: the Cluster webhook's check of the failover quorum against the standby names.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** `failoverQuorum: true` with `number` not above the standby names listed. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI330',
  name: 'cluster-failover-quorum',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Cluster sets `spec.postgresql.synchronous.failoverQuorum: true` (or the defaulter sets it from `alpha.cnpg.io/failoverQuorum`) while `synchronous.number` is not greater than the names in `standbyNamesPre` and `standbyNamesPost`.',
  why: 'With the quorum, a failover needs a synchronous replica of the Cluster itself; when the standby names alone can make up `number`, none is guaranteed and the Cluster webhook refuses it (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateFailoverQuorum; api/v1/cluster_funcs.go IsFailoverQuorumActive).',
  fix: 'Raise `synchronous.number` above the number of standby names listed, or turn `failoverQuorum` off.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateFailoverQuorum'),
};
