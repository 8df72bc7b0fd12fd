/*
 * CNPGI324: validateConfiguration's check of the PostgreSQL major version.
 */
import type { RuleDefinition } from '../../../../rules/rule';
import type { DoctorModel } from '../../../model/doctor-model';
import { reportConfigurationTopic } from './configuration-topics';

/** A Cluster whose image (or image catalog entry) is PostgreSQL 12 or older. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI324',
  name: 'cluster-postgres-version',
  severities: [{ severity: 'error', when: 'always' }],
  what: "A Cluster's PostgreSQL major version (the tag of `spec.imageName`, the catalog's `major`, or the operator's default image) is below 13.",
  why: 'The Cluster webhook reads the major as the operator does and refuses anything older than PostgreSQL 13 at `spec.imageName` (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateConfiguration; api/v1/cluster_funcs.go GetPostgresqlMajorVersion; machinery v0.5.0 pkg/postgres/version FromTag).',
  fix: 'Use an image of PostgreSQL 13 or later, e.g. `ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie`.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportConfigurationTopic('version'),
};
