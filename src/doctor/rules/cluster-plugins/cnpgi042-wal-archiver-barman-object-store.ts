/*
 * CNPGI042: a WAL archiver plugin and the in-tree Barman object store are two archiving methods.
 */
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { reportPluginConfiguration } from './wal-archivers';

/** A Cluster has a WAL archiver plugin and `spec.backup.barmanObjectStore`. */
export const rule: RuleDefinition<DoctorModel> = {
  id: 'CNPGI042',
  name: 'wal-archiver-barman-object-store',
  severities: [{ severity: 'error', when: 'always' }],
  what: 'A Cluster has a WAL archiver plugin and `spec.backup.barmanObjectStore`.',
  why: 'The CNPG webhook rejects the Cluster: only one WAL archiving method is allowed (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go ClusterCustomValidator.validatePluginConfiguration).',
  fix: "Remove `spec.backup.barmanObjectStore` (the plugin archives WAL) or the plugin's `isWALArchiver`.",
  kinds: ['postgresql.cnpg.io/Cluster'],
  // the error already says to remove spec.backup.barmanObjectStore: no deprecation warning there too
  subsumes: [{ rule: 'CNPGI351' }],
  check: reportPluginConfiguration('spec.backup.barmanObjectStore'),
};
