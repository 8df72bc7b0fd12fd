/*
 * Every options and props object of the public API refuses a key it does not declare, from
 * JavaScript or through a cast, instead of dropping it without a word (`disable` given to the
 * plan did nothing). The interfaces are read from the TypeScript declarations of src/index.ts:
 * a new exported interface fails this test until it has a case here (a call that hands it an
 * unknown key), or is listed as one the library returns or a user implements.
 */
import * as path from 'path';
import { ApiObject, App, Chart, Size, Testing } from 'cdk8s';
import * as ts from 'typescript';
import {
  BackupSchedule,
  BarmanCloudPlugin,
  ClusterBootstrap,
  Database,
  DatabaseRole,
  ClusterImage,
  CnpgIValidationError,
  CnpgOperator,
  Doctor,
  DoctorReaderRole,
  DoctorValidationPlugin,
  ExternalClusterSource,
  HelloWorldPlugin,
  ImageCatalog,
  IssuerRef,
  ObjectStore,
  ObjectStoreCredentials,
  OperatorDeployment,
  Plugin,
  PluginBackup,
  PluginCertificates,
  PluginManifest,
  PluginMonitoring,
  PluginScheduledBackup,
  PluginTls,
  Pooler,
  PostgresCluster,
  Publication,
  PublicationTarget,
  RecoveryTarget,
  ScaleToZeroPlugin,
  SidecarPlugin,
  StandalonePlugin,
  Subscription,
  addPlanValidation,
  checkManifests,
  planChanges,
} from '../src';

const ROOT = path.join(__dirname, '..');

/** Exported interfaces that are no options: what the library returns, or what a user implements. */
const NOT_OPTIONS = new Set([
  'AcknowledgedFinding',
  'ClusterPlugin',
  'DiscoveredPlugin',
  'DoctorReport',
  'DoctorValidationContext',
  'DoctorViolatingResource',
  'DoctorViolation',
  'Finding',
  'IObjectStore',
  'IOperatorDeployment',
  'IPlugin',
  'IPluginCluster',
  'IPostgresCluster',
  'NotEvaluatedRule',
  'PlanReport',
  'PluginCertificateNames',
  'PluginClusterEntry',
  'RuleSpec',
  'SeverityCase',
  'StandalonePluginObjectNames',
  'Subsumption',
  'SuppressedFinding',
]);

/** The exported interfaces of the public API that are not `@internal`. */
function exportedInterfaces(): string[] {
  const program = ts.createProgram([path.join(ROOT, 'src', 'index.ts')], { target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.CommonJS, strict: true });
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(path.join(ROOT, 'src', 'index.ts'))!)!;
  const names: string[] = [];
  for (const s of checker.getExportsOfModule(module)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (!(target.flags & ts.SymbolFlags.Interface)) continue;
    if (ts.getJSDocTags(target.declarations![0]).some((t) => t.tagName.text === 'internal')) continue;
    names.push(target.name);
  }
  return names.sort();
}

const X = { notAKey: 1 };
const chart = () => new Chart(Testing.app(), 'c', { namespace: 'apps' });
const storage = { size: Size.gibibytes(1) };
const barman = Plugin.fromPluginName('barman-cloud.cloudnative-pg.io');
const deployment = () =>
  new ApiObject(chart(), 'd', {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'cnpg-controller-manager' },
    spec: { template: { spec: { containers: [{ name: 'manager', image: 'x:1' }] } } },
  });
const s3 = { accessKeyId: { name: 's', key: 'id' }, secretAccessKey: { name: 's', key: 'secret' } };
const store = (extra: object) =>
  new ObjectStore(chart(), 'store', { destinationPath: 's3://b/p', credentials: ObjectStoreCredentials.s3IamRole(), ...extra } as any);
const cluster = (extra: object) => new PostgresCluster(chart(), 'pg', { storage, ...extra } as any);
const publication = () => new PostgresCluster(chart(), 'other', { storage }).addPublication('pub', { dbname: 'app', target: PublicationTarget.allTables() });

