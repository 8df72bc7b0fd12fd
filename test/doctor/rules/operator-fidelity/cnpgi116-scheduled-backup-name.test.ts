import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule } from '../../helpers';

/** The good fixture with its ScheduledBackup renamed. */
function named(name: string) {
  const docs = fixture('good-plugin.yaml');
  const scheduled: Doc = doc(docs, 'ScheduledBackup', 'pg-daily');
  scheduled.metadata.name = name;
  return ofRule(analyzeManifests(docs).findings, 'CNPGI116');
}

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

  test('near misses pass: 63 characters, dots and dashes within, a Backup (not scheduled) with a long name', () => {
    expect(named('z'.repeat(63))).toEqual([]);
    expect(named(`pg.daily-${'x'.repeat(54)}`)).toEqual([]);
    expect(named('pg-daily')).toEqual([]);
    const docs = fixture('good-plugin.yaml');
    doc(docs, 'Backup', 'pg-now').metadata.name = 'b'.repeat(82);
    // nor anything else: the API server takes an 82-character name with no dot (CNPGI063 agrees)
    expect(analyzeManifests(docs).findings).toEqual([]);
  });
});
