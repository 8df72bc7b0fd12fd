/*
 * The Cluster webhook's checks of `spec.bootstrap` (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go): the application database of each method, initdb's own
 * options, the logical import, the recovery target and recovery from volume snapshots. Each
 * judges the Cluster as the defaulting webhook leaves it: the method it bootstraps with
 * (recovery, else pg_basebackup, else initdb) has its database and owner filled in.
 */
import { describeValue } from '../../manifests/errors';
import { goAtoi, goParseUint } from '../../manifests/go-numbers';
import { Json, asArray, asObject, dig } from '../../manifests/json';
import type { CheckIssue } from '../issue';
import type { AdmissionCheck } from './admission-check';
import { goString, isSet } from './go-values';
import { isLsn, isTargetTime } from './machinery';

type Method = 'initdb' | 'recovery' | 'pg_basebackup';

const bootstrap = (cluster: Json, method: Method) => asObject(dig(cluster, 'spec', 'bootstrap', method));

/**
 * validateApplicationDatabase: a bootstrap method with a database and no owner, or an owner and no
 * database. The defaulter completes the method the Cluster bootstraps with, so this reaches
 * admission for a second method set beside it (which validateBootstrapMethod refuses too) and for
 * an initdb monolith import, whose database the defaulter leaves empty.
 */
function applicationDatabase(section: Json, method: Method): CheckIssue[] {
  const database = goString(section.database);
  const owner = goString(section.owner);
  const base = `spec.bootstrap.${method}`;
  if (database !== '' && owner === '') {
    return [
      {
        severity: 'error',
        path: `${base}.owner`,
        message: `the Cluster webhook refuses ${base}.database ${describeValue(database)} without an owner ("You need to specify the database owner user"): the operator creates the application database for that user`,
        fix: `set ${base}.owner to the user that owns ${describeValue(database)}, or remove ${base}.database`,
      },
    ];
  }
  if (database === '' && owner !== '') {
    return [
      {
        severity: 'error',
        path: `${base}.database`,
        message: `the Cluster webhook refuses ${base}.owner ${describeValue(owner)} without a database ("You need to specify the database name"): the owner is the owner of the application database`,
        fix: `set ${base}.database to the application database's name, or remove ${base}.owner`,
      },
    ];
  }
  return [];
}

/** validateInitDB: initdb's application database, its WAL segment size and its post-init SQL references. */
function initDB(cluster: Json): CheckIssue[] {
  const initdb = bootstrap(cluster, 'initdb');
  if (!initdb) return [];
  const issues = applicationDatabase(initdb, 'initdb');
  const size = initdb.walSegmentSize;
  if (typeof size === 'number' && Number.isInteger(size) && size !== 0 && !isPowerOfTwo(size)) {
    issues.push({
      severity: 'error',
      path: 'spec.bootstrap.initdb.walSegmentSize',
      message: `the Cluster webhook refuses walSegmentSize ${size} ("WAL segment size must be a power of 2"): initdb takes the WAL segment size in megabytes, a power of two`,
      fix: 'use a power of two between 1 and 1024 (16 is PostgreSQL’s default), or leave it out',
    });
  }
  for (const list of ['secretRefs', 'configMapRefs'] as const) {
    const refs = asArray(dig(initdb, 'postInitApplicationSQLRefs', list));
    refs.forEach((ref, i) => {
      const name = goString(dig(ref, 'name'));
      const key = goString(dig(ref, 'key'));
      if (name !== '' && key !== '') return;
      const missing = [name === '' ? 'name' : undefined, key === '' ? 'key' : undefined].filter((x) => x !== undefined).join(' and ');
      issues.push({
        severity: 'error',
        path: `spec.bootstrap.initdb.postInitApplicationSQLRefs.${list}[${i}]`,
        webhookPath: `spec.bootstrap.initdb.postInitApplicationSQLRefs.${list}`,
        message: `the Cluster webhook refuses a ${list === 'secretRefs' ? 'Secret' : 'ConfigMap'} reference without its ${missing} ("key and name must be specified", at spec.bootstrap.initdb.postInitApplicationSQLRefs.${list}): the operator reads the SQL from that key of that object`,
        fix: `give the reference both name (the ${list === 'secretRefs' ? 'Secret' : 'ConfigMap'}) and key (the entry holding the SQL)`,
      });
    });
  }
  return issues;
}

/** Go utils.IsPowerOfTwo on an int: `n != 0 && n&(n-1) == 0` (so no negative number but the smallest int64). */
function isPowerOfTwo(n: number): boolean {
  const b = BigInt.asIntN(64, BigInt(n));
  return b !== 0n && BigInt.asIntN(64, b & BigInt.asIntN(64, b - 1n)) === 0n;
}

