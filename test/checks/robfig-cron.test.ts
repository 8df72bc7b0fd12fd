import { fiveFieldReading, longestCronGapSeconds, parseCronSchedule } from '../../src/checks/robfig-cron';
import { parseGoDuration } from '../../src/manifests/duration';

// The expected outcomes follow robfig/cron v1.2.0 parser.go (Parse with Second | Minute | Hour |
// Dom | Month | DowOptional | Descriptor) and Go's time.ParseDuration.
describe('parseCronSchedule', () => {
  test.each([
    '0 0 2 * * *',
    '*/30 * * * * *',
    '0 15 10 ? * mon-fri',
    '0 0 0 1 JAN,jul *',
    '0 0 1-5/2 1,15 * SUN',
    '  0 0 2 * * *  ',
    '0\t0\n2 * * *',
    '0 0 2 31 12 6',
    '5/15 0 0 * * *',
    '+5 0 0 * * *',
    '05 00 02 * * *',
    '*-3 * * * * *',
    '0 0 1,,2 * * *',
    '0 0 0 * * sun-sat/2',
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
    '@every 1.5h',
    '@every .5s',
    '@every 0',
    '@every 300ms',
    '@every 2\u00b5s',
  ])('accepts %p', (spec) => {
    expect(parseCronSchedule(spec).ok).toBe(true);
  });

  test.each([
    ['', 'is empty'],
    ['   ', 'has 0 fields; robfig/cron takes 5 or 6, seconds first'],
    ['0 0 2 * * * *', 'has 7 fields; robfig/cron takes 5 or 6, seconds first'],
    ['30 1 * * 0', "has an invalid month field '0' (0 is below the minimum 1)"],
    ['0 2 * *', 'has 4 fields; robfig/cron takes 5 or 6, seconds first'],
    ['0 60 2 * * *', "has an invalid minute field '60' (60 is above the maximum 59)"],
    ['0 0 24 * * *', "has an invalid hour field '24' (24 is above the maximum 23)"],
    ['0 0 2 0 * *', "has an invalid day-of-month field '0' (0 is below the minimum 1)"],
    ['0 0 2 * 13 *', "has an invalid month field '13' (13 is above the maximum 12)"],
    ['0 0 2 * * 7', "has an invalid day-of-week field '7' (7 is above the maximum 6)"],
    ['0 0 5-2 * * *', "has an invalid hour field '5-2' (range start 5 is after its end 2)"],
    ['0 0 */0 * * *', "has an invalid hour field '*/0' (a step must be a positive number)"],
    ['0 0 */-1 * * *', "has an invalid hour field '*/-1' ('-1' is negative)"],
    ['0 0 */mon * * *', "has an invalid hour field '*/mon' ('mon' is not a number)"],
    ['0 0 2 * * L', "has an invalid day-of-week field 'L' ('L' is neither a number nor a 3-letter day name)"],
    ['0 0 2 * jan-sun *', "has an invalid month field 'jan-sun' ('sun' is neither a number nor a 3-letter month name)"],
    ['0 0 2 * * monday', "has an invalid day-of-week field 'monday' ('monday' is neither a number nor a 3-letter day name)"],
    ['0 0 1/2/3 * * *', "has an invalid hour field '1/2/3' ('1/2/3' has more than one slash)"],
    ['0 0 1-2-3 * * *', "has an invalid hour field '1-2-3' ('1-2-3' has more than one hyphen)"],
    ['0 0 1_0 * * *', "has an invalid hour field '1_0' ('1_0' is not a number)"],
    [' @daily', 'has 1 fields; robfig/cron takes 5 or 6, seconds first'],
    ['@daily ', 'is not a descriptor robfig/cron knows (@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly, @every <duration>)'],
    ['@nightly', 'is not a descriptor robfig/cron knows (@yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly, @every <duration>)'],
    ['@every 6 hours', "'@every' takes a Go duration such as '6h' or '1h30m', not '6 hours'"],
    ['@every  1h', "'@every' takes a Go duration such as '6h' or '1h30m', not ' 1h'"],
    ['@every 1d', "'@every' takes a Go duration such as '6h' or '1h30m', not '1d'"],
  ])('refuses %p', (spec, error) => {
    const parsed = parseCronSchedule(spec);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? undefined : parsed.error).toBe(error);
  });

  test('a refused field is named by its place, seconds first', () => {
    expect(parseCronSchedule('0 0 2 * * monday')).toMatchObject({ ok: false, field: 5 });
    expect(parseCronSchedule('0 60 2 * * *')).toMatchObject({ ok: false, field: 1 });
    expect(parseCronSchedule('0 0 2 * * * *')).not.toHaveProperty('field');
  });

  test('a 5-field spec gets the default day-of-week and is read seconds first', () => {
    expect(parseCronSchedule('0 2 * * *')).toEqual({
      ok: true,
      schedule: { kind: 'spec', fieldCount: 5, fields: ['0', '2', '*', '*', '*', '*'], emptyFields: [] },
    });
  });

  test('a field that selects nothing is accepted but reported as empty', () => {
    const r = parseCronSchedule('0 0 , * * *');
    expect(r).toEqual({ ok: true, schedule: { kind: 'spec', fieldCount: 6, fields: ['0', '0', ',', '*', '*', '*'], emptyFields: ['hour'] } });
  });

  test('@every rounds like robfig Every: under a second becomes one second, fractions are dropped', () => {
    expect(parseCronSchedule('@every 300ms')).toEqual({ ok: true, schedule: { kind: 'every', seconds: 1, requested: '300ms' } });
    expect(parseCronSchedule('@every 1.5s')).toEqual({ ok: true, schedule: { kind: 'every', seconds: 1, requested: '1.5s' } });
    expect(parseCronSchedule('@every -1h')).toEqual({ ok: true, schedule: { kind: 'every', seconds: 1, requested: '-1h' } });
    expect(parseCronSchedule('@every 1h30m')).toEqual({ ok: true, schedule: { kind: 'every', seconds: 5400, requested: '1h30m' } });
  });
});

