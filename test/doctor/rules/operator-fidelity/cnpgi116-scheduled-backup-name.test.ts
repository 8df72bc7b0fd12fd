import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule } from '../../helpers';

/** The good fixture with its ScheduledBackup renamed. */
function renamed(name: string) {
  const docs = fixture('good-plugin.yaml');
  const scheduled: Doc = doc(docs, 'ScheduledBackup', 'pg-daily');
  scheduled.metadata.name = name;
  return analyzeManifests(docs).findings;
}

/** CNPGI116's findings on the good fixture with its ScheduledBackup renamed. */
function named(name: string) {
  return ofRule(renamed(name), 'CNPGI116');
}

/** What the API server says of a name that is no DNS subdomain, and of the label. */
const REFUSED =
  "the API server refuses the ScheduledBackup itself, whose name must be a lowercase RFC 1123 subdomain (a-z, 0-9, '-' and '.', starting and ending with a letter or digit); nor could the cnpg.io/scheduled-backup label CloudNativePG puts on every Backup it creates hold it";
const CHARS_FIX = "use a name of at most 63 lower-case letters, digits, '-' and '.', starting and ending with a letter or digit";

describe('CNPGI116 scheduled-backup-name', () => {
  test('a name of 64 characters: every Backup it creates would be refused', () => {
    const name = `pg-daily-${'x'.repeat(55)}`;
    expect(name).toHaveLength(64);
    expect(named(name).map((f) => [f.severity, f.object, f.path, f.message, f.fix])).toEqual([
      [
        'error',
        `ScheduledBackup/app/${name}`,
        'metadata.name',
        'is 64 characters long, but CloudNativePG labels every Backup it creates with it (cnpg.io/scheduled-backup), and a label value holds at most 63 characters: the API server refuses each Backup and no scheduled backup is taken',
        `use a name of at most 63 characters, e.g. '${name.slice(0, 63)}'`,
      ],
    ]);
  });

  test('the suggested name is a valid one: a trailing dash or dot is dropped', () => {
    const name = `${'a'.repeat(62)}-b`;
    expect(named(name)[0].fix).toBe(`use a name of at most 63 characters, e.g. '${'a'.repeat(62)}'`);
    expect(named(`${'a'.repeat(62)}.bb`)[0].fix).toBe(`use a name of at most 63 characters, e.g. '${'a'.repeat(62)}'`);
  });

  test('a short name with characters no label value holds: the characters are named, not the length, in one finding', () => {
    // 12 characters (an unrendered Flux variable, say): the ScheduledBackup's own name is refused
    expect(renamed('$(APP)-daily').map((f) => [f.ruleId, f.severity, f.path, f.message, f.fix])).toEqual([
      [
        'CNPGI116',
        'error',
        'metadata.name',
        `holds '$', '(', ')', which no label value may hold (letters, digits, '-', '_' and '.'): ${REFUSED}`,
        `${CHARS_FIX}, e.g. 'app-daily'`,
      ],
    ]);
    expect(named('pg daily').map((f) => [f.message, f.fix])).toEqual([
      [`holds ' ', which no label value may hold (letters, digits, '-', '_' and '.'): ${REFUSED}`, `${CHARS_FIX}, e.g. 'pg-daily'`],
    ]);
    // the characters are allowed, but not at an edge
    expect(named('-daily.').map((f) => [f.message, f.fix])).toEqual([
      [`starts with '-' and ends with '.', where a label value has a letter or digit: ${REFUSED}`, `${CHARS_FIX}, e.g. 'daily'`],
    ]);
  });

  test('too long and wrong characters: both are named', () => {
    const name = `$(APP)-${'x'.repeat(60)}`;
    expect(named(name).map((f) => f.message)).toEqual([
      `is ${name.length} characters long (a label value holds at most 63) and holds '$', '(', ')', which no label value may hold (letters, digits, '-', '_' and '.'): ${REFUSED}`,
    ]);
  });

  test('near misses pass: 63 characters, dots and dashes within, a Backup (not scheduled) with a long name', () => {
    expect(named('z'.repeat(63))).toEqual([]);
    expect(named(`pg.daily-${'x'.repeat(54)}`)).toEqual([]);
    expect(named('pg-daily')).toEqual([]);
    // a label value that is no object name (upper case, '_'): the label is fine, the ScheduledBackup is refused (CNPGI063's)
    for (const name of ['Daily-Backup', 'pg_daily_bak']) expect(renamed(name).map((f) => [f.ruleId, f.path])).toEqual([['CNPGI063', 'metadata.name']]);
    const docs = fixture('good-plugin.yaml');
    doc(docs, 'Backup', 'pg-now').metadata.name = 'b'.repeat(82);
    // nor anything else: the API server takes an 82-character name with no dot (CNPGI063 agrees)
    expect(analyzeManifests(docs).findings).toEqual([]);
  });
});
