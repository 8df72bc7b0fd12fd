import { imageReference, versionFromTag } from '../../../src/checks/admission/cluster-reading';
import { isLsn, isTargetTime } from '../../../src/checks/admission/machinery';

const DIGEST = 'cff94de382ca538861622bbe84cfe03f44f307a9846a5c5eda672cf4dc692866';

describe('imageReference (machinery reference.New)', () => {
  test.each<[string, string, string, string]>([
    ['postgres', 'docker.io/library/postgres', 'latest', ''],
    ['postgres:16', 'docker.io/library/postgres', '16', ''],
    ['bitnami/postgresql:16.2.0', 'docker.io/bitnami/postgresql', '16.2.0', ''],
    ['ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie', 'ghcr.io/cloudnative-pg/postgresql', '18.4-system-trixie', ''],
    ['localhost:5000/postgres', 'localhost:5000/postgres', 'latest', ''],
    ['localhost:5000/postgres:17', 'localhost:5000/postgres', '17', ''],
    [`postgres@sha256:${DIGEST}`, 'docker.io/library/postgres', '', DIGEST],
    [`postgres:17.5@sha256:${DIGEST}`, 'docker.io/library/postgres', '17.5', DIGEST],
    // Not a sha256 digest: the part after ':' is read as the tag.
    ['postgres@sha512:abc', 'docker.io/library/postgres@sha512', 'abc', ''],
  ])('%s', (image, name, tag, digest) => {
    expect(imageReference(image)).toEqual({ name, tag, digest });
  });
});

describe('versionFromTag (machinery version.FromTag)', () => {
  test.each<[string, number, number]>([
    ['16', 16, 0],
    ['16.2', 16, 2],
    ['14.4-1', 14, 4],
    ['13.3.2.1-1', 13, 3],
    ['17beta1', 17, 0],
    ['18rc1', 18, 0],
    ['18.4-system-trixie', 18, 4],
  ])('%s is %d.%d', (tag, major, minor) => {
    expect(versionFromTag(tag)).toEqual({ major, minor });
  });

  test.each(['latest', 'bookworm', 'test_12', 'v16', '16.-bookworm', '99999999999999999999'])('%s is no version', (tag) => {
    expect(versionFromTag(tag)).toBeUndefined();
  });
});

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
