import { ApiObject, ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import {
  ScheduledBackup as CnpgScheduledBackup,
  ScheduledBackupProps as CnpgScheduledBackupProps,
  ScheduledBackupSpecBackupOwnerReference as CnpgBackupOwnerReference,
  ScheduledBackupSpecMethod as CnpgScheduledBackupSpecMethod,
  ScheduledBackupSpecTarget as CnpgScheduledBackupSpecTarget,
} from '../../imports/postgresql.cnpg.io';
import { validateMetadata } from '../common/metadata';
import { IPlugin } from '../plugins/plugin';
import { validateSchedule } from './cron';
import { bindBackupCluster, checkedApiObject, optionalBoolean, optionalEnum, optionalParameters, pluginNameOf, requireObject } from './internal';
import { SUBDOMAIN_NAME_RULE, checkBeforeRender, claimName, nameFromId } from '../common/stable-names';
import { BackupTarget } from './plugin-backup';
import type { PostgresCluster } from './postgres-cluster';

/**
 * Which object owns the Backups a ScheduledBackup creates (`spec.backupOwnerReference`), with
 * the wire values of the CRD. The owner's deletion garbage-collects the Backup objects (not the
 * backup data).
 */
export enum BackupOwnerReference {
  /** No owner: Backups stay until deleted by hand. */
  NONE = 'none',
  /** The ScheduledBackup owns them. */
  SELF = 'self',
  /** The Cluster owns them. */
  CLUSTER = 'cluster',
}

const OWNERS: Record<BackupOwnerReference, CnpgBackupOwnerReference> = {
  [BackupOwnerReference.NONE]: CnpgBackupOwnerReference.NONE,
  [BackupOwnerReference.SELF]: CnpgBackupOwnerReference.SELF,
  [BackupOwnerReference.CLUSTER]: CnpgBackupOwnerReference.CLUSTER,
};

const TARGETS: Record<BackupTarget, CnpgScheduledBackupSpecTarget> = {
  [BackupTarget.PRIMARY]: CnpgScheduledBackupSpecTarget.PRIMARY,
  [BackupTarget.PREFER_STANDBY]: CnpgScheduledBackupSpecTarget.PREFER_HYPHEN_STANDBY,
};

/**
 * Options of `PostgresCluster.addScheduledBackup()`.
 */
export interface PluginScheduledBackupOptions {
  /**
   * The plugin that takes the backups (`spec.pluginConfiguration.name`, always written: the
   * upstream ScheduledBackup webhook does not require it, and Backups created without it fail).
   * The Cluster must enable it in `spec.plugins` (checked at synth for a `PostgresCluster`).
   */
  readonly plugin: IPlugin | string;

  /**
   * When to back up: a 6-field cron with seconds first (`second minute hour day-of-month month
   * day-of-week`), e.g. `'0 0 2 * * *'` for 02:00 every day, or a descriptor such as `'@daily'`
   * or `'@every 6h'`. A 5-field Kubernetes cron is rejected, because CloudNativePG would read it
   * shifted by one field.
   */
  readonly schedule: string;

  /**
   * Parameters for these backups (`spec.pluginConfiguration.parameters`). Strings only.
   * @default - not written: the plugin uses the Cluster's parameters
   */
  readonly parameters?: Record<string, string>;

  /**
   * Whether to take the first backup as soon as the ScheduledBackup is created.
   * @default - not written: the first backup waits for the schedule
   */
  readonly immediate?: boolean;

  /**
   * Whether the schedule is paused.
   * @default - not written: active
   */
  readonly suspend?: boolean;

  /**
   * Which object owns the Backups created. Written explicitly.
   * @default BackupOwnerReference.NONE (the CRD's default)
   */
  readonly backupOwnerReference?: BackupOwnerReference;

  /**
   * Which instance takes the backups.
   * @default - not written: the Cluster's `spec.backup.target`, itself `prefer-standby` by default
   */
  readonly target?: BackupTarget;

  /**
   * Hot (`true`) or cold (`false`) backups (`spec.online`). CloudNativePG defines it for volume
   * snapshots; a plugin may read it or ignore it.
   * @default - not written
   */
  readonly online?: boolean;

  /**
   * Metadata of the ScheduledBackup object (name, labels, annotations).
   * @default - `<cluster name>-<construct id>` (it follows the Cluster's stable name, not the
   *   construct path); the Cluster's namespace
   */
  readonly metadata?: ApiObjectMetadata;
}

/**
 * Props of `PluginScheduledBackup`.
 */
export interface PluginScheduledBackupProps extends PluginScheduledBackupOptions {
  /**
   * The Cluster to back up: a `PostgresCluster` (the ScheduledBackup goes in its namespace and
   * the plugin is checked against its `spec.plugins`), or the name of a Cluster managed
   * elsewhere in the ScheduledBackup's namespace (nothing can be checked).
   */
  readonly cluster: PostgresCluster | string;
}

/**
 * A CloudNativePG `ScheduledBackup` (`postgresql.cnpg.io/v1`) whose backups a CNPG-I plugin
 * takes: `method: plugin`, `pluginConfiguration.name` always set, the schedule checked the way
 * CloudNativePG parses it.
 */
export class PluginScheduledBackup extends Construct {
  /** The ScheduledBackup's `metadata.name`. */
  public readonly name: string;
  /** The name of the Cluster it backs up. */
  public readonly clusterName: string;
  /** The name of the plugin that takes the backups. */
  public readonly pluginName: string;
  /** The schedule, as written. */
  public readonly schedule: string;
  /** The ScheduledBackup object. */
  public readonly apiObject: ApiObject;

  public constructor(scope: Construct, id: string, props: PluginScheduledBackupProps) {
    super(scope, id);
    const p = requireObject<PluginScheduledBackupProps>(this, 'props', props, "pass { cluster, plugin: 'backup.example.com', schedule: '0 0 2 * * *' }");
    this.pluginName = pluginNameOf(this, 'plugin', p.plugin);
    this.schedule = validateSchedule(this, 'schedule', p.schedule);
    const metadata = p.metadata === undefined ? {} : validateMetadata(this, 'metadata', p.metadata, "pass { name: 'pg-nightly' }");
    const binding = bindBackupCluster(this, p.cluster, this.pluginName, metadata.namespace);
    this.clusterName = binding.clusterName;
    const target = optionalEnum(this, 'target', p.target, BackupTarget, 'BackupTarget');
    const owner = optionalEnum(this, 'backupOwnerReference', p.backupOwnerReference, BackupOwnerReference, 'BackupOwnerReference')
      ?? BackupOwnerReference.NONE;

    const scheduledProps: CnpgScheduledBackupProps = {
      metadata: { ...metadata, name: metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('ScheduledBackup'), `${binding.clusterName}-${id}`), namespace: binding.namespace },
      spec: {
        cluster: { name: binding.clusterName },
        schedule: this.schedule,
        method: CnpgScheduledBackupSpecMethod.PLUGIN,
        pluginConfiguration: {
          name: this.pluginName,
          parameters: optionalParameters(this, 'parameters', p.parameters),
        },
        backupOwnerReference: OWNERS[owner],
        immediate: optionalBoolean(this, 'immediate', p.immediate),
        suspend: optionalBoolean(this, 'suspend', p.suspend),
        target: target === undefined ? undefined : TARGETS[target],
        online: optionalBoolean(this, 'online', p.online),
      },
    };
    this.apiObject = checkedApiObject(CnpgScheduledBackup, this, 'Resource', scheduledProps, binding.check);
    if (binding.clusterObject) this.apiObject.node.addDependency(binding.clusterObject);
    this.name = this.apiObject.name;
    checkBeforeRender(this.apiObject, claimName(this, 'ScheduledBackup', this.apiObject.metadata.namespace, this.name));
  }
}
