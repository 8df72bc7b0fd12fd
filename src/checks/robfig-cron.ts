/*
 * The schedule grammar CloudNativePG applies to `ScheduledBackup.spec.schedule`, re-implemented
 * from its behaviour: robfig/cron v1.2.0 `cron.Parse`, i.e. the default parser with the options
 * `Second | Minute | Hour | Dom | Month | DowOptional | Descriptor` (cloudnative-pg v1.30.0 calls
 * it from `internal/webhook/v1/scheduledbackup_webhook.go` `validate` and
 * `internal/controller/scheduledbackup_controller.go` `ReconcileScheduledBackup`).
 *
 * Pure code with no cdk8s dependency, shared by the constructs and the doctor; every export is
 * internal to the package.
 */
import { parseGoDuration } from '../manifests/duration';
import { goAtoi } from '../manifests/go-numbers';
import { memoized } from '../manifests/memo';

/** One field of a spec schedule: name, bounds and the names robfig accepts for values. */
interface FieldSpec {
  readonly name: string;
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
  /** What a value of the field is called in messages, with its accepted values and examples. */
  readonly accepts: string;
}

const MONTH_NAMES: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const DOW_NAMES: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

/** The six places in robfig's order; seconds always come first. @internal */
export const CRON_FIELDS: readonly FieldSpec[] = [
  { name: 'second', min: 0, max: 59, accepts: "a second 0-59, '*', a range '0-29', a list '0,30' or a step '*/15'" },
  { name: 'minute', min: 0, max: 59, accepts: "a minute 0-59, '*', a range '0-29', a list '0,30' or a step '*/15'" },
  { name: 'hour', min: 0, max: 23, accepts: "an hour 0-23, '*', a range '1-5', a list '2,14' or a step '*/6'" },
  { name: 'day-of-month', min: 1, max: 31, accepts: "a day of the month 1-31, '*' or '?', a range '1-7', a list '1,15' or a step '*/2'" },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: MONTH_NAMES,
    accepts: "a month 1-12 or a 3-letter name jan..dec (any case), '*', a range 'jan-mar', a list 'jan,jul' or a step '*/3'",
  },
  {
    name: 'day-of-week',
    min: 0,
    max: 6,
    names: DOW_NAMES,
    accepts: "a day of the week 0-6 (0 is Sunday) or a 3-letter name sun..sat (any case), '*' or '?', a range 'mon-fri', a list 'sat,sun' or a step '*/2'",
  },
];

/** The descriptors robfig v1.2.0 knows besides `@every`. @internal */
export const CRON_DESCRIPTORS: readonly string[] = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/** A schedule robfig accepts. @internal */
export type CronSchedule =
  | { readonly kind: 'descriptor'; readonly descriptor: string }
  | { readonly kind: 'every'; readonly seconds: number; readonly requested: string }
  | {
      readonly kind: 'spec';
      /** How many fields were written (5 or 6). */
      readonly fieldCount: 5 | 6;
      /** The six fields after robfig filled in the default (`*` for a missing day-of-week). */
      readonly fields: readonly string[];
      /** The fields that select no value at all (e.g. `,`), so the schedule never fires. */
      readonly emptyFields: readonly string[];
    };

/** The outcome of {@link parseCronSchedule}: the schedule, or the reason robfig refuses it. @internal */
export type CronParseResult =
  | { readonly ok: true; readonly schedule: CronSchedule }
  | {
      readonly ok: false;
      readonly error: string;
      /** The place (0 = second .. 5 = day-of-week) of the field robfig refused, when one was. */
      readonly field?: number;
    };

// Go's strings.Fields splits on unicode.IsSpace; JavaScript's \s differs on U+0085 and U+FEFF.
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** Splits like Go's `strings.Fields`. @internal */
export function goFields(text: string): string[] {
  return text.split(GO_SPACE).filter((f) => f !== '');
}

/**
 * Parses a schedule exactly as robfig/cron v1.2.0 `Parse` does: no trimming, descriptors only
 * when the very first character is `@`, 5 or 6 whitespace-separated fields read seconds first
 * (a 5-field spec has no day-of-week), names case-insensitive, `*` and `?` alike, `N/step`
 * meaning `N-max/step`.
 * @internal
 */
