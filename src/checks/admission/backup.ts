/*
 * The Backup and ScheduledBackup webhooks (cloudnative-pg v1.30.0
 * internal/webhook/v1/backup_webhook.go BackupCustomValidator.validate and
 * internal/webhook/v1/scheduledbackup_webhook.go ScheduledBackupCustomValidator.validate), on the
 * object as the API server leaves it: `spec.method` carries the CRD default `barmanObjectStore`
 * when it was left out. Their defaulting webhooks change nothing.
 *
 * Not modelled: `method: volumeSnapshot` is refused when the VolumeSnapshot CRD was missing when
 * the operator started, which no manifest of the object tells.
 */
import { isGoInt } from '../../manifests/go-numbers';
import { Json, asString, dig } from '../../manifests/json';
import { BARMAN_CLOUD_PLUGIN_NAME } from '../../manifests/known-plugins';
import type { CheckIssue } from '../issue';
import { fiveFieldReading, goFields, parseCronSchedule } from '../robfig-cron';
import type { AdmissionCheck } from './admission-check';

/** The annotation with the minutes the operator waits for a volume snapshot (api/v1/backup_funcs.go GetVolumeSnapshotDeadline). */
export const VOLUME_SNAPSHOT_DEADLINE_ANNOTATION = 'cnpg.io/volumeSnapshotDeadline';

const SIX_FIELDS = "write 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *'";

/** The 6-field schedule each robfig/cron v1.2.0 descriptor stands for (parser.go parseDescriptor). */
const DESCRIPTOR_FIELDS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 0 1 1 *',
  '@annually': '0 0 0 1 1 *',
  '@monthly': '0 0 0 1 * *',
  '@weekly': '0 0 0 * * 0',
  '@daily': '0 0 0 * * *',
  '@midnight': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
};

/** `spec.method` as the webhook compares it (a value of another type is no method). */
const methodOf = (object: Json): string | undefined => asString(dig(object, 'spec', 'method'));

/** Whether a pointer field of the spec is set (Go `!= nil`: a JSON `null` is not). */
const isSet = (object: Json, key: string): boolean => {
  const value = dig(object, 'spec', key);
  return value !== undefined && value !== null;
};

/**
 * `online` and `onlineConfiguration` with method barmanObjectStore: both webhooks refuse them
 * (only a volume snapshot backup is taken either online or offline), each with its own reason.
 */
function onlineSettings(object: Json, kind: 'Backup' | 'ScheduledBackup'): CheckIssue[] {
  if (methodOf(object) !== 'barmanObjectStore') return [];
  const method = kind === 'Backup' ? 'backup method' : 'method';
  const reasons: Record<string, string> = {
    online: `Online parameter can be specified only if the ${method} is volumeSnapshot`,
    onlineConfiguration: `OnlineConfiguration parameter can be specified only if the ${method} is volumeSnapshot`,
  };
  return Object.keys(reasons)
    .filter((key) => isSet(object, key))
    .map((key) => ({
      severity: 'error' as const,
      path: `spec.${key}`,
      message: `the ${kind} webhook refuses ${key} with method barmanObjectStore, the CRD default when method is left out ("${reasons[key]}"): a Barman object store backup is always taken online, the setting is for volume snapshots`,
      fix: `remove ${key}, or use method: volumeSnapshot`,
    }));
}

/** A plugin backup that names no plugin (api/v1/backup_funcs.go BackupPluginConfiguration.IsEmpty: no name). */
function pluginName(object: Json): CheckIssue[] {
  if (methodOf(object) !== 'plugin' || (asString(dig(object, 'spec', 'pluginConfiguration', 'name')) ?? '') !== '') return [];
  return [
    {
      severity: 'error',
      path: 'spec.pluginConfiguration.name',
      webhookPath: 'spec.pluginConfiguration',
      message:
        'the Backup webhook refuses method plugin without a plugin name (spec.pluginConfiguration: "cannot be empty when the backup method is plugin"): the operator would not know which plugin takes the backup',
      fix: `set spec.pluginConfiguration.name to the plugin that takes the backup, e.g. ${BARMAN_CLOUD_PLUGIN_NAME}`,
    },
  ];
}

