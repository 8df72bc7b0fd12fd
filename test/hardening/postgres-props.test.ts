import { propertyFile } from './property-file';
import * as S from './scenarios';

/*
 * Property-based tests of PostgresCluster (addPlugin, addExternalCluster, addBackup, addScheduledBackup, ClusterBootstrap), PluginBackup and PluginScheduledBackup: generated valid props synthesize to output that Kubernetes,
 * the upstream CRDs, the restricted Pod Security Standard and the doctor all accept, with the
 * plugin name the same in every place; one prop of valid props replaced with junk gives either
 * this library's own error (naming the construct path and the prop) or such an output.
 */

const { properties } = propertyFile('postgres-props');

properties('PostgresCluster with plugins, external clusters, a bootstrap and backups', S.postgresClusterScenario);
properties('PluginBackup and PluginScheduledBackup of a Cluster managed elsewhere', S.backupsByNameScenario);
