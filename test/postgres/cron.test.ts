import { validateSchedule } from '../../src/postgres/cron';
import { expectValidationError } from '../util';

const SIX = "use 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'";
const MINUTES = "write a minute 0-59, '*', a range '0-29', a list '0,30' or a step '*/15'";
const WEEK_DAYS =
  "write a day of the week 0-6 (0 is Sunday) or a 3-letter name sun..sat (any case), '*' or '?', a range 'mon-fri', a list 'sat,sun' or a step '*/2'";
const DESCRIPTORS = "use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly or '@every <duration>' such as '@every 6h'";

describe('validateSchedule', () => {
  test.each([
    '0 0 2 * * *',
    '0 0 0 * * 0',
    '*/30 * * * * *',
    '0 15 10 ? * mon-fri',
    '0 0 0 1 jan,jul *',
    '0 0 1-5/2 1,15 * SUN',
    '  0 0 2 * * *  ',
    '0 0 2 31 12 6',
    '5/15 0 0 * * *',
    '@daily',
    '@midnight',
    '@hourly',
    '@weekly',
    '@monthly',
    '@yearly',
    '@annually',
    '@every 6h',
    '@every 1h30m',
    '@every 90s',
  ])('accepts %p', (schedule) => {
    expect(validateSchedule('s', 'schedule', schedule)).toBe(schedule);
  });

  test.each([
    ['0 0 2 * * * *', "s: schedule '0 0 2 * * * *' has 7 fields; robfig/cron takes 5 or 6, seconds first; " + SIX],
    ['0 0', "s: schedule '0 0' has 2 fields; robfig/cron takes 5 or 6, seconds first; " + SIX],
    ['', "s: schedule '' is empty; " + SIX],
    ['0 60 2 * * *', "s: schedule '0 60 2 * * *' has an invalid minute field '60' (60 is above the maximum 59); " + MINUTES],
    ['0 0 2 * * 7', "s: schedule '0 0 2 * * 7' has an invalid day-of-week field '7' (7 is above the maximum 6); " + WEEK_DAYS],
    [
      '0 0 2 * * monday',
      "s: schedule '0 0 2 * * monday' has an invalid day-of-week field 'monday' ('monday' is neither a number nor a 3-letter day name); " +
        "write 'mon' for 'monday': robfig/cron takes only 3-letter names; the field takes " +
        WEEK_DAYS.slice('write '.length),
    ],
    ['0 0 , * * *', "s: schedule '0 0 , * * *' selects no value in its hour field, so it never runs; " + SIX],
    [
      '@nightly',
      "s: schedule '@nightly' is not a descriptor robfig/cron knows (@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly, @every <duration>); " +
        DESCRIPTORS,
    ],
    ['@every 6 hours', "s: schedule '@every 6 hours' '@every' takes a Go duration such as '6h' or '1h30m', not '6 hours'; " + DESCRIPTORS],
  ])('rejects %p', (schedule, message) => {
    expectValidationError(() => validateSchedule('s', 'schedule', schedule), message);
  });

  test.each([
    [
      '0 2 * * *',
      "s: schedule '0 2 * * *' has 5 fields, which CloudNativePG reads seconds first without a day-of-week: it runs every hour at minute 2, second 0 (second 0, minute 2, hour *, day-of-month *, month *); write the 6-field form '0 0 2 * * *' (second minute hour day-of-month month day-of-week)",
    ],
    [
      '*/5 * * * *',
      "s: schedule '*/5 * * * *' has 5 fields, which CloudNativePG reads seconds first without a day-of-week: it runs every 5 seconds (second */5, minute *, hour *, day-of-month *, month *); write the 6-field form '0 */5 * * * *' (second minute hour day-of-month month day-of-week)",
    ],
    [
      '30 1 * * 0',
      "s: schedule '30 1 * * 0' has an invalid month field '0' (0 is below the minimum 1): 5 fields are read seconds first (second minute hour day-of-month month); write the 6-field form '0 30 1 * * 0' (second minute hour day-of-month month day-of-week)",
    ],
  ])('a 5-field cron %p is refused with its reading and the 6-field form', (schedule, message) => {
    expectValidationError(() => validateSchedule('s', 'schedule', schedule), message);
  });
});