/** A call per options interface that hands it the unknown key `notAKey`. */
const CASES: Record<string, () => unknown> = {
  DatabaseExtension: () => cluster({}).addDatabase('db', { owner: 'app', extensions: [{ name: 'pgcrypto', ...X } as any] }),
  DatabaseForeignDataWrapper: () => cluster({}).addDatabase('db', { owner: 'app', foreignDataWrappers: [{ name: 'postgres_fdw', ...X } as any] }),
  DatabaseForeignServer: () => cluster({}).addDatabase('db', { owner: 'app', servers: [{ name: 'remote', fdw: 'postgres_fdw', ...X } as any] }),
  DatabaseOption: () =>
    cluster({}).addDatabase('db', { owner: 'app', servers: [{ name: 'remote', fdw: 'postgres_fdw', options: [{ name: 'host', value: 'h', ...X } as any] }] }),
  DatabaseOptions: () => cluster({}).addDatabase('db', { owner: 'app', ...X } as any),
  DatabaseProps: () => new Database(chart(), 'db', { cluster: cluster({}), owner: 'app', ...X } as any),
  DatabaseRoleOptions: () => cluster({}).addDatabaseRole('role', X as any),
  DatabaseRoleProps: () => new DatabaseRole(chart(), 'role', { cluster: cluster({}), ...X } as any),
  DatabaseSchema: () => cluster({}).addDatabase('db', { owner: 'app', schemas: [{ name: 'reports', ...X } as any] }),
  DatabaseUsage: () =>
    cluster({}).addDatabase('db', { owner: 'app', servers: [{ name: 'remote', fdw: 'postgres_fdw', usage: [{ name: 'app', ...X } as any] }] }),
  CatalogImage: () => new ImageCatalog(chart(), 'catalog', { images: [{ major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.5', ...X } as any] }),
  ImageCatalogProps: () => new ImageCatalog(chart(), 'catalog', { images: [{ major: 17, image: 'ghcr.io/cloudnative-pg/postgresql:17.5' }], ...X } as any),
  ManagedRoleOptions: () => cluster({}).addManagedRole('reporter', X as any),
  RoleAttributes: () => cluster({}).addDatabaseRole('role', { login: true, ...X } as any),
  PoolerOptions: () => cluster({}).addPooler('pooler', X as any),
  PoolerProps: () => new Pooler(chart(), 'pooler', { cluster: cluster({}), ...X } as any),
  PublicationObjects: () => PublicationTarget.objects(X as any),
  PublicationOptions: () => cluster({}).addPublication('pub', { dbname: 'app', target: PublicationTarget.allTables(), ...X } as any),
  PublicationProps: () => new Publication(chart(), 'pub', { cluster: cluster({}), dbname: 'app', target: PublicationTarget.allTables(), ...X } as any),
  PublicationTable: () => PublicationTarget.objects({ tables: [{ name: 'orders', ...X } as any] }),
  SubscriptionOptions: () => cluster({}).addSubscription('sub', { publication: publication(), ...X } as any),
  SubscriptionProps: () => new Subscription(chart(), 'sub', { cluster: cluster({}), publication: publication(), ...X } as any),
  AzureSasTokenOptions: () =>
    ObjectStoreCredentials.azureSasToken({ storageAccount: { name: 'a', key: 'b' }, storageSasToken: { name: 'a', key: 'c' }, ...X } as any),
  AzureStorageKeyOptions: () =>
    ObjectStoreCredentials.azureStorageKey({ storageAccount: { name: 'a', key: 'b' }, storageKey: { name: 'a', key: 'c' }, ...X } as any),
  BackupCronOptions: () => BackupSchedule.cron(X as any),
  BarmanCloudPluginProps: () => new BarmanCloudPlugin(chart(), 'p', X as any),
  ClusterMonitoring: () => cluster({ monitoring: X }),
  ClusterPluginOptions: () => cluster({}).addPlugin(barman, X as any),
  ClusterReferenceOptions: () => PostgresCluster.fromClusterName('pg', X as any),
  ClusterReplica: () => cluster({ replica: X }),
  ClusterResources: () => cluster({ resources: X }),
  ClusterSpecPassthrough: () => cluster({ spec: X }),
  ClusterStorage: () => cluster({ storage: { ...storage, ...X } }),
  CnpgOperatorManifestProps: () => CnpgOperator.fromManifest(chart(), 'cnpg', { path: 'x.yaml', ...X } as any),
  DoctorOptions: () => checkManifests([], X as any),
  DoctorReaderRoleProps: () => new DoctorReaderRole(chart(), 'd', X as any),
  DoctorValidationOptions: () => Doctor.addValidation(new App(), X as any),
  DoctorValidationPluginProps: () => new DoctorValidationPlugin(X as any),
  ExternalClusterConnection: () => ExternalClusterSource.fromConnection({ connectionParameters: { host: 'h' }, ...X } as any),
  ExternalClusterPluginOptions: () => ExternalClusterSource.fromPlugin(barman, X as any),
  ExternalIssuerProps: () => IssuerRef.external({ group: 'g.example.com', kind: 'K', name: 'n', ...X } as any),
  HelloWorldParameters: () => HelloWorldPlugin.parameters(X as any),
  HelloWorldPluginProps: () => new HelloWorldPlugin(chart(), 'p', X as any),
  ImageCatalogReference: () => ClusterImage.fromCatalog({ name: 'pg', major: 17, ...X } as any),
  InstanceSidecarConfiguration: () => store({ instanceSidecarConfiguration: X }),
  ObjectStoreDataOptions: () => store({ data: X }),
  ObjectStoreProps: () => store(X),
  ObjectStoreWalOptions: () => store({ wal: X }),
  OperatorDeploymentOptions: () => OperatorDeployment.fromApiObject(deployment(), X as any),
  PlanAcknowledgement: () => planChanges([], [], { acknowledge: [{ rule: 'CNPGI201', object: 'Cluster/a/b', reason: 'r', ...X } as any] }),
  PlanOptions: () => planChanges([], [], X as any),
  PlanValidationOptions: () => addPlanValidation(new App(), X as any),
  PluginBackupOptions: () => cluster({}).addBackup?.('b', X as any),
  PluginBackupProps: () => new PluginBackup(chart(), 'b', X as any),
  PluginCertificateOptions: () => PluginTls.selfSigned(X as any),
  PluginCertificatesProps: () => new PluginCertificates(chart(), 'tls', X as any),
  PluginDeploymentProps: () => new StandalonePlugin(chart(), 'p', { pluginName: 'a.example.com', image: 'x:1', ...X } as any),
  PluginManifestProps: () => new PluginManifest(chart(), 'p', { path: 'x.yaml', ...X } as any),
  PluginMonitoringProps: () => new PluginMonitoring(chart(), 'm', X as any),
  PluginScheduledBackupOptions: () => cluster({}).addScheduledBackup('s', { plugin: barman, schedule: BackupSchedule.expression('@daily'), ...X } as any),
  PluginScheduledBackupProps: () => new PluginScheduledBackup(chart(), 's', X as any),
  PluginSecretsOptions: () => PluginTls.fromSecrets({ clientSecretName: 'c', serverSecretName: 's', ...X } as any),
  PluginSecurityContextProps: () => new StandalonePlugin(chart(), 'p', { pluginName: 'a.example.com', image: 'x:1', securityContext: X } as any),
  PostgresClusterProps: () => cluster(X),
  PostgresqlConfiguration: () => cluster({ postgresql: X }),
  PrivateCaOptions: () => PluginTls.privateCa(X as any),
  RecoveryFromClusterOptions: () => ClusterBootstrap.recoveryFromCluster(PostgresCluster.fromClusterName('a'), X as any),
  RecoveryFromPluginOptions: () => ClusterBootstrap.recoveryFromPlugin(barman, { sourceName: 'origin', ...X } as any),
  RecoveryTargetOptions: () => RecoveryTarget.immediate(X as any),
  ReplicaOfClusterOptions: () => ClusterBootstrap.replicaOfCluster(PostgresCluster.fromClusterName('a'), X as any),
  S3AccessKeysOptions: () => ObjectStoreCredentials.s3AccessKeys({ ...s3, ...X } as any),
  S3IamRoleOptions: () => ObjectStoreCredentials.s3IamRole(X as any),
  ScaleToZeroClusterOptions: () => new ScaleToZeroPlugin(chart(), 'p').enable(cluster({}), X as any),
  ScaleToZeroPluginProps: () => new ScaleToZeroPlugin(chart(), 'p', X as any),
  SecretKeyReference: () => ObjectStoreCredentials.azureConnectionString({ name: 's', key: 'k', ...X } as any),
  SidecarPluginOptions: () => CnpgOperator.prototype.addSidecarPlugin.call(undefined, 'x', X as any),
  SidecarPluginProps: () => new SidecarPlugin(chart(), 's', X as any),
  StandalonePluginProps: () => new StandalonePlugin(chart(), 'p', X as any),
};

describe('every options object refuses unknown keys', () => {
  const names = exportedInterfaces();

  test('every exported interface is an options object with a case here, or listed as none', () => {
    const unclassified = names.filter((n) => !(n in CASES) && !NOT_OPTIONS.has(n));
    expect(unclassified).toEqual([]);
    // no case for an interface that is gone
    expect(Object.keys(CASES).filter((n) => !names.includes(n))).toEqual([]);
    expect([...NOT_OPTIONS].filter((n) => !names.includes(n))).toEqual([]);
  });

  test.each(Object.keys(CASES))('%s', (name) => {
    let error: unknown;
    try {
      CASES[name]();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CnpgIValidationError);
    expect((error as Error).message).toMatch(/notAKey 1 is not a declared key of /);
  });
});
