/*
 * CNPGI042: a WAL archiver plugin and the in-tree Barman object store are two archiving methods.
 */
import { dig, asObject } from '../../../manifests/json';
import type { RuleDefinition } from '../../../rules/rule';
import type { DoctorModel } from '../../model/doctor-model';
import { walArchivers } from './wal-archivers';

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
  check(model, report) {
    for (const m of model.index.ofKind('Cluster', 'postgresql.cnpg.io')) {
      const spec = asObject(m.raw.spec);
      if (!spec) continue;
      const archivers = walArchivers(spec);
      if (archivers.length === 0 || !asObject(dig(spec, 'backup', 'barmanObjectStore'))) continue;
      report(
        'error',
        m,
        `plugin '${archivers[0]}' is the WAL archiver and spec.backup.barmanObjectStore is set; the webhook rejects two WAL archiving methods`,
        'remove spec.backup.barmanObjectStore (the plugin archives WAL), or isWALArchiver',
        'spec.backup.barmanObjectStore',
      );
    }
  },
};