/** validateRecoveryApplicationDatabase: never reaches admission (the defaulter completes recovery). */
function recoveryApplicationDatabase(cluster: Json): CheckIssue[] {
  const recovery = bootstrap(cluster, 'recovery');
  return recovery ? applicationDatabase(recovery, 'recovery') : [];
}

/** validatePgBaseBackupApplicationDatabase: reaches admission only beside a recovery section. */
function pgBaseBackupApplicationDatabase(cluster: Json): CheckIssue[] {
  const pgBaseBackup = bootstrap(cluster, 'pg_basebackup');
  return pgBaseBackup ? applicationDatabase(pgBaseBackup, 'pg_basebackup') : [];
}

const IMPORT = 'spec.bootstrap.initdb.import';

/** validateImport (validateMicroservice, validateMonolith): what each import type allows. */
function importSpec(cluster: Json): CheckIssue[] {
  const spec = asObject(dig(cluster, 'spec', 'bootstrap', 'initdb', 'import'));
  if (!spec) return [];
  const type = goString(spec.type);
  const databases = asArray(spec.databases).map(goString);
  const roles = asArray(spec.roles).map(goString);
  const issue = (path: string, answer: string, why: string, fix: string, webhookPath?: string): CheckIssue => ({
    severity: 'error',
    path,
    ...(webhookPath !== undefined ? { webhookPath } : {}),
    message: `the Cluster webhook refuses this ${type === '' ? '' : `${type} `}import ("${answer}"): ${why}`,
    fix,
  });
  if (type === 'microservice') {
    const issues: CheckIssue[] = [];
    if (databases.length !== 1) {
      issues.push(
        issue(
          `${IMPORT}.databases`,
          'You need to specify a single database for the `microservice` import type',
          `it lists ${databases.length} databases, and a microservice import copies exactly one into the application database`,
          'list the one database to import, or use type: monolith to import several',
        ),
      );
    }
    if (roles.length !== 0) {
      issues.push(
        issue(
          `${IMPORT}.roles`,
          'You cannot specify roles to import for the `microservice` import type',
          'a microservice import brings no roles (the application owner owns what it imports)',
          'remove roles, or use type: monolith to import roles too',
        ),
      );
    }
    if (databases.length === 1 && databases[0].includes('*')) {
      issues.push(
        issue(
          `${IMPORT}.databases[0]`,
          'You cannot specify any wildcard for the `microservice` import type',
          `${describeValue(databases[0])} holds a wildcard, and a microservice import names its one database`,
          'name the database to import, or use type: monolith with databases: ["*"] to import them all',
          `${IMPORT}.databases.0`,
        ),
      );
    }
    return issues;
  }
  if (type === 'monolith') {
    const issues: CheckIssue[] = [];
    if (databases.length < 1) {
      issues.push(
        issue(
          `${IMPORT}.databases`,
          'You need to specify at least a database for the `monolith` import type',
          'it lists no database to import',
          'list the databases to import, or ["*"] for all of them',
        ),
      );
    }
    if (databases.length > 1 && databases.includes('*')) {
      issues.push(
        issue(
          `${IMPORT}.databases`,
          'Wildcard import cannot be used along other database names',
          '"*" already means every database',
          'list either "*" alone or the database names without it',
        ),
      );
    }
    if (roles.length > 1 && roles.includes('*')) {
      issues.push(
        issue(
          `${IMPORT}.roles`,
          'Wildcard import cannot be used along other role names',
          '"*" already means every role',
          'list either "*" alone or the role names without it',
        ),
      );
    }
    if (asArray(spec.postImportApplicationSQL).length > 0) {
      issues.push(
        issue(
          `${IMPORT}.postImportApplicationSQL`,
          'postImportApplicationSQL is not allowed for the `monolith` import type',
          'a monolith import has no single application database to run it in',
          'remove postImportApplicationSQL (run the SQL with postInitApplicationSQL or a Database resource), or use type: microservice',
        ),
      );
    }
    return issues;
  }
  return [
    {
      severity: 'error',
      path: `${IMPORT}.type`,
      message: `the Cluster webhook refuses import type ${describeValue(type)} ("Unrecognized import type")`,
      fix: 'use type: microservice (one database into the application database) or type: monolith (databases and roles)',
    },
  ];
}

const TARGET = 'spec.bootstrap.recovery.recoveryTarget';
const TARGET_FIELDS = ['targetImmediate', 'targetLSN', 'targetName', 'targetXID', 'targetTime'] as const;

/**
 * validateRecoveryTarget (and validateTargetExclusiveness): one target, each well formed, a backup to start from.
 * The constructs call it too, on a Cluster holding only the target (`RecoveryTarget`).
 * @internal
 */
