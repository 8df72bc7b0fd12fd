import { ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import {
  ScheduledBackup as CnpgScheduledBackup,
  ScheduledBackupSpecBackupOwnerReference as CnpgBackupOwnerReference,
  ScheduledBackupSpecMethod as CnpgScheduledBackupSpecMethod,
  ScheduledBackupSpecTarget as CnpgScheduledBackupSpecTarget,
} from '../../imports/postgresql.cnpg.io';
import { SCHEDULED_BACKUP_LABEL, checkScheduledBackupName } from '../checks/scheduled-backup-name';
import { writtenMetadata } from '../common/metadata';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { CLUSTER_NAME_RULE, SUBDOMAIN_NAME_RULE, nameFromId } from '../common/stable-names';
import { refuseProblem, invalid } from '../manifests/errors';
import type { Json } from '../manifests/json';
import { IPlugin } from '../plugins/plugin';
import { synthJson } from '../schema/guard';
import { BackupSchedule } from './backup-schedule';
import { admissionProblem } from './cluster-fidelity';
import { IPostgresCluster } from './cluster-reference';
import { PLUGIN_KIND, POSTGRES_CLUSTER_KIND, checkBackupArchive, checkBackupPlugin, guardAndCheck, resolveBackupCluster } from './internal';
import { BackupTarget } from './plugin-backup';

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

/**
 * Options of `PostgresCluster.addScheduledBackup()`.
 */
export interface PluginScheduledBackupOptions {
  /**
   * The plugin that takes the backups (`spec.pluginConfiguration.name`, always written: the
   * upstream ScheduledBackup webhook does not require it, and Backups created without it fail).
   * The Cluster must enable it in `spec.plugins` (checked at synth for a `PostgresCluster`).
   */
  readonly plugin: IPlugin;

  /**
   * When to back up: `BackupSchedule.daily(2)`, `BackupSchedule.cron({ hour: '2' })` or
   * `BackupSchedule.expression('0 0 2 * * *')` (6 fields, seconds first, as CloudNativePG
   * parses it).
   */
  readonly schedule: BackupSchedule;

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
   * Metadata of the ScheduledBackup object (name, labels, annotations). The name has at most 63
   * characters: CloudNativePG labels every Backup it creates with it.
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
   * the plugin is checked against its `spec.plugins`), or `PostgresCluster.fromClusterName()`
   * for a Cluster managed elsewhere (only the name and namespace can be checked).
   */
  readonly cluster: IPostgresCluster;
}

const PROPS_SPEC: PropSpec<PluginScheduledBackupProps> = {
  plugin: PLUGIN_KIND,
  schedule: Kind.evenMissing(Kind.factory(BackupSchedule)),
  metadata: Kind.metadata,
  cluster: POSTGRES_CLUSTER_KIND,
  backupOwnerReference: Kind.json,
  immediate: Kind.json,
  suspend: Kind.json,
  target: Kind.json,
  online: Kind.json,
  parameters: Kind.stringMap,
};

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
  public readonly apiObject: CnpgScheduledBackup;

  public constructor(scope: Construct, id: string, props: PluginScheduledBackupProps) {
    super(scope, id);
    const p = checkProps(this, 'props', props, PROPS_SPEC);
    this.pluginName = p.plugin.pluginName;
    this.schedule = p.schedule.expressionString;
    const metadata = writtenMetadata(p.metadata);
    const cluster = resolveBackupCluster(this, p.cluster, metadata.namespace);
    this.clusterName = cluster.name;

    const name = metadata.name ?? nameFromId(this, SUBDOMAIN_NAME_RULE('ScheduledBackup'), `${cluster.name}-${id}`);
    // the name becomes a label of every Backup CloudNativePG creates for it (CNPGI116)
    const nameIssue = checkScheduledBackupName(name)[0];
    if (nameIssue !== undefined) {
      if (metadata.name !== undefined) invalid(this, 'metadata.name', name, nameIssue.message, nameIssue.fix);
      // A Cluster name that is no Cluster name is the cause, not the id: no id makes it short enough.
      if (!CLUSTER_NAME_RULE.test(cluster.name)) {
        invalid(
          this,
          'cluster',
          cluster.name,
          `is not a Cluster name: it must be ${CLUSTER_NAME_RULE.describe}; the ScheduledBackup is named '<cluster name>-<id>' (${name.length} characters here), and CloudNativePG labels every Backup it creates with that name (${SCHEDULED_BACKUP_LABEL}), a label value of at most 63 characters`,
          "give the Cluster a valid metadata.name, or pin this ScheduledBackup's name with metadata: { name }",
        );
      }
      invalid(
        this,
        'id',
        name,
        nameIssue.message,
        `give the construct a shorter id (the name is '<cluster name>-<id>'), or pin the name with metadata: { name }; ${nameIssue.fix}`,
      );
    }

    this.apiObject = new CnpgScheduledBackup(this, 'Resource', {
      metadata: {
        ...metadata,
        name,
        namespace: cluster.namespace,
      },
      spec: {
        cluster: { name: cluster.name },
        schedule: this.schedule,
        method: CnpgScheduledBackupSpecMethod.PLUGIN,
        pluginConfiguration: { name: this.pluginName, parameters: p.parameters === undefined ? undefined : { ...p.parameters } },
        // The enums' wire values are the CRD's: anything else is left to the schema guard.
        backupOwnerReference: (p.backupOwnerReference ?? BackupOwnerReference.NONE) as unknown as CnpgBackupOwnerReference,
        immediate: p.immediate,
        suspend: p.suspend,
        target: p.target as unknown as CnpgScheduledBackupSpecTarget | undefined,
        online: p.online,
      },
    });
    this.name = this.apiObject.name;
    const binding = cluster.binding;
    if (binding) this.apiObject.node.addDependency(binding.apiObject);
    guardAndCheck(this, 'ScheduledBackup', this.apiObject, () => {
      if (binding) checkBackupPlugin(this, binding, cluster.name, this.pluginName);
      if (binding) checkBackupArchive(this, binding, cluster.name, this.pluginName);
      refuseProblem(
        this,
        admissionProblem('ScheduledBackup', () => synthJson(this.apiObject) as Json),
      );
    });
  }
}
