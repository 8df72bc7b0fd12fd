// The example app that `npm run synth` renders into dist/.
import { App, Chart, Size } from 'cdk8s';
import {
  Doctor,
  addPlanValidation,
  BackupOwnerReference,
  BackupSchedule,
  BackupTarget,
  BarmanCloudPlugin,
  ClusterBootstrap,
  HelloWorldPlugin,
  ObjectStore,
  ObjectStoreCredentials,
  PluginTls,
  PostgresCluster,
  StandalonePlugin,
  WalCompression,
} from './index';

const app = new App();

// Plugins live in the operator's namespace: the chart's namespace is used for everything.
const system = new Chart(app, 'cnpg-system', { namespace: 'cnpg-system' });

// Barman Cloud, installed as upstream v0.14.0 does, with self-signed mTLS (the default).
const barman = new BarmanCloudPlugin(system, 'barman');

// The hello-world plugin through the generic construct, with a private CA and a server name.
const hello = new StandalonePlugin(system, 'hello', {
  pluginName: HelloWorldPlugin.PLUGIN_NAME,
  image: 'ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0',
  args: ['plugin'],
  tls: PluginTls.privateCa(),
  serverName: 'hello-world.cnpg-system.svc',
});

// The databases, their object store and their backups live in an application namespace.
const apps = new Chart(app, 'databases', { namespace: 'databases' });

const store = new ObjectStore(apps, 'store', {
  destinationPath: 's3://example-backups/databases',
  credentials: ObjectStoreCredentials.s3AccessKeys({
    accessKeyId: { name: 'backup-credentials', key: 'ACCESS_KEY_ID' },
    secretAccessKey: { name: 'backup-credentials', key: 'ACCESS_SECRET_KEY' },
  }),
  wal: { compression: WalCompression.ZSTD, maxParallel: 4 },
  retentionPolicy: '30d',
});

const pg = new PostgresCluster(apps, 'pg', {
  instances: 3,
  storage: { size: Size.gibibytes(10) },
  postgresql: { parameters: { max_connections: '200' } },
});
pg.addPlugin(barman, { isWalArchiver: true, objectStore: store });
pg.addPlugin(hello, {
  parameters: HelloWorldPlugin.parameters({ annotations: { 'example.com/owner': 'dba' } }),
});
pg.addScheduledBackup('nightly', {
  plugin: barman,
  schedule: BackupSchedule.daily(2),
  backupOwnerReference: BackupOwnerReference.SELF,
});
pg.addBackup('before-upgrade', { plugin: barman, target: BackupTarget.PRIMARY });

// A new Cluster recovered from what pg archived.
new PostgresCluster(apps, 'restored', {
  instances: 1,
  storage: { size: Size.gibibytes(10) },
  bootstrap: ClusterBootstrap.recoveryFromPlugin(barman, {
    sourceName: 'origin',
    objectStore: store,
    parameters: { serverName: pg.name },
  }),
});

// The doctor checks the whole app at synth: an error fails before anything is written.
Doctor.addValidation(app, { operatorNamespace: 'cnpg-system' });

// The plan compares the new output with the previous one: the dist/ about to be overwritten, or
// under `cdk8s synth` (which empties dist/ first) dist/ as committed at git HEAD. A change that
// would delete a database or that the operator refuses fails the synth before anything is written.
addPlanValidation(app);

app.synth();