export const parseCronSchedule: (spec: string) => CronParseResult = memoized(readCronSchedule);

function readCronSchedule(spec: string): CronParseResult {
  if (spec.length === 0) return { ok: false, error: 'is empty' };
  if (spec[0] === '@') return parseDescriptor(spec);
  const fields = goFields(spec);
  if (fields.length < 5 || fields.length > 6) {
    return { ok: false, error: `has ${fields.length} fields; robfig/cron takes 5 or 6, seconds first` };
  }
  const full = fields.length === 6 ? fields : [...fields, '*'];
  const emptyFields: string[] = [];
  for (let i = 0; i < 6; i++) {
    const result = parseField(full[i], CRON_FIELDS[i]);
    if (typeof result === 'string') {
      return { ok: false, error: `has an invalid ${CRON_FIELDS[i].name} field '${full[i]}' (${result})`, field: i };
    }
    if (result === 0) emptyFields.push(CRON_FIELDS[i].name);
  }
  return { ok: true, schedule: { kind: 'spec', fieldCount: fields.length as 5 | 6, fields: full, emptyFields } };
}

/**
 * Reads one field at `place` (0 = second .. 5 = day-of-week) as robfig/cron v1.2.0 `getField`
 * does: how many values it selects (0 for one such as `,`, which never fires), or what is wrong
 * with it.
 * @internal
 */
export function parseCronField(field: string, place: number): number | string {
  return parseField(field, CRON_FIELDS[place]);
}

/**
 * The fix for a refused field at `place`: its accepted values, and the 3-letter name when the
 * field holds a longer one (`monday` for `mon`, `January` for `jan`), since robfig matches only
 * the abbreviation (`parseIntOrName` looks the lower-cased text up in the field's names).
 * @internal
 */
export function cronFieldFix(field: string, place: number): string {
  const spec = CRON_FIELDS[place];
  const names = spec.names ?? {};
  const longNames = field
    .split(/[,/-]/)
    .filter((piece) => /^[a-z]{4,}$/i.test(piece) && Object.prototype.hasOwnProperty.call(names, piece.slice(0, 3).toLowerCase()))
    .map((piece) => `'${piece.slice(0, 3).toLowerCase()}' for '${piece}'`);
  return longNames.length > 0
    ? `write ${longNames.join(', ')}: robfig/cron takes only 3-letter names; the field takes ${spec.accepts}`
    : `write ${spec.accepts}`;
}

/** Returns how many values a field selects, or what is wrong with it (robfig `getField`/`getRange`). */
function parseField(field: string, spec: FieldSpec): number | string {
  const values = fieldValues(field, spec);
  return typeof values === 'string' ? values : values.selected.size;
}

/**
 * The values a field selects and whether robfig sets its star bit (a range starting with `*` or
 * `?`, with or without a step: robfig/cron v1.2.0 parser.go getRange), or what is wrong with it.
 */
function fieldValues(field: string, spec: FieldSpec): { selected: Set<number>; star: boolean } | string {
  const selected = new Set<number>();
  let star = false;
  // strings.FieldsFunc drops empty pieces, so '1,,2' is '1,2' and ',' selects nothing.
  for (const expr of field.split(',').filter((r) => r !== '')) {
    const rangeAndStep = expr.split('/');
    const lowAndHigh = rangeAndStep[0].split('-');
    let start: number;
    let end: number;
    if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
      // robfig ignores whatever follows a star's hyphen ('*-3' is '*').
      star = true;
      start = spec.min;
      end = spec.max;
    } else {
      const lo = intOrName(lowAndHigh[0], spec.names);
      if (typeof lo === 'string') return lo;
      start = lo;
      if (lowAndHigh.length === 1) {
        end = start;
      } else if (lowAndHigh.length === 2) {
        const hi = intOrName(lowAndHigh[1], spec.names);
        if (typeof hi === 'string') return hi;
        end = hi;
      } else {
        return `'${expr}' has more than one hyphen`;
      }
    }
    let step = 1;
    if (rangeAndStep.length === 2) {
      const s = cronInt(rangeAndStep[1]);
      if (typeof s === 'string') return s;
      step = s;
      if (lowAndHigh.length === 1) end = spec.max;
    } else if (rangeAndStep.length > 2) {
      return `'${expr}' has more than one slash`;
    }
    if (start < spec.min) return `${start} is below the minimum ${spec.min}`;
    if (end > spec.max) return `${end} is above the maximum ${spec.max}`;
    if (start > end) return `range start ${start} is after its end ${end}`;
    if (step === 0) return 'a step must be a positive number';
    for (let v = start; v <= end; v += step) selected.add(v);
  }
  return { selected, star };
}

