/*
 * CNPGI327: validateConfiguration's checks of how synchronous replicas are configured.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportConfigurationTopic } from './configuration-topics';

/** Both synchronous replication styles at once, or an election constraint without labels. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI327',
  name: 'cluster-synchronous-settings',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Cluster has `spec.postgresql.synchronous` together with `minSyncReplicas` or `maxSyncReplicas` above 0, or enables `spec.postgresql.syncReplicaElectionConstraint` without `nodeLabelsAntiAffinity`.',
  why: 'The legacy fields and the `synchronous` stanza configure the same thing two ways, and an election constraint compares node labels it must be given; the Cluster webhook refuses both (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateConfiguration, validateSyncReplicaElectionConstraint).',
  fix: 'Keep `spec.postgresql.synchronous` and remove `minSyncReplicas` and `maxSyncReplicas`; list the node labels to compare in `nodeLabelsAntiAffinity`, e.g. `topology.kubernetes.io/zone`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportConfigurationTopic('synchronous'),
};