export function recoveryTarget(cluster: Json): CheckIssue[] {
  const target = asObject(dig(cluster, 'spec', 'bootstrap', 'recovery', 'recoveryTarget'));
  if (!target) return [];
  const issues: CheckIssue[] = [];
  const text = (field: string) => goString(target[field]);
  const set = TARGET_FIELDS.filter((f) => (f === 'targetImmediate' ? isSet(target[f]) : text(f) !== ''));
  if (set.length > 1) {
    issues.push({
      severity: 'error',
      path: TARGET,
      message: `the Cluster webhook refuses a recovery target with ${set.join(', ')} ("Recovery target options are mutually exclusive"): PostgreSQL stops recovery at one target`,
      fix: `keep one of ${set.join(', ')}`,
    });
  }
  const time = text('targetTime');
  if (time !== '' && !isTargetTime(time)) {
    issues.push({
      severity: 'error',
      path: `${TARGET}.targetTime`,
      webhookPath: TARGET,
      message: `the Cluster webhook refuses targetTime ${describeValue(time)} ("The format of TargetTime is invalid", at ${TARGET}): it reads a timestamp, not a phrase`,
      fix: "write a timestamp such as '2024-05-01 12:00:00+00' or '2024-05-01T12:00:00Z' (RFC 3339)",
    });
  }
  const lsn = text('targetLSN');
  if (lsn !== '' && !isLsn(lsn)) {
    issues.push({
      severity: 'error',
      path: `${TARGET}.targetLSN`,
      webhookPath: TARGET,
      message: `the Cluster webhook refuses targetLSN ${describeValue(lsn)} ("Invalid TargetLSN", at ${TARGET}): an LSN is two hexadecimal numbers joined by '/'`,
      fix: "write the LSN as PostgreSQL prints it, such as '0/3000060'",
    });
  }
  const xid = text('targetXID');
  if (xid !== '' && goParseUint(xid, 10, 32) === undefined) {
    issues.push({
      severity: 'error',
      path: `${TARGET}.targetXID`,
      message: `the Cluster webhook refuses targetXID ${describeValue(xid)} ("recovery target xid must be a non-negative 32-bit integer"): PostgreSQL reads a transaction id of 32 bits`,
      fix: 'write the transaction id as a decimal number from 0 to 4294967295',
    });
  }
  const name = text('targetName');
  if (Buffer.byteLength(name, 'utf8') >= 64) {
    issues.push({
      severity: 'error',
      path: `${TARGET}.targetName`,
      message: `the Cluster webhook refuses a targetName of ${Buffer.byteLength(name, 'utf8')} bytes ("recovery target name must be shorter than 64 bytes"): PostgreSQL's restore point names are at most 63 bytes`,
      fix: 'use the name of the restore point as pg_create_restore_point created it (at most 63 bytes)',
    });
  }
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    issues.push({
      severity: 'error',
      path: `${TARGET}.targetName`,
      message: `the Cluster webhook refuses targetName ${describeValue(name)} ("recovery target name must not contain ASCII control characters")`,
      fix: 'remove the control characters (newlines, tabs, NUL) from the restore point name',
    });
  }
  const labelBased = name !== '' || xid !== '' || isSet(target.targetImmediate);
  const fromSnapshots = isSet(dig(cluster, 'spec', 'bootstrap', 'recovery', 'volumeSnapshots'));
  if (labelBased && !fromSnapshots && text('backupID') === '') {
    issues.push({
      severity: 'error',
      path: `${TARGET}.backupID`,
      webhookPath: TARGET,
      message: `the Cluster webhook refuses a recovery to ${name !== '' ? 'targetName' : xid !== '' ? 'targetXID' : 'targetImmediate'} without backupID (Required value: "BackupID is missing", at ${TARGET}): from a backup catalog the operator picks the base backup by time, so a target that is not a time or an LSN needs the backup named`,
      fix: 'set recoveryTarget.backupID to the backup to restore, or use targetTime or targetLSN',
    });
  }
  const tli = text('targetTLI');
  const timeline = tli === '' || tli === 'latest' ? undefined : goAtoi(tli);
  if (tli !== '' && tli !== 'latest' && (typeof timeline !== 'bigint' || timeline < 1n)) {
    issues.push({
      severity: 'error',
      path: `${TARGET}.targetTLI`,
      message: `the Cluster webhook refuses targetTLI ${describeValue(tli)} ("recovery target timeline can be set to 'latest' or a positive integer")`,
      fix: "write 'latest', a timeline number from 1, or leave it out",
    });
  }
  return issues;
}