describe('fiveFieldReading', () => {
  test.each([
    ['0 2 * * *', 'runs every hour at minute 2, second 0 (second 0, minute 2, hour *, day-of-month *, month *)', '0 0 2 * * *'],
    ['*/5 * * * *', 'runs every 5 seconds (second */5, minute *, hour *, day-of-month *, month *)', '0 */5 * * * *'],
    ['30 1 * * *', 'runs every hour at minute 1, second 30 (second 30, minute 1, hour *, day-of-month *, month *)', '0 30 1 * * *'],
    ['0 0 * * *', 'runs every hour at minute 0, second 0 (second 0, minute 0, hour *, day-of-month *, month *)', '0 0 0 * * *'],
    ['* * * * *', 'runs every second (second *, minute *, hour *, day-of-month *, month *)', '0 * * * * *'],
    ['0 */15 * * *', 'runs every 15 minutes at second 0 (second 0, minute */15, hour *, day-of-month *, month *)', '0 0 */15 * * *'],
    ['0 0 2 * *', 'runs daily at 02:00:00 (second 0, minute 0, hour 2, day-of-month *, month *)', '0 0 0 2 * *'],
    ['30 1 * * 6', 'second 30, minute 1, hour *, day-of-month *, month 6', '0 30 1 * * 6'],
  ])('%p', (spec, reading, intended) => {
    const r = parseCronSchedule(spec);
    if (!r.ok || r.schedule.kind !== 'spec') throw new Error(`expected a spec for ${spec}`);
    expect(fiveFieldReading(r.schedule.fields)).toEqual({ reading, intended });
  });
});

describe('parseGoDuration', () => {
  test.each([
    ['0', 0n],
    ['1h', 3_600_000_000_000n],
    ['1h30m', 5_400_000_000_000n],
    ['1.5h', 5_400_000_000_000n],
    ['.5s', 500_000_000n],
    ['1.s', 1_000_000_000n],
    ['+2m', 120_000_000_000n],
    ['-1s', -1_000_000_000n],
    ['10us', 10_000n],
    ['10\u03bcs', 10_000n],
    ['3ns', 3n],
    ['2562047h', 2562047n * 3_600_000_000_000n],
  ])('%p', (text, nanos) => {
    expect(parseGoDuration(text)).toBe(nanos);
  });

  test.each(['', '1', '1d', '.s', 'h', '1h ', ' 1h', '1 h', '-', '2562048h', '1h2'])('refuses %p', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});

describe('longestCronGapSeconds', () => {
  const gap = (spec: string) => {
    const parsed = parseCronSchedule(spec);
    if (!parsed.ok) throw new Error(parsed.error);
    return longestCronGapSeconds(parsed.schedule);
  };
  const HOUR = 3600;
  const DAY = 24 * HOUR;

  test('measures descriptors and @every as robfig reads them', () => {
    expect(gap('@hourly')).toBe(HOUR);
    expect(gap('@daily')).toBe(DAY);
    expect(gap('@midnight')).toBe(DAY);
    expect(gap('@weekly')).toBe(7 * DAY);
    expect(gap('@monthly')).toBe(31 * DAY);
    expect(gap('@yearly')).toBe(366 * DAY);
    expect(gap('@every 90m')).toBe(90 * 60);
    expect(gap('@every 100ms')).toBe(1);
  });

  test('takes the longest interval, across days and within one', () => {
    expect(gap('0 0 2 * * *')).toBe(DAY);
    expect(gap('0 0 */6 * * *')).toBe(6 * HOUR);
    // 02:00 and 04:00: 2 h apart, then 22 h to the next day's first
    expect(gap('0 0 2,4 * * *')).toBe(22 * HOUR);
    // Monday to Friday: Friday 02:30 to Monday 02:30
    expect(gap('0 30 2 * * 1-5')).toBe(3 * DAY);
    expect(gap('* * * * * *')).toBe(1);
    // five fields: seconds first, day-of-week `*`; every minute of hour 0 at second 0
    expect(gap('0 * 0 * *')).toBe(DAY - 59 * 60);
  });

  test('reads the day fields as robfig does: both when one is a star, either otherwise', () => {
    // the 1st and Mondays (neither field a star): at most a week apart
    expect(gap('0 0 0 1 * 1')).toBe(7 * DAY);
    // the 13th that is also any weekday (day-of-week a star): monthly, up to 31 days
    expect(gap('0 0 0 13 * *')).toBe(31 * DAY);
    // February 29th: leap years only
    expect(gap('0 0 0 29 2 *')).toBe((4 * 365 + 1) * DAY);
    expect(gap('0 0 0 31 * *')).toBe(61 * DAY);
  });

  test('is undefined for a schedule that never fires', () => {
    expect(gap('0 0 0 30 2 *')).toBeUndefined();
    expect(gap(', 0 0 * * *')).toBeUndefined();
  });
});
