/*
 * The whole admission conformance table: every case file, the helper cases and what is left out.
 * A runner imports from here (see README.md).
 */
import { AdmissionCase, HelperCase } from './case';
import { BACKUP_CASES } from './cases/backup';
import { CLUSTER_BACKUP_CASES } from './cases/cluster-backup';
import { CLUSTER_BOOTSTRAP_CASES } from './cases/cluster-bootstrap';
import { CLUSTER_IMAGE_CASES } from './cases/cluster-image';
import { CLUSTER_OBJECT_CASES } from './cases/cluster-object';
import { CLUSTER_POD_CASES, CLUSTER_POD_HELPER_CASES } from './cases/cluster-pod';
import { CLUSTER_POSTGRES_CASES, CLUSTER_POSTGRES_HELPER_CASES } from './cases/cluster-postgres';
import { CLUSTER_REPLICATION_CASES } from './cases/cluster-replication';
import { CLUSTER_STORAGE_CASES } from './cases/cluster-storage';
import { COMMON_CASES } from './cases/common';
import { DATABASE_CASES } from './cases/database';
import { POOLER_CASES } from './cases/pooler';
import { SCHEDULED_BACKUP_CASES } from './cases/scheduledbackup';
import { LEFT_OUT } from './left-out';

/** Every object case, in upstream file order. */
export const ADMISSION_CASES: readonly AdmissionCase[] = [
  ...CLUSTER_BOOTSTRAP_CASES,
  ...CLUSTER_IMAGE_CASES,
  ...CLUSTER_POSTGRES_CASES,
  ...CLUSTER_STORAGE_CASES,
  ...CLUSTER_REPLICATION_CASES,
  ...CLUSTER_OBJECT_CASES,
  ...CLUSTER_POD_CASES,
  ...CLUSTER_BACKUP_CASES,
  ...BACKUP_CASES,
  ...SCHEDULED_BACKUP_CASES,
  ...POOLER_CASES,
  ...DATABASE_CASES,
];

/** Every helper case (a value in, a value or an error list out). */
export const HELPER_CASES: readonly HelperCase[] = [...CLUSTER_POSTGRES_HELPER_CASES, ...CLUSTER_POD_HELPER_CASES, ...COMMON_CASES];

export { LEFT_OUT };
