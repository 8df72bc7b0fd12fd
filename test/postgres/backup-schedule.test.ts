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
      "BackupSchedule.cron: options '0 60 * * * *' has an invalid minute field '60' (60 is above the maximum 59); " +
        "use 6 fields, seconds first (second minute hour day-of-month month day-of-week), e.g. '0 0 2 * * *', or a descriptor such as '@daily'",
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
