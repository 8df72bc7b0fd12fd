/*
 * CNPGI332: the Cluster webhook's check of the replication slot exclude patterns.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** An `excludePatterns` entry that is no Go regular expression. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI332',
  name: 'cluster-replication-slot-exclude-patterns',
  severities: [{ severity: 'error', when: 'always' }],
  what: "An entry of a Cluster's `spec.replicationSlots.synchronizeReplicas.excludePatterns` is no Go (RE2) regular expression (an unclosed group, a lookaround, a backreference, ...), while replication slots are in use (the default).",
  why: "The operator matches slot names with Go's regexp package; the Cluster webhook compiles every pattern and refuses the Cluster if one fails (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateReplicationSlots; api/v1/cluster_funcs.go compileRegex; Go regexp/syntax).",
  fix: 'Write each pattern as a Go regular expression, e.g. `^logical_.*`; escape a literal `(` as `\\(`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateReplicationSlots'),
};