/** The six fields of each descriptor but `@every` (robfig/cron v1.2.0 parser.go parseDescriptor). */
const DESCRIPTOR_FIELDS: Readonly<Record<string, readonly string[]>> = {
  '@yearly': ['0', '0', '0', '1', '1', '*'],
  '@annually': ['0', '0', '0', '1', '1', '*'],
  '@monthly': ['0', '0', '0', '1', '*', '*'],
  '@weekly': ['0', '0', '0', '*', '*', '0'],
  '@daily': ['0', '0', '0', '*', '*', '*'],
  '@midnight': ['0', '0', '0', '*', '*', '*'],
  '@hourly': ['0', '0', '*', '*', '*', '*'],
};

const DAY_SECONDS = 86_400;
/**
 * Days from 2001-01-01 on that hold every pattern of weekdays and month lengths: the Gregorian
 * calendar repeats every 28 years between 1901 and 2099, and one more cycle catches a gap that
 * crosses the end of the first.
 */
const CALENDAR_DAYS = 2 * (28 * 365 + 7);

/**
 * The longest time, in seconds, between two consecutive firings of a schedule robfig accepts, in
 * UTC (the operator's time zone in its container): what "the last backup is older than the
 * schedule allows" is measured against. Undefined when the schedule never fires. A day matches as
 * robfig/cron v1.2.0 spec.go dayMatches decides: day-of-month and day-of-week both, when either
 * has the star bit, and either one otherwise. @internal
 */
export function longestCronGapSeconds(schedule: CronSchedule): number | undefined {
  if (schedule.kind === 'every') return schedule.seconds;
  const fields = schedule.kind === 'descriptor' ? DESCRIPTOR_FIELDS[schedule.descriptor] : schedule.fields;
  const parsed = fields.map((f, i) => fieldValues(f, CRON_FIELDS[i]));
  if (parsed.some((p) => typeof p === 'string')) return undefined;
  const [second, minute, hour, dom, month, dow] = parsed as { selected: Set<number>; star: boolean }[];
  // The firings of one matching day, in seconds after midnight: the same set every such day.
  const times: number[] = [];
  for (const h of [...hour.selected].sort((a, b) => a - b)) {
    for (const m of [...minute.selected].sort((a, b) => a - b)) {
      for (const sec of [...second.selected].sort((a, b) => a - b)) times.push(h * 3600 + m * 60 + sec);
    }
  }
  if (times.length === 0) return undefined;
  let longest = 0;
  for (let i = 1; i < times.length; i++) longest = Math.max(longest, times[i] - times[i - 1]);
  const first = times[0];
  const last = times[times.length - 1];
  const start = Date.UTC(2001, 0, 1);
  let previous: number | undefined;
  for (let d = 0; d < CALENDAR_DAYS; d++) {
    const date = new Date(start + d * DAY_SECONDS * 1000);
    if (!month.selected.has(date.getUTCMonth() + 1)) continue;
    const domMatch = dom.selected.has(date.getUTCDate());
    const dowMatch = dow.selected.has(date.getUTCDay());
    if (!(dom.star || dow.star ? domMatch && dowMatch : domMatch || dowMatch)) continue;
    if (previous !== undefined) longest = Math.max(longest, (d - previous) * DAY_SECONDS + first - last);
    previous = d;
  }
  return previous === undefined ? undefined : longest;
}

