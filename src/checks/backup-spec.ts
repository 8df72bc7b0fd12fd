import { Json, asObject, asString, dig, jsonText } from '../manifests/json';
import { CheckIssue } from './issue';
import { cronFieldFix, fiveFieldReading, goFields, parseCronSchedule } from './robfig-cron';

const METHODS = ['barmanObjectStore', 'volumeSnapshot', 'plugin'];
const TARGETS = ['primary', 'prefer-standby'];
const OWNER_REFERENCES = ['none', 'self', 'cluster'];

/**
 * Class 2: a Backup or ScheduledBackup as the API server and the CloudNativePG webhooks judge it,
 * after the CRD default `method: barmanObjectStore` is applied (cloudnative-pg v1.30.0
 * api/v1/backup_types.go BackupSpec and api/v1/scheduledbackup_types.go ScheduledBackupSpec
 * markers; internal/webhook/v1/backup_webhook.go validate; internal/webhook/v1/scheduledbackup_webhook.go
 * validate; the schedule through robfig/cron v1.2.0 parser.go Parse).
 * @internal
 */
export function checkBackupSpec(object: Json, kind: 'Backup' | 'ScheduledBackup'): CheckIssue[] {
  const issues: CheckIssue[] = [];
  const spec = asObject(object.spec) ?? {};
  const enumIssue = (key: string, allowed: string[]): void => {
    const v = spec[key];
    if (v === undefined || v === null) return;
    if (typeof v !== 'string' || !allowed.includes(v)) {
      const close = typeof v === 'string' ? allowed.find((a) => a.toLowerCase() === v.toLowerCase()) : undefined;
      issues.push({
        severity: 'error',
        path: `spec.${key}`,
        message: `${jsonText(v)} is not one of ${allowed.join(', ')}; the API server refuses the ${kind} (the CRD enum is case-sensitive)`,
        fix: close ? `write '${close}'` : `use one of ${allowed.join(', ')}`,
      });
    }
  };
  enumIssue('method', METHODS);
  enumIssue('target', TARGETS);
  if (kind === 'ScheduledBackup') enumIssue('backupOwnerReference', OWNER_REFERENCES);

  // The API server applies the CRD default before the webhook sees the object.
  const method = spec.method === undefined || spec.method === null ? 'barmanObjectStore' : spec.method;
  const defaulted = spec.method === undefined || spec.method === null;
  for (const key of ['online', 'onlineConfiguration']) {
    if (spec[key] === undefined || spec[key] === null) continue;
    if (method === 'barmanObjectStore') {
      issues.push({
        severity: 'error',
        path: `spec.${key}`,
        message: `is set with method barmanObjectStore${defaulted ? ' (the CRD default, since method is not written)' : ''}; the ${kind} webhook allows ${key} only with volumeSnapshot`,
        fix: defaulted ? `write method: plugin (or volumeSnapshot), or remove ${key}` : `remove ${key}, or use method: volumeSnapshot`,
      });
    } else if (method === 'plugin') {
      issues.push({
        severity: 'warning',
        path: `spec.${key}`,
        message: `is set with method plugin; the webhook lets it through, but only volume snapshot backups give ${key} a meaning`,
        fix: `remove ${key} unless your plugin documents that it reads it`,
      });
    }
  }

  if (method === 'plugin' && (asString(dig(spec, 'pluginConfiguration', 'name')) ?? '') === '') {
    issues.push({
      severity: 'error',
      path: 'spec.pluginConfiguration.name',
      message:
        kind === 'Backup'
          ? 'is missing with method plugin; the Backup webhook refuses the Backup'
          : 'is missing with method plugin; the ScheduledBackup webhook does not check it, so every Backup it creates is refused',
      fix: 'set pluginConfiguration.name to the plugin that takes the backup, e.g. barman-cloud.cloudnative-pg.io',
    });
  }

  if (kind === 'ScheduledBackup') issues.push(...checkSchedule(spec.schedule));
  return issues;
}

/** The schedule as robfig/cron v1.2.0 `Parse` reads it (see docs/operator-fidelity.md class 2). @internal */
export function checkSchedule(value: unknown): CheckIssue[] {
  const path = 'spec.schedule';
  const six = "write 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'";
  if (typeof value !== 'string') {
    return [
      { severity: 'error', path, message: `is ${value === undefined ? 'missing' : 'not a string'}; the API server requires a schedule string`, fix: six },
    ];
  }
  const parsed = parseCronSchedule(value);
  if (!parsed.ok) {
    const fix = parsed.field === undefined ? six : cronFieldFix(goFields(value)[parsed.field], parsed.field);
    return [{ severity: 'error', path, message: `'${value}' ${parsed.error}; the ScheduledBackup webhook refuses it`, fix }];
  }
  const s = parsed.schedule;
  if (s.kind !== 'spec') return [];
  if (s.fieldCount === 5) {
    const { reading, intended } = fiveFieldReading(s.fields);
    return [
      {
        severity: 'error',
        path,
        message: `'${value}' has 5 fields; the operator reads them seconds first without a day-of-week, so it ${reading} (the webhook only warns)`,
        fix: `write the 6-field form '${intended}'`,
      },
    ];
  }
  if (s.emptyFields.length > 0) {
    return [
      {
        severity: 'warning',
        path,
        message: `'${value}' selects no value in its ${s.emptyFields.join(', ')} field; robfig/cron accepts it but it never fires`,
        fix: six,
      },
    ];
  }
  return [];
}
