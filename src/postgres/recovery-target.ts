import {
  ClusterSpecBootstrapRecoveryRecoveryTarget as CnpgRecoveryTarget,
  toJson_ClusterSpecBootstrapRecoveryRecoveryTarget as toJsonRecoveryTarget,
} from '../../imports/postgresql.cnpg.io';
import { recoveryTarget as admitRecoveryTarget } from '../checks/admission/cluster-bootstrap';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps, checkValue } from '../common/props';
import { ErrorScope, invalid, refuseProblem, wrongType } from '../manifests/errors';
import type { Json } from '../manifests/json';

/**
 * Options every `RecoveryTarget` factory takes: the backup to start from, the timeline, and
 * whether the recovery stops just before the target.
 */
export interface RecoveryTargetOptions {
  /**
   * The backup to restore and replay the WAL from (`backupID`). A time or LSN target picks the
   * latest backup that ends before it; a restore point, transaction id or `immediate` target
   * names its backup (the Cluster webhook refuses it without one, except in a recovery from volume
   * snapshots, which take no `backupID`).
   * @default - not written: the operator picks the backup (the latest one, or the latest before a
   *   time or LSN target)
   */
  readonly backupId?: string;

  /**
   * The timeline to follow (`targetTLI`), a positive integer.
   * @default - not written: PostgreSQL follows the latest timeline
   */
  readonly timeline?: number;

  /**
   * Stop just before the target instead of just after it (`exclusive`; PostgreSQL's
   * `recovery_target_inclusive = false`).
   * @default - not written: CloudNativePG stops just after the target (inclusive)
   */
  readonly exclusive?: boolean;
}

const OPTIONS_SPEC: PropSpec<RecoveryTargetOptions> = {
  backupId: Kind.string("give the backup's id as the plugin lists it, e.g. '20240501T120000'"),
  timeline: Kind.integer(1, Number.MAX_SAFE_INTEGER),
  exclusive: Kind.boolean,
};

/**
 * Where a recovery stops (`spec.bootstrap.recovery.recoveryTarget`): at a time, an LSN, a
 * transaction id, a restore point, or as soon as the restored backup is consistent. Exactly one
 * target exists by construction, and each is written in a form CloudNativePG's Cluster webhook
 * accepts (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateRecoveryTarget,
 * validateTargetExclusiveness), or refused when it would not be.
 *
 * Give one to the `recoveryTarget` option of `ClusterBootstrap.recoveryFromCluster()` or
 * `recoveryFromPlugin()`; `toSpec()` gives the section for a `ClusterBootstrap.fromSpec()` recovery.
 */
export class RecoveryTarget {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories =
    'RecoveryTarget.time(date), .timestamp(text), .lsn(lsn), .xid(xid, { backupId }), .restorePoint(name, { backupId }), .immediate({ backupId }) or .endOfWal({ backupId })';

  /**
   * Stop at a point in time (`targetTime`), written in RFC 3339 in UTC (`2024-05-01T12:00:00Z`,
   * with milliseconds when the date has them), which the webhook parses and the operator hands
   * to PostgreSQL with microseconds and a `+00:00` offset.
   * @param when the moment to stop at
   */
  public static time(when: Date, options: RecoveryTargetOptions = {}): RecoveryTarget {
    const where = 'RecoveryTarget.time';
    if (!(when instanceof Date)) {
      invalid(
        where,
        'when',
        when,
        wrongType('a Date', when),
        "pass a Date, or use RecoveryTarget.timestamp('2024-05-01 12:00:00+00') for a timestamp written out",
      );
    }
    const year = when.getUTCFullYear();
    if (Number.isNaN(when.getTime()) || year < 1 || year > 9999) {
      invalid(
        where,
        'when',
        Number.isNaN(when.getTime()) ? 'Invalid Date' : when.toISOString(),
        'is not a date of the years 1 to 9999, which RFC 3339 and the webhook read',
        'pass a valid Date within those years',
      );
    }
    return RecoveryTarget.make(where, { targetTime: when.toISOString().replace('.000Z', 'Z') }, options, 'when');
  }

