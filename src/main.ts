// The example app that `npm run synth` renders into dist/.
import { ApiObject, App, Chart, Size } from 'cdk8s';
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
  OperatorDeployment,
  PluginTls,
  PostgresCluster,
  SidecarPlugin,
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

// The operator's Deployment, reduced to what a sidecar plugin needs (a real app loads the
// release manifest with CnpgOperator.fromManifest), and a plugin of your own running beside the
// manager on a Unix socket. The Deployment names its sidecar plugins in the annotation
// cnpg-i.dev/sidecar-plugins, so `cnpg-i-doctor dist/` knows them without flags.
const operatorDeployment = new ApiObject(system, 'operator', {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'cnpg-controller-manager', labels: { 'app.kubernetes.io/name': 'cloudnative-pg' } },
  spec: {
    replicas: 1,
    selector: { matchLabels: { 'app.kubernetes.io/name': 'cloudnative-pg' } },
    template: {
      metadata: { labels: { 'app.kubernetes.io/name': 'cloudnative-pg' } },
      spec: {
        serviceAccountName: 'cnpg-manager',
        securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          {
            name: 'manager',
            image: 'ghcr.io/cloudnative-pg/cloudnative-pg:1.30.0',
            command: ['/manager'],
            args: ['controller', '--leader-elect', '--webhook-port=9443'],
            env: [{ name: 'OPERATOR_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } }],
            resources: { limits: { cpu: '100m', memory: '200Mi' }, requests: { cpu: '100m', memory: '100Mi' } },
            securityContext: {
              runAsUser: 10001,
              runAsGroup: 10001,
              readOnlyRootFilesystem: true,
              allowPrivilegeEscalation: false,
              seccompProfile: { type: 'RuntimeDefault' },
              capabilities: { drop: ['ALL'] },
            },
          },
        ],
      },
    },
  },
});
new SidecarPlugin(system, 'audit', {
  operator: OperatorDeployment.fromApiObject(operatorDeployment),
  pluginName: 'audit.example.com',
  image: 'registry.example.com/cnpg-i-audit:v1.0.0',
  containerName: 'audit',
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
  bootstrap: ClusterBootstrap.recoveryFromCluster(pg, { sourceName: 'origin' }),
});

// The doctor checks the whole app at synth: an error fails before anything is written.
Doctor.addValidation(app, { operatorNamespace: 'cnpg-system' });

// The plan compares the new output with the previous one: the dist/ about to be overwritten, or
// under `cdk8s synth` (which empties dist/ first) dist/ as committed at git HEAD. A change that
// would delete a database or that the operator refuses fails the synth before anything is written.
addPlanValidation(app);

app.synth();
