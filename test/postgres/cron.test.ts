import { validateSchedule } from '../../src/postgres/cron';
import { expectValidationError } from '../util';

const SIX = "use 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'";

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
    '@daily', '@midnight', '@hourly', '@weekly', '@monthly', '@yearly', '@annually',
    '@every 6h', '@every 1h30m', '@every 90s',
  ])('accepts %p', (schedule) => {
    expect(validateSchedule('s', 'schedule', schedule)).toBe(schedule);
  });

  test.each([
    ['0 0 2 * * * *', "s: schedule '0 0 2 * * * *' has 7 fields; " + SIX],
    ['0 0', "s: schedule '0 0' has 2 fields; " + SIX],
    ['', "s: schedule '' must not be empty; " + SIX],
    ['0 60 2 * * *', "s: schedule '0 60 2 * * *' has an invalid minute field '60' (values must be within 0-59); " + SIX],
    ['0 0 24 * * *', "s: schedule '0 0 24 * * *' has an invalid hour field '24' (values must be within 0-23); " + SIX],
    ['0 0 2 0 * *', "s: schedule '0 0 2 0 * *' has an invalid day-of-month field '0' (values must be within 1-31); " + SIX],
    ['0 0 2 * 13 *', "s: schedule '0 0 2 * 13 *' has an invalid month field '13' (values must be within 1-12); " + SIX],
    ['0 0 2 * * 7', "s: schedule '0 0 2 * * 7' has an invalid day-of-week field '7' (values must be within 0-6); " + SIX],
    ['0 0 5-2 * * *', "s: schedule '0 0 5-2 * * *' has an invalid hour field '5-2' (range start 5 is after its end 2); " + SIX],
    ['0 0 */0 * * *', "s: schedule '0 0 */0 * * *' has an invalid hour field '*/0' (step '0' must be a positive number); " + SIX],
    ['0 0 2 * * L', "s: schedule '0 0 2 * * L' has an invalid day-of-week field 'L' ('L' is not a number); " + SIX],
    ['0 0 1/2/3 * * *', "s: schedule '0 0 1/2/3 * * *' has an invalid hour field '1/2/3' (more than one step); " + SIX],
    ['0 0 1-2-3 * * *', "s: schedule '0 0 1-2-3 * * *' has an invalid hour field '1-2-3' (a range has more than two ends); " + SIX],
    ['@nightly', "s: schedule '@nightly' is not a known descriptor; use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly or '@every <duration>' such as '@every 6h'"],
    ['@every 6 hours', "s: schedule '@every 6 hours' is not a known descriptor; use one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly or '@every <duration>' such as '@every 6h'"],
  ])('rejects %p', (schedule, message) => {
    expectValidationError(() => validateSchedule('s', 'schedule', schedule), message);
  });

  test('a 5-field cron gets the 6-field form', () => {
    expectValidationError(() => validateSchedule('s', 'schedule', '30 1 * * 0'),
      "s: schedule '30 1 * * 0' has 5 fields; CloudNativePG schedules have 6 with seconds first "
      + "(second minute hour day-of-month month day-of-week) and would read this one shifted by a field; write '0 30 1 * * 0'");
  });
});
