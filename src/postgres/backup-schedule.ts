import { CRON_FIELDS, cronFieldFix, parseCronField } from '../checks/robfig-cron';
import { Kind } from '../common/prop-kinds';
import { PropSpec, checkProps } from '../common/props';
import { ErrorScope, invalid, wrongType } from '../manifests/errors';
import { validateSchedule } from './cron';

/**
 * The fields of `BackupSchedule.cron()`, each in robfig/cron syntax (`*`, `5`, `1-5`, `*\/15`,
 * `mon-fri`, `jan,jul`). The expression is always written with 6 fields, seconds first.
 */
export interface BackupCronOptions {
  /**
   * The second (0-59).
   * @default '0'
   */
  readonly second?: string;
  /**
   * The minute (0-59).
   * @default '0'
   */
  readonly minute?: string;
  /**
   * The hour (0-23).
   * @default '*'
   */
  readonly hour?: string;
  /**
   * The day of the month (1-31), or `?`.
   * @default '*'
   */
  readonly day?: string;
  /**
   * The month (1-12 or `jan`-`dec`).
   * @default '*'
   */
  readonly month?: string;
  /**
   * The day of the week (0-6 with 0 = Sunday, or `sun`-`sat`), or `?`.
   * @default '*'
   */
  readonly weekDay?: string;
}

/** One cron field: a string without spaces; what it may hold is judged with the whole expression. */
const CRON_FIELD = Kind.test(
  (v) => typeof v === 'string' && v.trim() !== '' && !/\s/.test(v.trim()),
  (v) => (typeof v === 'string' ? 'is not one cron field (it is empty or holds spaces)' : wrongType('a string', v)),
  "write one field, e.g. '2', '*/15', '1-5' or 'mon-fri'",
);

/** The fields, in the order they are written, and the value of each that is left out. */
const CRON_SPEC: PropSpec<BackupCronOptions> = {
  second: CRON_FIELD,
  minute: CRON_FIELD,
  hour: CRON_FIELD,
  day: CRON_FIELD,
  month: CRON_FIELD,
  weekDay: CRON_FIELD,
};
const CRON_DEFAULTS: Required<BackupCronOptions> = { second: '0', minute: '0', hour: '*', day: '*', month: '*', weekDay: '*' };

/**
 * When a `ScheduledBackup` runs (`spec.schedule`), as CloudNativePG parses it (robfig/cron
 * v1.2.0: 6 fields, seconds first, or a descriptor).
 *
 * `cron()` and `daily()` write the 6-field form themselves, so the 5-field trap (a Kubernetes
 * cron such as `0 2 * * *`, which CloudNativePG reads shifted by one field) only exists in
 * `expression()`, which refuses it with the 6-field form the author meant.
 */
export class BackupSchedule {
  /** How a value of this class is made, for the message that refuses another value. @internal */
  public static readonly _factories = "BackupSchedule.daily(2), BackupSchedule.cron({ hour: '2' }) or BackupSchedule.expression('0 0 2 * * *')";

  /**
   * A schedule from its fields; unset seconds and minutes are `0`, the other fields `*`.
   * `BackupSchedule.cron({ hour: '2' })` is `0 0 2 * * *` (02:00 every day).
   */
  public static cron(options: BackupCronOptions = {}): BackupSchedule {
    const where = 'BackupSchedule.cron';
    const o = checkProps(where, 'options', options, CRON_SPEC, { optional: true }) ?? {};
    const keys = Object.keys(CRON_SPEC) as Array<keyof BackupCronOptions>;
    const fields = keys.map((key) => o[key]?.trim() ?? CRON_DEFAULTS[key]);
    // Each option is judged on its own first, so the message names it and what it accepts.
    keys.forEach((key, place) => {
      const selected = parseCronField(fields[place], place);
      if (typeof selected === 'string') {
        invalid(
          where,
          key,
          o[key],
          `is not a value robfig/cron accepts in the ${CRON_FIELDS[place].name} field (${selected})`,
          cronFieldFix(fields[place], place),
        );
      }
      if (selected === 0) invalid(where, key, o[key], 'selects no value, so the backup would never run', cronFieldFix(fields[place], place));
    });
    return new BackupSchedule(validateSchedule(where, 'options', fields.join(' ')));
  }

  /** Every day at `hour`:`minute` (local time of the operator), e.g. `daily(2)` is `0 0 2 * * *`. */
  public static daily(hour: number, minute: number = 0): BackupSchedule {
    const where = 'BackupSchedule.daily';
    return new BackupSchedule(`0 ${clockField(where, 'minute', minute, 59)} ${clockField(where, 'hour', hour, 23)} * * *`);
  }

  /**
   * A schedule written out: 6 fields, seconds first (`0 0 2 * * *`), or a descriptor (`@daily`,
   * `@every 6h`). A 5-field cron is refused, showing the 6-field form.
   */
  public static expression(expression: string): BackupSchedule {
    return new BackupSchedule(validateSchedule('BackupSchedule.expression', 'expression', expression));
  }

  /** The schedule as written in `spec.schedule`. */
  public readonly expressionString: string;

  private constructor(expression: string) {
    this.expressionString = expression;
  }
}

function clockField(where: ErrorScope, key: string, value: unknown, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max) {
    invalid(where, key, value, `is not a whole number from 0 to ${max}`, `pass e.g. ${key === 'hour' ? 'daily(2)' : 'daily(2, 30)'}`);
  }
  return value;
}
