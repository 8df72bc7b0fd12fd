import { ApiObjectMetadata } from 'cdk8s';
import { CpuResources } from 'cdk8s-plus-28';
import { MANAGED_FIELDS } from '../../scripts/cluster-spec-passthrough';
import {
  ClusterMonitoring,
  ClusterPluginOptions,
  ClusterReplica,
  ClusterResources,
  ClusterStorage,
  PluginBackupProps,
  PluginScheduledBackupProps,
  PostgresClusterProps,
  PostgresqlConfiguration,
} from '../../src/postgres';
import { CLUSTER_SPEC_PASSTHROUGH_SPEC } from '../../src/postgres/cluster-spec-passthrough';
import { declaredKeys } from '../util';
import { keyProperty } from './harness';
import { propertyFile } from './property-file';
import * as S from './scenarios';

/*
 * Property-based tests of PostgresCluster (addPlugin, addExternalCluster, addBackup, addScheduledBackup, ClusterBootstrap), PluginBackup and PluginScheduledBackup: generated valid props synthesize to output that Kubernetes,
 * the upstream CRDs, the restricted Pod Security Standard and the doctor all accept, with the
 * plugin name the same in every place; one prop of valid props replaced with junk gives either
 * this library's own error (naming the construct path and the prop) or such an output; and an
 * unknown key in any props or options object is refused by name.
 */

const { properties } = propertyFile('postgres-props');

properties('PostgresCluster with plugins, external clusters, a bootstrap and backups', S.postgresClusterScenario);
properties('PluginBackup and PluginScheduledBackup of a Cluster managed elsewhere', S.backupsByNameScenario);

// The declared keys, kept in step with the interfaces by the compiler.
const METADATA = declaredKeys<ApiObjectMetadata>({ name: true, namespace: true, labels: true, annotations: true, finalizers: true, ownerReferences: true });
const CLUSTER = declaredKeys<PostgresClusterProps>({
  metadata: true,
  instances: true,
  storage: true,
  walStorage: true,
  image: true,
  postgresql: true,
  bootstrap: true,
  replica: true,
  monitoring: true,
  resources: true,
  affinity: true,
  spec: true,
});
const STORAGE = declaredKeys<ClusterStorage>({ size: true, storageClass: true, resizeInUseVolumes: true, pvcTemplate: true });
const RESOURCES = declaredKeys<ClusterResources>({ cpu: true, memory: true });
const REQUEST_LIMIT = declaredKeys<CpuResources>({ request: true, limit: true });
const REPLICA = declaredKeys<ClusterReplica>({ source: true, enabled: true, primary: true, self: true, promotionToken: true, minApplyDelay: true });
const PLUGIN = declaredKeys<ClusterPluginOptions>({ enabled: true, isWalArchiver: true, parameters: true, objectStore: true });
const BACKUP = declaredKeys<PluginBackupProps>({ plugin: true, parameters: true, target: true, online: true, metadata: true, cluster: true });
const SCHEDULED = declaredKeys<PluginScheduledBackupProps>({
  plugin: true,
  schedule: true,
  parameters: true,
  immediate: true,
  suspend: true,
  backupOwnerReference: true,
  target: true,
  online: true,
  metadata: true,
  cluster: true,
});

describe('the key property: an unknown key in any props or options object is refused by name', () => {
  test.each<[string, Array<string | number>, readonly string[]]>([
    ['PostgresCluster props', ['cluster'], CLUSTER],
    ['metadata', ['cluster', 'metadata'], METADATA],
    ['storage', ['cluster', 'storage'], STORAGE],
    ['walStorage', ['cluster', 'walStorage'], STORAGE],
    ['postgresql', ['cluster', 'postgresql'], declaredKeys<PostgresqlConfiguration>({ parameters: true })],
    ['monitoring', ['cluster', 'monitoring'], declaredKeys<ClusterMonitoring>({ enablePodMonitor: true })],
    ['resources', ['cluster', 'resources'], RESOURCES],
    ['resources.cpu', ['cluster', 'resources', 'cpu'], REQUEST_LIMIT],
    ['resources.memory', ['cluster', 'resources', 'memory'], REQUEST_LIMIT],
    ['replica', ['cluster', 'replica'], REPLICA],
    ['spec (the passthrough)', ['cluster', 'spec'], [...Object.keys(CLUSTER_SPEC_PASSTHROUGH_SPEC), ...MANAGED_FIELDS]],
    ['addPlugin options', ['plugins', 0, 'options'], PLUGIN],
    ['addBackup options', ['backups', 0], BACKUP],
    ['addBackup metadata', ['backups', 0, 'metadata'], METADATA],
    ['addScheduledBackup options', ['scheduled', 0], SCHEDULED],
  ])('%s', (_name, at, keys) => keyProperty(S.postgresClusterScenario, at, keys));

  test.each<[string, Array<string | number>, readonly string[]]>([
    ['PluginBackup props', ['backup'], BACKUP],
    ['PluginScheduledBackup props', ['scheduled'], SCHEDULED],
    ['PluginScheduledBackup metadata', ['scheduled', 'metadata'], METADATA],
  ])('%s', (_name, at, keys) => keyProperty(S.backupsByNameScenario, at, keys));
});