const RECOVERY = 'spec.bootstrap.recovery';
const SNAPSHOT_GROUP = 'snapshot.storage.k8s.io';

/** validateBootstrapRecoveryDataSource (and validateVolumeSnapshotSource): recovery from volume snapshots alone. */
function recoveryDataSource(cluster: Json): CheckIssue[] {
  const recovery = bootstrap(cluster, 'recovery');
  const snapshots = recovery?.volumeSnapshots;
  if (!recovery || !isSet(snapshots)) return [];
  if (isSet(recovery.backup)) {
    return [
      {
        severity: 'error',
        path: `${RECOVERY}.backup`,
        message: `the Cluster webhook refuses recovery.backup beside recovery.volumeSnapshots ("Recovery from dataSource is not compatible with other types of recovery"): the data comes from the snapshots`,
        fix: 'remove recovery.backup to recover from the volume snapshots, or remove volumeSnapshots to recover from the backup',
      },
    ];
  }
  const backupID = goString(dig(recovery, 'recoveryTarget', 'backupID'));
  if (backupID !== '') {
    return [
      {
        severity: 'error',
        path: `${RECOVERY}.recoveryTarget.backupID`,
        message: `the Cluster webhook refuses backupID ${describeValue(backupID)} in a recovery from volume snapshots ("Cannot specify a backupID when recovering using a DataSource"): the snapshots are the backup`,
        fix: 'remove recoveryTarget.backupID',
      },
    ];
  }
  const issues = snapshotSource(dig(snapshots, 'storage'), `${RECOVERY}.volumeSnapshots.storage`, `${RECOVERY}.storage`);
  const wal = dig(snapshots, 'walStorage');
  const walWebhookPath = `${RECOVERY}.dataSource.walStorage`;
  if (isSet(wal) && !isSet(dig(cluster, 'spec', 'walStorage'))) {
    issues.push({
      severity: 'error',
      path: `${RECOVERY}.volumeSnapshots.walStorage`,
      webhookPath: walWebhookPath,
      message: `the Cluster webhook refuses a WAL snapshot without spec.walStorage ("A WAL storage configuration is required when recovering using a DataSource for WALs", at ${walWebhookPath}): the WAL volume restored from it is the Cluster's WAL storage`,
      fix: 'add spec.walStorage (with a size), or remove volumeSnapshots.walStorage',
    });
    // The webhook checks the reference here and again below: a bad one is in its answer twice.
    issues.push(...snapshotSource(wal, `${RECOVERY}.volumeSnapshots.walStorage`, walWebhookPath));
  }
  if (isSet(wal)) issues.push(...snapshotSource(wal, `${RECOVERY}.volumeSnapshots.walStorage`, walWebhookPath));
  return issues;
}

/** validateVolumeSnapshotSource: a VolumeSnapshot (snapshot.storage.k8s.io) or a PersistentVolumeClaim (core). */
function snapshotSource(reference: unknown, path: string, webhookPath: string): CheckIssue[] {
  const apiGroup = goString(dig(reference, 'apiGroup'));
  const kind = goString(dig(reference, 'kind'));
  if ((apiGroup === SNAPSHOT_GROUP && kind === 'VolumeSnapshot') || (apiGroup === '' && kind === 'PersistentVolumeClaim')) return [];
  const what = kind === '' ? 'no kind' : `${apiGroup === '' ? 'core' : apiGroup} ${kind}`;
  return [
    {
      severity: 'error',
      path,
      webhookPath,
      message: `the Cluster webhook refuses a recovery source of ${what} ("Only VolumeSnapshots and PersistentVolumeClaims are supported", at ${webhookPath})`,
      fix: `reference a VolumeSnapshot (apiGroup: ${SNAPSHOT_GROUP}, kind: VolumeSnapshot) or a PersistentVolumeClaim (no apiGroup, kind: PersistentVolumeClaim)`,
    },
  ];
}

/** The bootstrap checks, in the webhook's order. @internal */
export const CLUSTER_BOOTSTRAP_CHECKS: readonly AdmissionCheck[] = [
  { kind: 'Cluster', upstream: 'validateInitDB', check: initDB },
  { kind: 'Cluster', upstream: 'validateRecoveryApplicationDatabase', check: recoveryApplicationDatabase },
  { kind: 'Cluster', upstream: 'validatePgBaseBackupApplicationDatabase', check: pgBaseBackupApplicationDatabase },
  { kind: 'Cluster', upstream: 'validateImport', check: importSpec },
  { kind: 'Cluster', upstream: 'validateRecoveryTarget', check: recoveryTarget },
  { kind: 'Cluster', upstream: 'validateBootstrapRecoveryDataSource', check: recoveryDataSource },
];