  /**
   * Stop at a point in time written out (`targetTime`), as the webhook reads it: a PostgreSQL
   * timestamp (`YYYY-MM-DD HH:MM:SS`, optionally with a fraction and an offset such as `+00` or
   * `+02:00`) or RFC 3339 (`2024-05-01T12:00:00Z`). A time without a zone is read as UTC.
   * Written as given.
   * @param text the timestamp
   */
  public static timestamp(text: string, options: RecoveryTargetOptions = {}): RecoveryTarget {
    const where = 'RecoveryTarget.timestamp';
    checkValue(where, 'text', text, Kind.evenMissing(Kind.string("pass a timestamp such as '2024-05-01 12:00:00+00'")));
    return RecoveryTarget.make(where, { targetTime: text }, options, 'text');
  }

  /**
   * Stop at a write-ahead log location (`targetLSN`), as PostgreSQL prints it (`0/3000060`).
   * @param lsn the log sequence number
   */
  public static lsn(lsn: string, options: RecoveryTargetOptions = {}): RecoveryTarget {
    const where = 'RecoveryTarget.lsn';
    checkValue(where, 'lsn', lsn, Kind.evenMissing(Kind.string("pass an LSN such as '0/3000060'")));
    return RecoveryTarget.make(where, { targetLsn: lsn }, options, 'lsn');
  }

  /**
   * Stop at a transaction (`targetXID`), written as its decimal id. Recovering from a backup
   * catalog needs `backupId`.
   * @param xid the transaction id, from 0 to 4294967295
   */
  public static xid(xid: number, options: RecoveryTargetOptions = {}): RecoveryTarget {
    const where = 'RecoveryTarget.xid';
    checkValue(where, 'xid', xid, Kind.evenMissing(Kind.integer(0, 4294967295)));
    return RecoveryTarget.make(where, { targetXid: String(xid) }, options, 'xid');
  }

  /**
   * Stop at a restore point made with `pg_create_restore_point` (`targetName`). Recovering from a
   * backup catalog needs `backupId`.
   * @param name the restore point's name, shorter than 64 bytes
   */
  public static restorePoint(name: string, options: RecoveryTargetOptions = {}): RecoveryTarget {
    const where = 'RecoveryTarget.restorePoint';
    checkValue(where, 'name', name, Kind.evenMissing(Kind.string("pass the restore point's name, e.g. 'before-migration'")));
    return RecoveryTarget.make(where, { targetName: name }, options, 'name');
  }

  /**
   * Stop as soon as the restored backup is consistent (`targetImmediate: true`): the state at the
   * end of the backup, no later WAL. Recovering from a backup catalog needs `backupId`.
   */
  public static immediate(options: RecoveryTargetOptions = {}): RecoveryTarget {
    return RecoveryTarget.make('RecoveryTarget.immediate', { targetImmediate: true }, options);
  }

  /**
   * No target: replay all the archived WAL, from the backup `backupId` and along `timeline` (at
   * least one of them must be given; without either, leave the recovery target out).
   */
  public static endOfWal(options: RecoveryTargetOptions): RecoveryTarget {
    const where = 'RecoveryTarget.endOfWal';
    const o = checkProps(where, 'options', options, OPTIONS_SPEC);
    if (o.backupId === undefined && o.timeline === undefined) {
      invalid(
        where,
        'options',
        options,
        'names neither a backup nor a timeline, which is what no recovery target does',
        'leave recoveryTarget out, or give backupId or timeline',
      );
    }
    return RecoveryTarget.make(where, {}, o);
  }

  /** The CRD section (`targetLSN`, ... under their generated TypeScript names). */
  private readonly spec: CnpgRecoveryTarget;

