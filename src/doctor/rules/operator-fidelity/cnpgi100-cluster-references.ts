/*
 * CNPGI100: what the Cluster webhook refuses about a Cluster's references (the admission checks
 * of src/checks/admission/cluster-references.ts, one per upstream function, on the Cluster as the
 * defaulting webhook leaves it).
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportAdmission } from '../admission/admission-inputs';

/** Cluster cross-references the webhook refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI100',
  name: 'cluster-references',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'Cluster cross-references: recovery, pg_basebackup and replica sources, replica primary/self, unique external clusters each with connectionParameters, plugin or barmanObjectStore, path-safe names and TLS Secret selectors, one bootstrap method, and a replica cluster created from pg_basebackup or recovery.',
  why: 'cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateBootstrapRecoverySource, validateBootstrapPgBaseBackupSource, validateReplicaClusterExternalClusters, validateReplicaMode, validateExternalClusters, validateExternalCluster, isUnsafePathComponent, validateBootstrapMethod, judged after the defaulting webhook (api/v1/cluster_defaults.go: a Cluster without a bootstrap gets initdb). (Merges the retired CNPGI043.)',
  fix: 'Name an existing externalClusters entry; keep names unique; give each entry connectionParameters, plugin or barmanObjectStore.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission(
    'Cluster',
    'validateBootstrapMethod',
    'validateBootstrapPgBaseBackupSource',
    'validateBootstrapRecoverySource',
    'validateExternalClusters',
    'validateReplicaMode',
    'validateReplicaClusterExternalClusters',
  ),
};
