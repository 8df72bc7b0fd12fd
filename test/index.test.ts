import * as lib from '../src';

// The package's runtime exports are its public contract (design.md names them): a new export
// is a deliberate API addition, and an internal helper must not leak through an index.ts.
const PUBLIC = [
  'BARMAN_CLOUD_OBJECT_STORE_CRD_URL',
  'BARMAN_CLOUD_PLUGIN_IMAGE',
  'BARMAN_CLOUD_PLUGIN_VERSION',
  'BARMAN_CLOUD_SIDECAR_IMAGE',
  'BackupOwnerReference',
  'BackupSchedule',
  'BackupTarget',
  'BarmanCloudNames',
  'BarmanCloudPlugin',
  'CERT_MANAGER_GROUP',
  'CertificateRotationPolicy',
  'ClusterBootstrap',
  'ClusterImage',
  'ClusterImageCatalog',
  'CnpgIValidationError',
  'CnpgOperator',
  'DEFAULT_OPERATOR_POD_LABELS',
  'DEFAULT_PLUGIN_SOCKET_DIR',
  'DEFAULT_PLUGIN_USER_ID',
  'DOCTOR_RULES',
  'DataCompression',
  'Database',
  'DatabaseLocaleProvider',
  'DatabaseReclaimPolicy',
  'DatabaseRole',
  'DatabaseRoleReclaimPolicy',
  'DatabaseUsageType',
  'Doctor',
  'DoctorReaderRole',
  'DoctorReaderSubject',
  'DoctorValidationPlugin',
  'EnsureOption',
  'ExternalClusterSource',
  'HELLO_WORLD_PLUGIN_IMAGE',
  'HELLO_WORLD_PLUGIN_VERSION',
  'HelloWorldPlugin',
  'ImageCatalog',
  'ImageCatalogKind',
  'IssuerRef',
  'ObjectStore',
  'ObjectStoreCredentials',
  'ObjectStoreEncryption',
  'ObjectStoreProvider',
  'OperatorDeployment',
  'PLAN_RULES',
  'PLUGIN_CLIENT_SECRET_ANNOTATION',
  'PLUGIN_NAME_LABEL',
  'PLUGIN_PORT_ANNOTATION',
  'PLUGIN_SERVER_NAME_ANNOTATION',
  'PLUGIN_SERVER_SECRET_ANNOTATION',
  'PLUGIN_SOCKET_DIR_ENV',
  'PgBouncerPoolMode',
  'Plan',
  'PlanBaseline',
  'Plugin',
  'PluginBackup',
  'PluginCertificates',
  'PluginLogLevel',
  'PluginManifest',
  'PluginMonitoring',
  'PluginMonitoringAlert',
  'PluginPathFlag',
  'PluginScheduledBackup',
  'PluginTls',
  'PluginTlsMode',
  'Pooler',
  'PoolerType',
  'PostgresCluster',
  'PrivateKeyAlgorithm',
  'Publication',
  'PublicationReclaimPolicy',
  'PublicationTarget',
  'RecoveryTarget',
  'SCALE_TO_ZERO_PLUGIN_IMAGE',
  'SCALE_TO_ZERO_PLUGIN_VERSION',
  'SCALE_TO_ZERO_SIDECAR_IMAGE',
  'SIDECAR_PLUGIN_VOLUME_NAME',
  'ScaleToZeroPlugin',
  'SidecarPlugin',
  'StandalonePlugin',
  'Subscription',
  'SubscriptionReclaimPolicy',
  'WalCompression',
  'addPlanValidation',
  'analyzeManifests',
  'certmanager',
  'checkManifests',
  'cnpg',
  'formatFinding',
  'formatPlanFinding',
  'formatPlanJson',
  'formatPlanSarif',
  'formatPlanText',
  'planChanges',
];

test('the package exports exactly its public API', () => {
  expect(Object.keys(lib).sort()).toEqual(PUBLIC);
});

test('the names design.md promises are there', () => {
  for (const name of [
    'StandalonePlugin',
    'PluginTls',
    'IssuerRef',
    'CnpgOperator',
    'SidecarPlugin',
    'PostgresCluster',
    'PluginBackup',
    'PluginScheduledBackup',
    'BarmanCloudPlugin',
    'ObjectStore',
    'HelloWorldPlugin',
    'checkManifests',
  ]) {
    expect(Object.keys(lib)).toContain(name);
  }
});

test('the doctor and the plan (loaded on first use by the compiled entry point) keep both meanings: a value to construct or extend, and a type', () => {
  // (type-checked by `tsc --noEmit` in `npm test`: these lines would not compile with values only)
  class Strict extends lib.DoctorValidationPlugin {}
  const plugin: lib.DoctorValidationPlugin = new Strict({ failOnWarnings: true });
  const findings: lib.Finding[] = lib.checkManifests([], { operatorNamespace: 'cnpg-system' });
  const report: lib.PlanReport = lib.planChanges([], []);
  const rule: lib.RuleSpec = lib.DOCTOR_RULES[0];
  const doctor: typeof lib.Doctor = lib.Doctor;
  expect(plugin).toBeInstanceOf(lib.DoctorValidationPlugin);
  expect(findings).toEqual([]);
  expect(report.findings).toEqual([]);
  expect(rule.id).toMatch(/^CNPGI\d{3}$/);
  expect(typeof doctor.analyze).toBe('function');
});
