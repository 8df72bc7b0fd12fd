import { isLsn, isTargetTime } from '../../../src/checks/admission/machinery';

describe('isLsn (machinery LSN.Parse)', () => {
  test.each(['0/3000000', '1/1', 'FFFFFFFF/FFFFFFFF', 'ffffffffffffffff/0', '00000000000000000000/1'])('%s is an LSN', (lsn) => {
    expect(isLsn(lsn)).toBe(true);
  });
  test.each(['', '3000000', '0/', '/1', '0/1/2', '0x0/1', 'g/1', '10000000000000000/0', '28734982739847293874823974928738423/987429837498273498723984723'])(
    '%j is not',
    (lsn) => {
      expect(isLsn(lsn)).toBe(false);
    },
  );
});

describe('isTargetTime (machinery ParseTargetTime: lib/pq, then Go time.Parse)', () => {
  test.each([
    // lib/pq's timestamp format
    '2021-09-01 10:22:47',
    '2021-09-01 10:22:47.000000+06',
    '2021-09-01 10:22:47.000000+06:00',
    '2021-09-01 10:22:47+05:30:15',
    '2021-09-01 10:22:47Z',
    '2021-09-01',
    '0044-03-15 12:00:00 BC',
    // lib/pq never range-checks: time.Date normalises month 13 and hour 25
    '2021-13-45 25:61:61',
    // Go's RFC 3339 layouts and the one without a zone
    '2021-09-01T10:22:47Z',
    '2021-09-01T10:22:47+02:00',
    '2021-09-01T10:22:47.123456Z',
    '2021-09-01T10:22:47,5Z',
    '2021-09-01T10:22:47.123456789-07:00',
    '2021-09-01T10:22:47',
    '2021-09-01T1:22:47',
    '2024-02-29T00:00:00Z',
    '2021-09-01T10:22:47+24:00',
  ])('%s is a target time', (time) => {
    expect(isTargetTime(time)).toBe(true);
  });

  test.each([
    '',
    'yesterday noon',
    'now',
    '2021-09-01 10:22:47.000000 +06:00',
    '2021-09-01 10:22',
    '2021/09/01 10:22:47',
    '2021-09-01T10:22:47 Z',
    '2021-13-01T10:22:47Z',
    '2021-02-29T10:22:47Z',
    '2021-09-01T24:00:00Z',
    '2021-09-01T10:60:00Z',
    '2021-09-01T10:22:60Z',
    '2021-09-01T10:22:47+25:00',
    '2021-09-01T10:22:47+0200',
    '21-09-01T10:22:47Z',
    '2021-09-01T10:22:47.-12345Z',
  ])('%j is not', (time) => {
    expect(isTargetTime(time)).toBe(false);
  });
});