  private constructor(spec: CnpgRecoveryTarget) {
    this.spec = spec;
  }

  /**
   * The `recoveryTarget` section as the generated bindings type it (a copy), for a recovery
   * written with `ClusterBootstrap.fromSpec()`.
   */
  public toSpec(): CnpgRecoveryTarget {
    return { ...this.spec };
  }

  /** The target with its options, judged as the webhook judges it, outside a recovery. */
  private static make(where: string, target: CnpgRecoveryTarget, options: RecoveryTargetOptions, prop?: string): RecoveryTarget {
    const o = checkProps(where, 'options', options, OPTIONS_SPEC, { optional: true }) ?? {};
    const spec: CnpgRecoveryTarget = {
      ...(o.backupId === undefined ? {} : { backupId: o.backupId }),
      ...(o.timeline === undefined ? {} : { targetTli: String(o.timeline) }),
      ...target,
      ...(o.exclusive === undefined ? {} : { exclusive: o.exclusive }),
    };
    // A missing backupID is judged where the target is used: a recovery from volume snapshots takes none.
    refuseProblem(where, recoveryTargetProblem(spec, { prop, ignoreBackup: true }));
    return new RecoveryTarget(spec);
  }
}

const FIELD_PROPS: Readonly<Record<string, string>> = { backupID: 'options.backupId', targetTLI: 'options.timeline' };

/**
 * The first issue CloudNativePG's webhook finds in a recovery target (the doctor's check, CNPGI307),
 * as a problem of `prop` (the target's own argument), or of its option. `ignoreBackup` leaves out
 * the missing `backupID`, which only the recovery the target is used in can judge.
 */
function recoveryTargetProblem(spec: CnpgRecoveryTarget, opts: { prop?: string; ignoreBackup?: boolean }) {
  // The JSON the CRD takes (targetLSN, backupID, ...), as the generated bindings write it.
  const json = toJsonRecoveryTarget(spec) as Json;
  const cluster = { spec: { bootstrap: { recovery: { recoveryTarget: json } } } } as unknown as Json;
  const issue = admitRecoveryTarget(cluster).find((i) => !(opts.ignoreBackup === true && i.path.endsWith('.backupID')));
  if (issue === undefined) return undefined;
  const field = issue.path.split('.').pop() ?? '';
  const prop = FIELD_PROPS[field] ?? (field === 'backupID' ? 'options.backupId' : (opts.prop ?? field));
  return { prop, value: (json as Record<string, unknown>)[field] ?? undefined, problem: `would not be admitted: ${issue.message}`, fix: issue.fix };
}

/**
 * Refuses a target that the recovery it is used in (a recovery from a backup catalog, not from
 * volume snapshots) cannot start: a restore point, transaction id or immediate target without
 * `backupId` (cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook.go validateRecoveryTarget).
 * @internal
 */
export function checkCatalogRecoveryTarget(scope: ErrorScope, prop: string, target: RecoveryTarget | undefined): void {
  if (target === undefined) return;
  checkValue(scope, prop, target, Kind.factory(RecoveryTarget));
  const spec = target.toSpec();
  const problem = recoveryTargetProblem(spec, {});
  if (problem === undefined) return;
  const what = spec.targetName !== undefined ? 'a restore point' : spec.targetXid !== undefined ? 'a transaction id' : 'an immediate';
  invalid(
    scope,
    prop,
    spec,
    `is ${what} target without backupId: the operator picks a backup from the catalog by time or LSN only, and the Cluster webhook refuses it ("BackupID is missing")`,
    `name the backup to start from, e.g. RecoveryTarget.${spec.targetName !== undefined ? "restorePoint('before-migration', { backupId: '20240501T120000' })" : spec.targetXid !== undefined ? "xid(1234, { backupId: '20240501T120000' })" : "immediate({ backupId: '20240501T120000' })"}, or use a time or LSN target`,
  );
}
