/*
 * CNPGI041: one WAL archiver plugin per Cluster.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportPluginConfiguration } from './wal-archivers';

/** More than one enabled plugin of a Cluster sets `isWALArchiver: true`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI041',
  name: 'wal-archiver-count',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'More than one enabled plugin of a Cluster sets `isWALArchiver: true`.',
  why: 'The CNPG webhook rejects the Cluster: "Cannot enable more than one WAL archiver plugin" (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go ClusterCustomValidator.validatePluginConfiguration).',
  fix: 'Keep `isWALArchiver: true` on one plugin only.',
  kinds: ['postgresql.cnpg.io/Cluster'],
  check: reportPluginConfiguration('spec.plugins'),
};
