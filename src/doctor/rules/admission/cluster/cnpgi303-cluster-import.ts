/*
 * CNPGI303: the Cluster webhook's validateImport.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportAdmission } from '../admission-inputs';

/** What the Cluster webhook's validateImport refuses. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI303',
  name: 'cluster-import',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's `spec.bootstrap.initdb.import` breaks the rules of its type: an unknown type; a microservice import with other than one database, with roles, or with a wildcard; a monolith import without databases, with `*` beside other names, or with `postImportApplicationSQL`.",
  why: 'The Cluster webhook refuses each (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateImport, validateMicroservice, validateMonolith).',
  fix: 'Use `type: microservice` with exactly one database and no roles, or `type: monolith` with the databases (and roles) to import, `*` alone for all of them.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportAdmission('Cluster', 'validateImport'),
};
