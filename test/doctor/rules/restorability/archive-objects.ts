/*
 * Objects for the restorability rules' tests: Clusters archiving through Barman Cloud or the
 * in-tree barmanObjectStore, ObjectStores, backups, in namespace `db`.
 */
import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import type { DoctorOptions } from '../../../../src/doctor/report';
import type { Finding } from '../../../../src/rules/finding';
import { Doc, ofRule } from '../../helpers';

export const BARMAN = 'barman-cloud.cloudnative-pg.io';

/** A Barman Cloud entry of spec.plugins, the archiver unless told otherwise. */
export function barman(store: string, options: { serverName?: string; isWALArchiver?: boolean; enabled?: boolean } = {}): Doc {
  return {
    name: BARMAN,
    enabled: options.enabled ?? true,
    isWALArchiver: options.isWALArchiver ?? true,
    parameters: { barmanObjectName: store, ...(options.serverName === undefined ? {} : { serverName: options.serverName }) },
  };
}

/** A Cluster of namespace db; `spec` is merged into a minimal spec. */
export function cluster(name: string, spec: Doc = {}, annotations?: Record<string, string>): Doc {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name, namespace: 'db', ...(annotations ? { annotations } : {}) },
    spec: { instances: 1, storage: { size: '1Gi' }, ...spec },
  };
}

/** A Cluster recovering from a Barman Cloud external cluster `origin`. */
export function recovering(name: string, store: string, serverName: string | undefined, spec: Doc = {}): Doc {
  return cluster(name, {
    bootstrap: { recovery: { source: 'origin' } },
    externalClusters: [
      { name: 'origin', plugin: { name: BARMAN, parameters: { barmanObjectName: store, ...(serverName === undefined ? {} : { serverName }) } } },
    ],
    ...spec,
  });
}

/** An ObjectStore of namespace db. */
export function objectStore(name: string, destinationPath: string, serverName?: string): Doc {
  return {
    apiVersion: 'barmancloud.cnpg.io/v1',
    kind: 'ObjectStore',
    metadata: { name, namespace: 'db' },
    spec: { configuration: { destinationPath, ...(serverName === undefined ? {} : { serverName }), s3Credentials: { inheritFromIAMRole: true } } },
  };
}

/** A Backup (or ScheduledBackup) of `clusterName` through `plugin` (method plugin), or with `method`. */
export function backup(kind: 'Backup' | 'ScheduledBackup', name: string, clusterName: string, plugin: string | undefined, method?: string): Doc {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind,
    metadata: { name, namespace: 'db' },
    spec: {
      cluster: { name: clusterName },
      ...(kind === 'ScheduledBackup' ? { schedule: '0 0 2 * * *' } : {}),
      ...(plugin === undefined ? {} : { method: 'plugin', pluginConfiguration: { name: plugin } }),
      ...(method === undefined ? {} : { method }),
    },
  };
}

/** The findings of `ruleId` on `docs`, as [severity, object, path, message, fix]. */
export function findings(docs: Doc[], ruleId: string, options?: DoctorOptions): Array<[string, string, string | undefined, string, string | undefined]> {
  return ofRule(analyzeManifests(docs, options).findings, ruleId).map((f: Finding) => [f.severity, f.object, f.path, f.message, f.fix]);
}
