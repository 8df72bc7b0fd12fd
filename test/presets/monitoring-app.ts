// The app the monitoring tests (and the guide's example) synthesize: Barman Cloud archiving the
// WAL of `pg` with a nightly schedule and a Pooler, and Scale-to-Zero enabled on `sleepy`.
import { App, Chart, Size, Testing } from 'cdk8s';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  ObjectStore,
  ObjectStoreCredentials,
  PluginMonitoring,
  PluginMonitoringProps,
  PostgresCluster,
  ScaleToZeroPlugin,
} from '../../src';

export function monitoringApp(props?: PluginMonitoringProps): { app: App; monitoring: PluginMonitoring; charts: Chart[] } {
  const app = Testing.app();
  const system = new Chart(app, 'system', { namespace: 'cnpg-system' });
  const barman = new BarmanCloudPlugin(system, 'barman');
  const scaleToZero = new ScaleToZeroPlugin(system, 'scale-to-zero');

  const databases = new Chart(app, 'databases', { namespace: 'databases' });
  const store = new ObjectStore(databases, 'store', {
    destinationPath: 's3://backups/databases',
    retentionPolicy: '30d',
    credentials: ObjectStoreCredentials.s3AccessKeys({
      accessKeyId: { name: 'backup-credentials', key: 'ACCESS_KEY_ID' },
      secretAccessKey: { name: 'backup-credentials', key: 'ACCESS_SECRET_KEY' },
    }),
  });
  const pg = new PostgresCluster(databases, 'pg', { instances: 3, storage: { size: Size.gibibytes(10) } });
  pg.addPlugin(barman, { isWalArchiver: true, objectStore: store });
  pg.addScheduledBackup('nightly', { plugin: barman, schedule: BackupSchedule.daily(2) });
  pg.addPooler('rw');

  const sleepy = new PostgresCluster(databases, 'sleepy', { storage: { size: Size.gibibytes(1) } });
  sleepy.addPlugin(barman, { isWalArchiver: true, objectStore: store });
  scaleToZero.enable(sleepy);
  sleepy.addScheduledBackup('nightly', { metadata: { name: 'sleepy' }, plugin: barman, schedule: BackupSchedule.daily(3) });

  const observability = new Chart(app, 'monitoring', { namespace: 'monitoring' });
  const monitoring = new PluginMonitoring(observability, 'plugins', props);
  return { app, monitoring, charts: [system, databases, observability] };
}