function intOrName(text: string, names?: Readonly<Record<string, number>>): number | string {
  const named = names?.[text.toLowerCase()];
  if (named !== undefined && Object.prototype.hasOwnProperty.call(names, text.toLowerCase())) return named;
  if (names !== undefined && !/^[+-]?[0-9]+$/.test(text)) {
    return `'${text}' is neither a number nor a 3-letter ${names === MONTH_NAMES ? 'month' : 'day'} name`;
  }
  return cronInt(text);
}

/** Go `strconv.Atoi` (base 10, optional sign, no underscores) followed by robfig's sign check. */
function cronInt(text: string): number | string {
  if (!/^[+-]?[0-9]+$/.test(text)) return `'${text}' is not a number`;
  const value = goAtoi(text);
  if (typeof value !== 'bigint') return `'${text}' is out of range`;
  if (value < 0n) return `'${text}' is negative`;
  // Anything above 2^53 is far outside every field's bounds; keep it large but finite.
  return value > 1_000_000n ? 1_000_000 : Number(value);
}

function parseDescriptor(spec: string): CronParseResult {
  if (CRON_DESCRIPTORS.includes(spec)) return { ok: true, schedule: { kind: 'descriptor', descriptor: spec } };
  const every = '@every ';
  if (spec.startsWith(every)) {
    const requested = spec.slice(every.length);
    const nanos = parseGoDuration(requested);
    if (nanos === undefined) return { ok: false, error: `'@every' takes a Go duration such as '6h' or '1h30m', not '${requested}'` };
    // robfig's Every: less than a second becomes one second; sub-second parts are dropped.
    const seconds = nanos < 1_000_000_000n ? 1 : Number(nanos / 1_000_000_000n);
    return { ok: true, schedule: { kind: 'every', seconds, requested } };
  }
  return { ok: false, error: `is not a descriptor robfig/cron knows (${CRON_DESCRIPTORS.join(', ')}, @every <duration>)` };
}

/**
 * For a 5-field spec: how CloudNativePG reads it (seconds first, no day-of-week) and the 6-field
 * spec the author most likely meant (the Kubernetes reading, minute first, with second 0).
 * @internal
 */
export function fiveFieldReading(fields: readonly string[]): { reading: string; intended: string } {
  const five = fields.slice(0, 5);
  const labelled = five.map((f, i) => `${CRON_FIELDS[i].name} ${f}`).join(', ');
  const summary = summarize(five);
  return {
    reading: summary ? `${summary} (${labelled})` : labelled,
    intended: `0 ${five.join(' ')}`,
  };
}

/** A plain-words summary for the common time-of-day shapes, or undefined. */
function summarize(f: readonly string[]): string | undefined {
  const [s, m, h, dom, month] = f;
  const anyDate = [dom, month].every((x) => x === '*' || x === '?');
  if (!anyDate) return undefined;
  const star = (x: string): boolean => x === '*' || x === '?';
  const num = (x: string): boolean => /^[0-9]+$/.test(x);
  const stepOf = (x: string): string | undefined => /^[*?]\/([0-9]+)$/.exec(x)?.[1];
  if (star(h) && star(m)) {
    if (star(s)) return 'runs every second';
    if (stepOf(s)) return `runs every ${stepOf(s)} seconds`;
    if (num(s)) return `runs every minute at second ${Number(s)}`;
  }
  if (star(h) && num(m) && num(s)) return `runs every hour at minute ${Number(m)}, second ${Number(s)}`;
  if (star(h) && stepOf(m) && num(s)) return `runs every ${stepOf(m)} minutes at second ${Number(s)}`;
  if (stepOf(h) && num(m) && num(s)) return `runs every ${stepOf(h)} hours at minute ${Number(m)}, second ${Number(s)}`;
  if (num(h) && num(m) && num(s)) return `runs daily at ${[h, m, s].map((x) => String(Number(x)).padStart(2, '0')).join(':')}`;
  return undefined;
}
