import { CRON_DESCRIPTORS, cronFieldFix, fiveFieldReading, goFields, parseCronSchedule } from '../checks/robfig-cron';
import { ErrorScope, invalid, wrongType } from '../manifests/errors';

const SIX_FIELDS = "use 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'";

/**
 * Checks a `ScheduledBackup` schedule with the parser CloudNativePG uses (robfig/cron v1.2.0
 * `Parse`, see `src/checks/robfig-cron.ts`), so the construct and the doctor agree.
 *
 * A 5-field schedule is refused on purpose although robfig accepts it: it is read seconds first
 * with no day-of-week, so `0 2 * * *` backs up every hour at minute 2 instead of at 02:00 (the
 * upstream webhook only warns). The error shows the 6-field form the author most likely meant.
 * @internal
 */
export function validateSchedule(scope: ErrorScope, prop: string, value: unknown): string {
  const problem = scheduleProblem(value);
  if (problem !== undefined) invalid(scope, prop, value, problem[0], problem[1]);
  return value as string;
}

/** What is wrong with a schedule and how to fix it, or undefined for one CloudNativePG runs as meant. */
function scheduleProblem(value: unknown): readonly [problem: string, fix: string] | undefined {
  if (typeof value !== 'string') return [wrongType('a string', value), SIX_FIELDS];
  const parsed = parseCronSchedule(value);
  if (!parsed.ok) {
    if (value.startsWith('@')) return [parsed.error, `use one of ${CRON_DESCRIPTORS.join(', ')} or '@every <duration>' such as '@every 6h'`];
    const fields = goFields(value);
    if (fields.length === 5) {
      return [
        `${parsed.error}: 5 fields are read seconds first (second minute hour day-of-month month)`,
        `write the 6-field form '0 ${fields.join(' ')}' (second minute hour day-of-month month day-of-week)`,
      ];
    }
    return parsed.field === undefined ? [parsed.error, SIX_FIELDS] : [parsed.error, cronFieldFix(fields[parsed.field], parsed.field)];
  }
  const schedule = parsed.schedule;
  if (schedule.kind !== 'spec') return undefined;
  if (schedule.fieldCount === 5) {
    const { reading, intended } = fiveFieldReading(schedule.fields);
    return [
      `has 5 fields, which CloudNativePG reads seconds first without a day-of-week: it ${reading}`,
      `write the 6-field form '${intended}' (second minute hour day-of-month month day-of-week)`,
    ];
  }
  return schedule.emptyFields.length > 0 ? [`selects no value in its ${schedule.emptyFields.join(', ')} field, so it never runs`, SIX_FIELDS] : undefined;
}
