import { ErrorScope, invalid } from '../common/errors';
import { typeName } from '../common/validate';

/**
 * The fields of a CloudNativePG schedule, in order. CloudNativePG parses `ScheduledBackup`
 * schedules with robfig/cron v1, whose `Parse` takes seconds first.
 */
const FIELDS: Array<{ name: string; min: number; max: number; names?: string[] }> = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  { name: 'day-of-week', min: 0, max: 6, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const DESCRIPTORS = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/** Go `time.ParseDuration` syntax, as `@every` takes it, e.g. `1h30m`. */
const GO_DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

const SIX_FIELDS = 'use 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. \'0 0 2 * * *\', or a descriptor such as \'@daily\'';

/**
 * Checks a `ScheduledBackup` schedule the way CloudNativePG reads it: 6 fields with seconds
 * first, or a robfig/cron descriptor (`@daily`, `@every 1h`).
 *
 * A 5-field Kubernetes-style cron is rejected on purpose: robfig/cron v1 accepts it, but as
 * `second minute hour day-of-month month`, so `0 2 * * *` would back up at minute 2 of every
 * hour instead of at 02:00 (the upstream webhook only warns).
 * @internal
 */
export function validateSchedule(scope: ErrorScope, prop: string, value: unknown): string {
  if (typeof value !== 'string') {
    return invalid(scope, prop, value, `must be a string, not ${typeName(value)}`, SIX_FIELDS);
  }
  const schedule = value.trim();
  if (schedule === '') invalid(scope, prop, value, 'must not be empty', SIX_FIELDS);
  if (schedule.startsWith('@')) {
    if (DESCRIPTORS.includes(schedule)) return value;
    const every = /^@every\s+(\S+)$/.exec(schedule);
    if (every && GO_DURATION.test(every[1])) return value;
    return invalid(scope, prop, value, 'is not a known descriptor',
      `use one of ${DESCRIPTORS.join(', ')} or '@every <duration>' such as '@every 6h'`);
  }
  const fields = schedule.split(/\s+/);
  if (fields.length === 5) {
    invalid(scope, prop, value,
      'has 5 fields; CloudNativePG schedules have 6 with seconds first (second minute hour day-of-month month day-of-week) and would read this one shifted by a field',
      `write '0 ${fields.join(' ')}'`);
  }
  if (fields.length !== 6) {
    invalid(scope, prop, value, `has ${fields.length} fields`, SIX_FIELDS);
  }
  fields.forEach((field, i) => {
    const problem = checkField(field, FIELDS[i]);
    if (problem) {
      invalid(scope, prop, value, `has an invalid ${FIELDS[i].name} field '${field}' (${problem})`, SIX_FIELDS);
    }
  });
  return value;
}

/** Returns what is wrong with one field, or undefined. Mirrors robfig/cron v1 `getRange`. */
function checkField(field: string, spec: { min: number; max: number; names?: string[] }): string | undefined {
  const bounds = `${spec.min}-${spec.max}`;
  for (const part of field.split(',')) {
    const [range, step, extra] = part.split('/');
    if (extra !== undefined) return 'more than one step';
    let start: number;
    let end: number;
    if (range === '*' || range === '?') {
      start = spec.min;
      end = spec.max;
    } else {
      const [lo, hi, more] = range.split('-');
      if (more !== undefined) return 'a range has more than two ends';
      const a = parseValue(lo, spec.names);
      if (a === undefined) return `'${lo}' is not a number`;
      start = a;
      end = a;
      if (hi !== undefined) {
        const b = parseValue(hi, spec.names);
        if (b === undefined) return `'${hi}' is not a number`;
        end = b;
      } else if (step !== undefined) {
        end = spec.max;
      }
    }
    if (start < spec.min || end > spec.max) return `values must be within ${bounds}`;
    if (start > end) return `range start ${start} is after its end ${end}`;
    if (step !== undefined) {
      const s = parseValue(step);
      if (s === undefined || s === 0) return `step '${step}' must be a positive number`;
    }
  }
  return undefined;
}

function parseValue(text: string, names?: string[]): number | undefined {
  if (/^[0-9]+$/.test(text)) return Number(text);
  const index = names?.indexOf(text.toLowerCase()) ?? -1;
  if (index < 0) return undefined;
  // Month names count from 1 (jan = 1), weekday names from 0 (sun = 0).
  return names!.length === 12 ? index + 1 : index;
}
