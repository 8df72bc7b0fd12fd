/** Small manifest builders for the plan tests. */
export type Obj = Record<string, any>;

export const BARMAN = 'barman-cloud.cloudnative-pg.io';

export function cluster(name: string, spec: Obj = {}, namespace = 'apps'): Obj {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Cluster',
    metadata: { name, namespace },
    spec: { instances: 3, storage: { size: '10Gi' }, ...spec },
  };
}

/** A Cluster archiving through Barman Cloud into `store`. */
export function archiving(name: string, store = 'store', extra: Obj = {}, spec: Obj = {}): Obj {
  return cluster(name, {
    plugins: [{ name: BARMAN, enabled: true, isWALArchiver: true, parameters: { barmanObjectName: store, ...extra } }],
    ...spec,
  });
}

export function objectStore(name: string, destinationPath = 's3://bucket/db', configuration: Obj = {}, namespace = 'apps'): Obj {
  return {
    apiVersion: 'barmancloud.cnpg.io/v1',
    kind: 'ObjectStore',
    metadata: { name, namespace },
    spec: { configuration: { destinationPath, s3: { inheritFromIAMRole: true }, ...configuration } },
  };
}

export function pluginService(name: string, plugin = BARMAN, annotations: Obj = {}, namespace = 'cnpg-system'): Obj {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace,
      labels: { 'cnpg.io/pluginName': plugin },
      annotations: {
        'cnpg.io/pluginPort': '9090',
        'cnpg.io/pluginClientSecret': `${name}-client-tls`,
        'cnpg.io/pluginServerSecret': `${name}-server-tls`,
        ...annotations,
      },
    },
    spec: { ports: [{ port: 9090 }], selector: { app: name } },
  };
}

export function deployment(name: string, containers: Obj[], namespace = 'cnpg-system'): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers, volumes: [{ name: 'plugins', emptyDir: {} }] } },
    },
  };
}

export function backup(name: string, clusterName: string, spec: Obj = {}): Obj {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'Backup',
    metadata: { name, namespace: 'apps' },
    spec: { cluster: { name: clusterName }, method: 'plugin', pluginConfiguration: { name: BARMAN }, ...spec },
  };
}

export function scheduledBackup(name: string, clusterName: string, spec: Obj = {}): Obj {
  return {
    apiVersion: 'postgresql.cnpg.io/v1',
    kind: 'ScheduledBackup',
    metadata: { name, namespace: 'apps' },
    spec: { cluster: { name: clusterName }, schedule: '0 0 2 * * *', method: 'plugin', pluginConfiguration: { name: BARMAN }, ...spec },
  };
}

/** A deep copy with `edit` applied. */
export function edited<T extends Obj>(o: T, edit: (copy: T) => void): T {
  const copy = JSON.parse(JSON.stringify(o)) as T;
  edit(copy);
  return copy;
}

/** A CloudNativePG object that manages something inside PostgreSQL (Database, DatabaseRole, Publication, Subscription) or a Pooler. */
export function managed(kind: string, name: string, spec: Obj = {}, namespace = 'apps'): Obj {
  return { apiVersion: 'postgresql.cnpg.io/v1', kind, metadata: { name, namespace }, spec: { cluster: { name: 'pg' }, ...spec } };
}
