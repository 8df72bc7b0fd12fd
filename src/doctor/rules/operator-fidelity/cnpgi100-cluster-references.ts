/*
 * CNPGI100: what the Cluster webhook refuses about a Cluster's references.
 */
import { checkClusterReferences } from '../../../checks/cluster-references';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportIssues } from './fidelity-inputs';

/** Cluster cross-references the webhook refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI100',
  name: 'cluster-references',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'Cluster cross-references: recovery, pg_basebackup and replica sources, replica primary/self, unique external clusters each with connectionParameters, plugin or barmanObjectStore, path-safe names and TLS Secret selectors, one bootstrap method.',
  why: 'cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateBootstrapRecoverySource, validateBootstrapPgBaseBackupSource, validateReplicaClusterExternalClusters, validateReplicaMode, validateExternalClusters, validateExternalCluster, isUnsafePathComponent, validateBootstrapMethod. (Merges the retired CNPGI043.)',
  fix: 'Name an existing externalClusters entry; keep names unique; give each entry connectionParameters, plugin or barmanObjectStore.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check(model, report) {
    for (const c of model.index.ofKind('Cluster')) reportIssues(report, c, checkClusterReferences(c.raw));
  },
};