/**
 * The `cnpg.io/volumeSnapshotDeadline` annotation of `object` when it is set and Go's
 * `strconv.Atoi` does not read it: the Backup webhook refuses it ("must be an integer"). A
 * ScheduledBackup's webhook does not look, but the ScheduledBackup copies the annotation to every
 * Backup it creates (api/v1/scheduledbackup_funcs.go CreateBackup), so each of those is refused:
 * `kind` says which of the two `object` is.
 * @internal
 */
export function volumeSnapshotDeadline(object: Json, kind: 'Backup' | 'ScheduledBackup'): CheckIssue[] {
  const value = asString(dig(object, 'metadata', 'annotations', VOLUME_SNAPSHOT_DEADLINE_ANNOTATION)) ?? '';
  if (value === '' || isGoInt(value)) return [];
  const refused = `annotation ${VOLUME_SNAPSHOT_DEADLINE_ANNOTATION} '${value}' is no integer for Go's strconv.Atoi`;
  return [
    {
      severity: 'error',
      path: `metadata.annotations.${VOLUME_SNAPSHOT_DEADLINE_ANNOTATION}`,
      message:
        kind === 'Backup'
          ? `the Backup webhook refuses the ${refused} ("must be an integer"): it is the number of minutes the operator waits for a volume snapshot`
          : `the ScheduledBackup webhook accepts the ${refused}, but it is copied to every Backup the ScheduledBackup creates, and the Backup webhook refuses each of them ("must be an integer")`,
      fix: `write the minutes as a plain integer string, e.g. '30', or remove the annotation (the operator then waits 10 minutes)`,
    },
  ];
}

/** The Backup webhook's checks, in its order. */
function backupValidate(object: Json): CheckIssue[] {
  return [...onlineSettings(object, 'Backup'), ...pluginName(object), ...volumeSnapshotDeadline(object, 'Backup')];
}

/**
 * The schedule as the ScheduledBackup webhook reads it: refused when robfig/cron v1.2.0 `Parse`
 * fails, a warning when it parses but does not have 6 whitespace-separated fields (a 5-field spec
 * or a descriptor).
 */
function schedule(object: Json): CheckIssue[] {
  const path = 'spec.schedule';
  const value = asString(dig(object, 'spec', 'schedule')) ?? '';
  const parsed = parseCronSchedule(value);
  if (!parsed.ok) {
    return [
      {
        severity: 'error',
        path,
        message:
          value === ''
            ? 'the ScheduledBackup webhook refuses an empty schedule: robfig/cron has nothing to parse'
            : `the ScheduledBackup webhook refuses schedule '${value}' with robfig/cron's parse error: it ${parsed.error}`,
        fix: `${SIX_FIELDS}, or a descriptor such as '@daily'`,
      },
    ];
  }
  const fields = goFields(value).length;
  if (fields === 6) return [];
  const warned = `the ScheduledBackup webhook warns about schedule '${value}' ("Schedule parameter may not have the right number of arguments (usually six arguments are needed)")`;
  const s = parsed.schedule;
  if (s.kind === 'spec') {
    const { reading, intended } = fiveFieldReading(s.fields);
    return [
      {
        severity: 'warning',
        path,
        message: `${warned}: robfig/cron reads its 5 fields seconds first without a day-of-week, so it ${reading}`,
        fix: `write the 6-field form '${intended}'`,
      },
    ];
  }
  const equivalent = s.kind === 'descriptor' ? DESCRIPTOR_FIELDS[s.descriptor] : undefined;
  return [
    {
      severity: 'warning',
      path,
      message: `${warned}: it counts ${fields} field${fields === 1 ? '' : 's'}, although robfig/cron reads the descriptor as meant`,
      fix: equivalent
        ? `write the 6-field form '${equivalent}' to silence the warning, or keep '${value}': it runs as written`
        : `keep '${value}': it runs as written (the warning changes nothing), or ${SIX_FIELDS}`,
    },
  ];
}

/** The ScheduledBackup webhook's checks, in its order (its warning included). */
function scheduledBackupValidate(object: Json): CheckIssue[] {
  return [...schedule(object), ...onlineSettings(object, 'ScheduledBackup')];
}

/**
 * The Backup and ScheduledBackup webhooks, one check each (their `validate`; the
 * ScheduledBackup's returns its warning too).
 * @internal
 */
export const BACKUP_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Backup', upstream: 'validate', check: backupValidate },
  { kind: 'ScheduledBackup', upstream: 'validate', check: scheduledBackupValidate },
];
