/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/backup_webhook_test.go as data: BackupCustomValidator.validate.
 */
import { AdmissionCase, backup } from '../case';

export const BACKUP_CASES: readonly AdmissionCase[] = [
  {
    id: 'backup/validate/1',
    upstream: { file: 'backup_webhook_test.go', line: 62, describe: 'Backup webhook validate', it: 'complains if online is set on a barman backup' },
    function: 'validate',
    kind: 'Backup',
    input: backup({ method: 'barmanObjectStore', online: true }),
    verdict: { errors: 1, paths: ['spec.online'] },
  },
  {
    id: 'backup/validate/2',
    upstream: {
      file: 'backup_webhook_test.go',
      line: 74,
      describe: 'Backup webhook validate',
      it: 'complains if onlineConfiguration is set on a barman backup',
    },
    function: 'validate',
    kind: 'Backup',
    input: backup({ method: 'barmanObjectStore', onlineConfiguration: {} }),
    verdict: { errors: 1, paths: ['spec.onlineConfiguration'] },
  },
  {
    id: 'backup/validate/3',
    upstream: {
      file: 'backup_webhook_test.go',
      line: 86,
      describe: 'Backup webhook validate',
      it: 'returns error if BackupVolumeSnapshotDeadlineAnnotationName is not an integer',
    },
    function: 'validate',
    kind: 'Backup',
    input: backup({}, { annotations: { 'cnpg.io/volumeSnapshotDeadline': 'not-an-integer' } }),
    verdict: {
      errors: 1,
      paths: ['metadata.annotations.cnpg.io/volumeSnapshotDeadline'],
      details: [{ index: 0, path: 'metadata.annotations.cnpg.io/volumeSnapshotDeadline', messageContains: ['must be an integer'] }],
    },
    note: 'Upstream leaves spec.method empty; the CRD default (barmanObjectStore) does not change the verdict.',
  },
  {
    id: 'backup/validate/4',
    upstream: {
      file: 'backup_webhook_test.go',
      line: 100,
      describe: 'Backup webhook validate',
      it: 'does not return error if BackupVolumeSnapshotDeadlineAnnotationName is an integer',
    },
    function: 'validate',
    kind: 'Backup',
    input: backup({}, { annotations: { 'cnpg.io/volumeSnapshotDeadline': '123' } }),
    verdict: { errors: 0 },
  },
  {
    id: 'backup/validate/5',
    upstream: {
      file: 'backup_webhook_test.go',
      line: 112,
      describe: 'Backup webhook validate',
      it: 'does not return error if BackupVolumeSnapshotDeadlineAnnotationName is not set',
    },
    function: 'validate',
    kind: 'Backup',
    input: backup({}, { annotations: {} }),
    verdict: { errors: 0 },
  },
];
