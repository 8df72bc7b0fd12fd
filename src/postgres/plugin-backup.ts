import { ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { Backup as CnpgBackup, BackupSpecMethod as CnpgBackupSpecMethod, BackupSpecTarget as CnpgBackupSpecTarget } from '../../imports/postgresql.cnpg.io';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { refuseProblem } from '../manifests/errors';
import type { Json } from '../manifests/json';
import { IPlugin } from '../plugins/plugin';
import { synthJson } from '../schema/guard';
import { admissionProblem } from './cluster-fidelity';
import { IPostgresCluster } from './cluster-reference';
import { PLUGIN_KIND, POSTGRES_CLUSTER_KIND, checkBackupArchive, checkBackupPlugin, guardAndCheck, resolveBackupCluster } from './internal';

/**
 * Which instance takes a backup (`spec.target`), with the wire values of the CRD.
 */
export enum BackupTarget {
  /** Always the primary. */
  PRIMARY = 'primary',
  /** The most up-to-date standby when there is one, else the primary. */
  PREFER_STANDBY = 'prefer-standby',
}

/**
 * Options of `PostgresCluster.addBackup()`.
 */
export interface PluginBackupOptions {
  /**
   * The plugin that takes the backup (`spec.pluginConfiguration.name`). The Cluster must enable
   * it in `spec.plugins` (checked at synth when the Cluster is a `PostgresCluster`).
   */
  readonly plugin: IPlugin;

  /**
   * Parameters for this backup (`spec.pluginConfiguration.parameters`). Strings only.
   * @default - not written: the plugin uses the Cluster's parameters
   */
  readonly parameters?: Record<string, string>;

  /**
   * Which instance takes the backup.
   * @default - not written: the Cluster's `spec.backup.target`, itself `prefer-standby` by default
   */
  readonly target?: BackupTarget;

  /**
   * Hot (`true`) or cold (`false`) backup (`spec.online`). CloudNativePG defines it for volume
   * snapshots; a plugin may read it or ignore it.
   * @default - not written
   */
  readonly online?: boolean;

  /**
   * Metadata of the Backup object (name, labels, annotations).
   * @default - `<cluster name>-<construct id>` (it follows the Cluster's stable name, not the
   *   construct path); the Cluster's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/**
 * Props of `PluginBackup`.
 */
export interface PluginBackupProps extends PluginBackupOptions {
  /**
   * The Cluster to back up: a `PostgresCluster` (the Backup goes in its namespace and the plugin
   * is checked against its `spec.plugins`), or `PostgresCluster.fromClusterName()` for a Cluster
   * managed elsewhere (only the name and namespace can be checked).
   */
  readonly cluster: IPostgresCluster;
}

const PROPS_SPEC: PropSpec<PluginBackupProps> = {
  plugin: PLUGIN_KIND,
  metadata: Kind.metadata,
  cluster: POSTGRES_CLUSTER_KIND,
  target: Kind.json,
  online: Kind.json,
  parameters: Kind.stringMap,
};

/**
 * An on-demand CloudNativePG `Backup` (`postgresql.cnpg.io/v1`) taken by a CNPG-I plugin:
 * `method: plugin` and `pluginConfiguration: { name, parameters }`.
 *
 * The whole Backup spec is immutable once applied, and a Backup runs once when created: in a
 * GitOps repository, a new Backup needs a new name.
 */
export class PluginBackup extends Construct {
  /** The Backup's `metadata.name`. */
  public readonly name: string;
  /** The name of the Cluster it backs up. */
  public readonly clusterName: string;
  /** The name of the plugin that takes it. */
  public readonly pluginName: string;
  /** The Backup object. */
  public readonly apiObject: CnpgBackup;

  public constructor(scope: Construct, id: string, props: PluginBackupProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC);
    this.pluginName = p.plugin.pluginName;
    const metadata = writtenMetadata(p.metadata);
    const cluster = resolveBackupCluster(this, p.cluster, metadata.namespace);
    this.clusterName = cluster.name;
    const { target, online } = p;

    this.apiObject = new CnpgBackup(this, 'Resource', {
      metadata: { ...metadata, name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('Backup'), `${cluster.name}-${id}`), namespace: cluster.namespace },
      spec: {
        cluster: { name: cluster.name },
        method: CnpgBackupSpecMethod.PLUGIN,
        pluginConfiguration: { name: this.pluginName, parameters: p.parameters === undefined ? undefined : { ...p.parameters } },
        // The enum's wire values are the CRD's: anything else is left to the schema guard.
        target: target as unknown as CnpgBackupSpecTarget | undefined,
        online,
      },
    });
    this.name = this.apiObject.name;
    const binding = cluster.binding;
    if (binding) this.apiObject.node.addDependency(binding.apiObject);
    guardAndCheck(this, 'Backup', this.apiObject, () => {
      if (binding) checkBackupPlugin(this, binding, cluster.name, this.pluginName);
      if (binding) checkBackupArchive(this, binding, cluster.name, this.pluginName);
      refuseProblem(
        this,
        admissionProblem('Backup', () => synthJson(this.apiObject) as Json),
      );
    });
  }
}
