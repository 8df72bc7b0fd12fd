import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule } from '../../helpers';

const S2Z = 'cnpg-i-scale-to-zero.xata.io';

/** The good fixture with Cluster pg hibernated by Scale-to-Zero, and `change` applied to its ScheduledBackup. */
function scheduled(
  change: (s: Doc, docs: Doc[]) => void,
  annotations: Record<string, string> = { 'xata.io/scale-to-zero-enabled': 'true', 'xata.io/scale-to-zero-inactivity-minutes': '1' },
) {
  const docs = fixture('good-plugin.yaml');
  const cluster = doc(docs, 'Cluster', 'pg');
  cluster.metadata.annotations = annotations;
  cluster.spec.plugins.push({ name: S2Z });
  change(doc(docs, 'ScheduledBackup', 'pg-daily'), docs);
  return ofRule(analyzeManifests(docs).findings, 'CNPGI141').map((f) => [f.severity, f.object, f.path, f.message, f.fix]);
}

describe('CNPGI141 scale-to-zero-schedule', () => {
  test('a ScheduledBackup named otherwise keeps running against the hibernated Cluster', () => {
    expect(scheduled(() => undefined)).toEqual([
      [
        'warning',
        'ScheduledBackup/app/pg-daily',
        'metadata.name',
        `backs up Cluster 'pg', which the Scale-to-Zero sidecar hibernates after 1 minute without connections; the sidecar suspends only the ScheduledBackup named 'pg', so this one keeps creating Backups, and CloudNativePG fails each with "cannot backup a hibernated cluster" while the Cluster sleeps`,
        "name the ScheduledBackup 'pg' (the one schedule the sidecar suspends), or set spec.suspend: true and back the Cluster up some other way",
      ],
    ]);
    // the default threshold when the annotation is missing or unreadable
    expect(scheduled(() => undefined, { 'xata.io/scale-to-zero-enabled': 'true' })[0][3]).toContain('after 30 minutes without connections');
  });

  test('near misses pass: named like the Cluster, suspended, another Cluster, scale-to-zero off', () => {
    expect(scheduled((s) => (s.metadata.name = 'pg'))).toEqual([]);
    expect(scheduled((s) => (s.spec.suspend = true))).toEqual([]);
    expect(scheduled((s) => (s.spec.cluster.name = 'other'))).toEqual([]);
    expect(scheduled(() => undefined, { 'xata.io/scale-to-zero-enabled': 'false' })).toEqual([]);
    // a Cluster of the same name in another namespace is not the one backed up
    expect(scheduled((s) => (s.metadata.namespace = 'elsewhere'))).toEqual([]);
  });
});
