import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import {
  Backup as CnpgBackup,
  BackupProps as CnpgBackupProps,
  BackupSpecMethod as CnpgBackupSpecMethod,
  BackupSpecTarget as CnpgBackupSpecTarget,
} from '../../imports/postgresql.cnpg.io';
import { validateMetadata } from '../common/metadata';
import { IPlugin } from '../plugins/plugin';
import { bindBackupCluster, checkedApiObject, optionalBoolean, optionalEnum, optionalParameters, pluginNameOf, requireObject } from './internal';
import { SUBDOMAIN_NAME_RULE, checkBeforeRender, claimName, nameFromId } from '../common/stable-names';
import type { PostgresCluster } from './postgres-cluster';

/**
 * Which instance takes a backup (`spec.target`), with the wire values of the CRD.
 */
export enum BackupTarget {
  /** Always the primary. */
  PRIMARY = 'primary',
  /** The most up-to-date standby when there is one, else the primary. */
  PREFER_STANDBY = 'prefer-standby',
}

const TARGETS: Record<BackupTarget, CnpgBackupSpecTarget> = {
  [BackupTarget.PRIMARY]: CnpgBackupSpecTarget.PRIMARY,
  [BackupTarget.PREFER_STANDBY]: CnpgBackupSpecTarget.PREFER_HYPHEN_STANDBY,
};

/**
 * Options of `PostgresCluster.addBackup()`.
 */
export interface PluginBackupOptions {
  /**
   * The plugin that takes the backup (`spec.pluginConfiguration.name`). The Cluster must enable
   * it in `spec.plugins` (checked at synth when `cluster` is a `PostgresCluster`).
   */
  readonly plugin: IPlugin | string;

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
   * is checked against its `spec.plugins`), or the name of a Cluster managed elsewhere in the
   * Backup's namespace (nothing can be checked).
   */
  readonly cluster: PostgresCluster | string;
}

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
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: PluginBackupProps) {
    super(scope, id);
    const p = requireObject<PluginBackupProps>(this, 'props', props, "pass { cluster, plugin: 'backup.example.com' }");
    this.pluginName = pluginNameOf(this, 'plugin', p.plugin);
    const metadata = p.metadata === undefined ? {} : validateMetadata(this, 'metadata', p.metadata, "pass { name: 'pg-backup' }");
    const binding = bindBackupCluster(this, p.cluster, this.pluginName, metadata.namespace);
    this.clusterName = binding.clusterName;
    const target = optionalEnum(this, 'target', p.target, BackupTarget, 'BackupTarget');

    const backupProps: CnpgBackupProps = {
      metadata: { ...metadata, name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('Backup'), `${binding.clusterName}-${id}`), namespace: binding.namespace },
      spec: {
        cluster: { name: binding.clusterName },
        method: CnpgBackupSpecMethod.PLUGIN,
        pluginConfiguration: {
          name: this.pluginName,
          parameters: optionalParameters(this, 'parameters', p.parameters),
        },
        target: target === undefined ? undefined : TARGETS[target],
        online: optionalBoolean(this, 'online', p.online),
      },
    };
    this.apiObject = checkedApiObject(CnpgBackup, this, 'Resource', backupProps, binding.check);
    if (binding.clusterObject) this.apiObject.node.addDependency(binding.clusterObject);
    this.name = this.apiObject.name;
    checkBeforeRender(this.apiObject, claimName(this, 'Backup', this.apiObject.metadata.namespace, this.name));
  }
}
