import { BackupSchedule } from '../../src/postgres';
import { expectValidationError } from '../util';

const js = (v: unknown): any => v;

describe('BackupSchedule', () => {
  test('daily() writes the 6-field form, seconds first', () => {
    expect(BackupSchedule.daily(2).expressionString).toBe('0 0 2 * * *');
    expect(BackupSchedule.daily(23, 45).expressionString).toBe('0 45 23 * * *');
    expect(BackupSchedule.daily(0).expressionString).toBe('0 0 0 * * *');
  });

  test('cron() fills seconds and minutes with 0 and the rest with *', () => {
    expect(BackupSchedule.cron().expressionString).toBe('0 0 * * * *');
    expect(BackupSchedule.cron({ hour: '2' }).expressionString).toBe('0 0 2 * * *');
    expect(BackupSchedule.cron({ second: '30', minute: '*/15', hour: '1-5', day: '?', month: 'jan,jul', weekDay: 'mon-fri' }).expressionString).toBe(
      '30 */15 1-5 ? jan,jul mon-fri',
    );
  });

  test('expression() keeps 6-field crons and descriptors as written', () => {
    for (const e of ['0 0 2 * * *', '@daily', '@every 6h', '0 15 10 ? * mon-fri']) expect(BackupSchedule.expression(e).expressionString).toBe(e);
  });

  test('only expression() can hold the 5-field trap, and refuses it with the 6-field form', () => {
    expectValidationError(
      () => BackupSchedule.expression('0 2 * * *'),
      "BackupSchedule.expression: expression '0 2 * * *' has 5 fields, which CloudNativePG reads seconds first without a day-of-week: " +
        'it runs every hour at minute 2, second 0 (second 0, minute 2, hour *, day-of-month *, month *); ' +
        "write the 6-field form '0 0 2 * * *' (second minute hour day-of-month month day-of-week)",
    );
  });

  test('cron() fields are checked by the robfig/cron parser', () => {
    expectValidationError(
      () => BackupSchedule.cron({ minute: '60' }),
      "BackupSchedule.cron: minute '60' is not a value robfig/cron accepts in the minute field (60 is above the maximum 59); " +
        "write a minute 0-59, '*', a range '0-29', a list '0,30' or a step '*/15'",
    );
    expectValidationError(
      () => BackupSchedule.cron({ hour: '0 2' }),
      "BackupSchedule.cron: hour '0 2' is not one cron field (it is empty or holds spaces); write one field, e.g. '2', '*/15', '1-5' or 'mon-fri'",
    );
    expectValidationError(
      () => BackupSchedule.cron(js({ hour: 2 })),
      "BackupSchedule.cron: hour 2 must be a string, not a number; write one field, e.g. '2', '*/15', '1-5' or 'mon-fri'",
    );
    expectValidationError(
      () => BackupSchedule.cron(js({ hours: '2' })),
      "BackupSchedule.cron: options.hours '2' is not a declared key of options; did you mean 'hour'?",
    );
  });

  test('a refused cron() option is named, with its value and the values it accepts', () => {
    const weekDays =
      "a day of the week 0-6 (0 is Sunday) or a 3-letter name sun..sat (any case), '*' or '?', a range 'mon-fri', a list 'sat,sun' or a step '*/2'";
    expectValidationError(
      () => BackupSchedule.cron({ hour: '2', weekDay: 'monday' }),
      "BackupSchedule.cron: weekDay 'monday' is not a value robfig/cron accepts in the day-of-week field ('monday' is neither a number nor a 3-letter day name); " +
        `write 'mon' for 'monday': robfig/cron takes only 3-letter names; the field takes ${weekDays}`,
    );
    expectValidationError(
      () => BackupSchedule.cron({ weekDay: 'Mon-Friday' }),
      "BackupSchedule.cron: weekDay 'Mon-Friday' is not a value robfig/cron accepts in the day-of-week field ('Friday' is neither a number nor a 3-letter day name); " +
        `write 'fri' for 'Friday': robfig/cron takes only 3-letter names; the field takes ${weekDays}`,
    );
    expectValidationError(
      () => BackupSchedule.cron({ weekDay: '7' }),
      `BackupSchedule.cron: weekDay '7' is not a value robfig/cron accepts in the day-of-week field (7 is above the maximum 6); write ${weekDays}`,
    );
    expectValidationError(
      () => BackupSchedule.cron({ month: 'January' }),
      "BackupSchedule.cron: month 'January' is not a value robfig/cron accepts in the month field ('January' is neither a number nor a 3-letter month name); " +
        "write 'jan' for 'January': robfig/cron takes only 3-letter names; the field takes a month 1-12 or a 3-letter name jan..dec (any case), '*', a range 'jan-mar', a list 'jan,jul' or a step '*/3'",
    );
    expectValidationError(
      () => BackupSchedule.cron({ month: 'sun' }),
      "BackupSchedule.cron: month 'sun' is not a value robfig/cron accepts in the month field ('sun' is neither a number nor a 3-letter month name); " +
        "write a month 1-12 or a 3-letter name jan..dec (any case), '*', a range 'jan-mar', a list 'jan,jul' or a step '*/3'",
    );
    expectValidationError(
      () => BackupSchedule.cron({ second: '75' }),
      "BackupSchedule.cron: second '75' is not a value robfig/cron accepts in the second field (75 is above the maximum 59); " +
        "write a second 0-59, '*', a range '0-29', a list '0,30' or a step '*/15'",
    );
    expectValidationError(
      () => BackupSchedule.cron({ hour: '*/0' }),
      "BackupSchedule.cron: hour '*/0' is not a value robfig/cron accepts in the hour field (a step must be a positive number); " +
        "write an hour 0-23, '*', a range '1-5', a list '2,14' or a step '*/6'",
    );
    expectValidationError(
      () => BackupSchedule.cron({ day: '0' }),
      "BackupSchedule.cron: day '0' is not a value robfig/cron accepts in the day-of-month field (0 is below the minimum 1); " +
        "write a day of the month 1-31, '*' or '?', a range '1-7', a list '1,15' or a step '*/2'",
    );
    expectValidationError(
      () => BackupSchedule.cron({ day: ',' }),
      "BackupSchedule.cron: day ',' selects no value, so the backup would never run; write a day of the month 1-31, '*' or '?', a range '1-7', a list '1,15' or a step '*/2'",
    );
  });

  test('cron() takes what robfig/cron takes: names in any case, ranges, lists and steps', () => {
    expect(BackupSchedule.cron({ hour: '2', weekDay: 'MON' }).expressionString).toBe('0 0 2 * * MON');
    expect(BackupSchedule.cron({ weekDay: 'mon-fri' }).expressionString).toBe('0 0 * * * mon-fri');
    expect(BackupSchedule.cron({ weekDay: '*/2' }).expressionString).toBe('0 0 * * * */2');
    expect(BackupSchedule.cron({ weekDay: 'Sat,sun', month: 'JAN-mar' }).expressionString).toBe('0 0 * * JAN-mar Sat,sun');
    expect(BackupSchedule.cron({ weekDay: '0', day: '?', minute: '0-29/10', second: '59' }).expressionString).toBe('59 0-29/10 * ? * 0');
    expect(BackupSchedule.cron({ month: '12', day: '31', hour: '23' }).expressionString).toBe('0 0 23 31 12 *');
  });

  test('daily() takes whole hours and minutes', () => {
    expectValidationError(() => BackupSchedule.daily(24), 'BackupSchedule.daily: hour 24 is not a whole number from 0 to 23; pass e.g. daily(2)');
    expectValidationError(() => BackupSchedule.daily(2, 7.5), 'BackupSchedule.daily: minute 7.5 is not a whole number from 0 to 59; pass e.g. daily(2, 30)');
    expectValidationError(() => BackupSchedule.daily(js('2')), "BackupSchedule.daily: hour '2' is not a whole number from 0 to 23; pass e.g. daily(2)");
  });

  test('expression() from JavaScript must be a string', () => {
    expectValidationError(
      () => BackupSchedule.expression(js(undefined)),
      "BackupSchedule.expression: expression is missing: it must be a string; use 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'",
    );
  });
});
