import { describeValue } from '../manifests/errors';
import { isDnsSubdomain, isLabelValue } from '../manifests/k8s-names';
import { CheckIssue } from './issue';

/** The label CloudNativePG puts on every Backup a ScheduledBackup creates, with the ScheduledBackup's name. */
export const SCHEDULED_BACKUP_LABEL = 'cnpg.io/scheduled-backup';

/** What a label value holds at most (k8s.io/apimachinery pkg/util/validation IsValidLabelValue). */
const MAX_LABEL_VALUE = 63;

/**
 * A ScheduledBackup's name as the ScheduledBackup controller uses it: it labels every Backup it
 * creates with `cnpg.io/scheduled-backup: <name>` (cloudnative-pg v1.30.0
 * internal/controller/scheduledbackup_controller.go createBackup, label name from
 * pkg/utils/labels_annotations.go ParentScheduledBackupLabelName), so a name that is no label
 * value makes the API server refuse each Backup, and no scheduled backup is ever taken. A label
 * value is at most 63 characters of letters, digits, '-', '_' and '.', starting and ending with a
 * letter or digit (k8s.io/apimachinery v0.36.3 pkg/api/validate/content/kube.go IsLabelValue).
 * The ScheduledBackup's own name is a DNS subdomain (apiextensions-apiserver v0.36.3
 * pkg/registry/customresource/validator.go ValidateObjectMetaAccessor, NameIsDNSSubdomain),
 * which is a label value exactly when it has at most 63 characters: so a name that fails for its
 * characters is refused with the ScheduledBackup itself, and the message says so; one that fails
 * only for its length is accepted, and every Backup it creates is refused. The Backup's own name,
 * `<name>-<YYYYMMDDhhmmss>` (api/v1/scheduledbackup_funcs.go BackupName), is short enough when
 * the label is. `name` is the ScheduledBackup's `metadata.name`.
 * @internal
 */
export function checkScheduledBackupName(name: string): CheckIssue[] {
  if (typeof name !== 'string' || name === '' || isLabelValue(name)) return [];
  const long = name.length > MAX_LABEL_VALUE;
  const chars = [...new Set([...name].filter((c) => !/[A-Za-z0-9._-]/.test(c)))];
  // an edge that is '-', '_' or '.' (one that no label value holds at all is in `chars`)
  const edge = (c: string) => /[._-]/.test(c);
  const ends = [
    edge(name[0]) ? `starts with ${describeValue(name[0])}` : '',
    edge(name[name.length - 1]) ? `ends with ${describeValue(name[name.length - 1])}` : '',
  ];
  const problems: string[] = [];
  if (long) problems.push(`is ${name.length} characters long (a label value holds at most ${MAX_LABEL_VALUE})`);
  if (chars.length) problems.push(`holds ${chars.map((c) => describeValue(c)).join(', ')}, which no label value may hold (letters, digits, '-', '_' and '.')`);
  if (ends.some((e) => e !== '')) problems.push(`${ends.filter((e) => e !== '').join(' and ')}, where a label value has a letter or digit`);
  const labelled = `CloudNativePG labels every Backup it creates with it (${SCHEDULED_BACKUP_LABEL})`;
  const message = isDnsSubdomain(name)
    ? `is ${name.length} characters long, but ${labelled}, and a label value holds at most ${MAX_LABEL_VALUE} characters: the API server refuses each Backup and no scheduled backup is taken`
    : `${problems.join(' and ')}: the API server refuses the ScheduledBackup itself, whose name must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-' and '.', starting and ending with a letter or digit); nor could the ${SCHEDULED_BACKUP_LABEL} label CloudNativePG puts on every Backup it creates hold it`;
  const suggestion = suggestName(name);
  return [
    {
      severity: 'error',
      path: 'metadata.name',
      message,
      fix: `${chars.length || ends.some((e) => e !== '') ? `use a name of at most ${MAX_LABEL_VALUE} lower-case letters, digits, '-' and '.', starting and ending with a letter or digit` : `use a name of at most ${MAX_LABEL_VALUE} characters`}${suggestion !== '' ? `, e.g. '${suggestion}'` : ''}`,
    },
  ];
}

/** A name like `name` that is both a DNS subdomain and a label value, or '' when none is left. */
function suggestName(name: string): string {
  const cut = name
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/([.-])[.-]+/g, '$1')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, MAX_LABEL_VALUE)
    .replace(/[^a-z0-9]+$/, '');
  return isDnsSubdomain(cut) && isLabelValue(cut) ? cut : '';
}
