/*
 * CNPGI301: the Cluster webhook's validateInitDB.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateInitDB refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI301',
  name: 'cluster-initdb',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.bootstrap.initdb` has a database without an owner or an owner without a database, a `walSegmentSize` that is no power of two, or a post-init SQL reference without its name or key.",
  why: 'The Cluster webhook refuses each (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateInitDB, validateApplicationDatabase; pkg/utils IsPowerOfTwo). It judges the Cluster after the defaulting webhook, which fills in the database and owner of the method the Cluster bootstraps with: the database and owner errors remain for an initdb section beside recovery or pg_basebackup, and for a monolith import (whose database stays empty).',
  fix: 'Set both `database` and `owner` (or neither), a power of two for `walSegmentSize`, and a name and a key in each post-init reference.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateInitDB'),
};
