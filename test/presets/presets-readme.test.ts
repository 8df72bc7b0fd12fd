import { Chart, Size, Testing } from 'cdk8s';
import { BackupSchedule, BarmanCloudPlugin, HelloWorldPlugin, ObjectStore, ObjectStoreCredentials, PostgresCluster, WalCompression } from '../../src';

// The snippet of the presets guide (docs/guides/presets.md), run as written (with Testing.app() instead of new App()).
describe('the presets guide', () => {
  test('Barman Cloud install, ObjectStore, WAL archiving, nightly backup, hello-world', () => {
    const app = Testing.app();

    // The plugins live where the operator runs.
    const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });
    const barman = new BarmanCloudPlugin(system, 'barman');
    const hello = new HelloWorldPlugin(system, 'hello');

    // The ObjectStore lives beside the Clusters that use it.
    const apps = new Chart(app, 'apps', { namespace: 'databases' });
    const store = new ObjectStore(apps, 'store', {
      destinationPath: 's3://backups/databases',
      credentials: ObjectStoreCredentials.s3AccessKeys({
        accessKeyId: { name: 'backup-creds', key: 'ACCESS_KEY_ID' },
        secretAccessKey: { name: 'backup-creds', key: 'ACCESS_SECRET_KEY' },
      }),
      wal: { compression: WalCompression.ZSTD, maxParallel: 4 },
      retentionPolicy: '30d',
    });

    const pg = new PostgresCluster(apps, 'pg', { instances: 3, storage: { size: Size.gibibytes(10) } });
    pg.addPlugin(barman, { isWalArchiver: true, objectStore: store });
    pg.addScheduledBackup('nightly', { plugin: barman, schedule: BackupSchedule.daily(2) });
    pg.addPlugin(hello, {
      parameters: HelloWorldPlugin.parameters({ labels: { team: 'payments' }, annotations: { 'example.com/owner': 'dba' } }),
    });

    const objects = Testing.synth(apps);
    const cluster = objects.find((o) => o.kind === 'Cluster');
    // toMatchObject: PostgresCluster may also write the defaults (enabled, isWALArchiver: false).
    expect(cluster.spec.plugins).toHaveLength(2);
    expect(cluster.spec.plugins).toMatchObject([
      { name: 'barman-cloud.cloudnative-pg.io', isWALArchiver: true, parameters: { barmanObjectName: store.name } },
      {
        name: 'cnpg-i-hello-world.cloudnative-pg.io',
        parameters: { labels: '{"team":"payments"}', annotations: '{"example.com/owner":"dba"}' },
      },
    ]);
    const objectStore = objects.find((o) => o.kind === 'ObjectStore');
    expect(objectStore.metadata).toEqual({ name: store.name, namespace: 'databases' });
    const scheduled = objects.find((o) => o.kind === 'ScheduledBackup');
    expect(scheduled.spec.pluginConfiguration.name).toBe('barman-cloud.cloudnative-pg.io');
    const services = Testing.synth(system)
      .filter((o) => o.kind === 'Service')
      .map((o) => o.metadata.labels['cnpg.io/pluginName']);
    expect(services).toEqual(['barman-cloud.cloudnative-pg.io', 'cnpg-i-hello-world.cloudnative-pg.io']);
  });
});
