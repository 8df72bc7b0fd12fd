// The platform: the constructs, without the App. main.ts synthesizes it; platform.test.ts
// snapshots it and runs the doctor over it.
import { Chart, Size } from 'cdk8s';
import {
  BackupOwnerReference,
  BackupSchedule,
  BarmanCloudPlugin,
  ClusterBootstrap,
  HelloWorldPlugin,
  ObjectStore,
  ObjectStoreCredentials,
  PluginTls,
  PostgresCluster,
  RecoveryTarget,
  StandalonePlugin,
  WalCompression,
} from 'cdk8s-cnpg-i';
import { Construct } from 'constructs';

/** The namespace the CloudNativePG operator runs in: plugins must live there. */
export const OPERATOR_NAMESPACE = 'cnpg-system';

/** Adds the platform's two charts to `scope` (an App, or `Testing.app()` in the tests). */
export function platform(scope: Construct): { system: Chart; databases: Chart } {
  // Plugins live in the operator's namespace.
  const system = new Chart(scope, 'cnpg-system', { namespace: OPERATOR_NAMESPACE });

  // Barman Cloud as upstream v0.14.0 installs it, with self-signed mTLS (the default). Its
  // ObjectStore CRD comes from the plugin's release (see README.md).
  const barman = new BarmanCloudPlugin(system, 'barman');

  // A standalone plugin of your own, here the hello-world one, with a private CA: a CA
  // Certificate and Issuer per plugin sign its server and client certificates.
  const hello = new StandalonePlugin(system, 'hello', {
    pluginName: HelloWorldPlugin.PLUGIN_NAME,
    image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
    args: ['plugin'],
    tls: PluginTls.privateCa(),
  });

  // The databases, their object store and their backups live in an application namespace.
  const databases = new Chart(scope, 'databases', { namespace: 'databases' });

  // One bucket for both Clusters: Barman Cloud archives each under its own server name (the
  // Cluster's name), so their WAL and backups do not mix.
  const store = new ObjectStore(databases, 'backups', {
    destinationPath: 's3://example-backups/databases',
    credentials: ObjectStoreCredentials.s3AccessKeys({
      accessKeyId: { name: 'backup-credentials', key: 'ACCESS_KEY_ID' },
      secretAccessKey: { name: 'backup-credentials', key: 'ACCESS_SECRET_KEY' },
    }),
    wal: { compression: WalCompression.ZSTD, maxParallel: 4 },
    retentionPolicy: '30d',
  });

  // Two archiving Clusters, each with a nightly backup through the plugin.
  const orders = new PostgresCluster(databases, 'orders', {
    instances: 3,
    storage: { size: Size.gibibytes(20) },
  });
  orders.addPlugin(barman, { isWalArchiver: true, objectStore: store });
  orders.addPlugin(hello, {
    parameters: HelloWorldPlugin.parameters({ annotations: { 'example.com/owner': 'orders-team' } }),
  });
  orders.addScheduledBackup('nightly', {
    plugin: barman,
    schedule: BackupSchedule.daily(2),
    backupOwnerReference: BackupOwnerReference.SELF,
  });

  const billing = new PostgresCluster(databases, 'billing', {
    instances: 2,
    storage: { size: Size.gibibytes(10) },
  });
  billing.addPlugin(barman, { isWalArchiver: true, objectStore: store });
  billing.addScheduledBackup('nightly', {
    plugin: barman,
    schedule: BackupSchedule.daily(3, 30),
    backupOwnerReference: BackupOwnerReference.SELF,
  });

  // A point-in-time recovery of orders as it was just before 09:00 UTC on 1 May 2026, into a
  // Cluster of its own: it reads orders' archive (plugin, store and server name) from orders.
  new PostgresCluster(databases, 'orders-restore', {
    instances: 1,
    storage: { size: Size.gibibytes(20) },
    bootstrap: ClusterBootstrap.recoveryFromCluster(orders, {
      recoveryTarget: RecoveryTarget.time(new Date(Date.UTC(2026, 4, 1, 9, 0)), { exclusive: true }),
    }),
  });

  return { system, databases };
}
