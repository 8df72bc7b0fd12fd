import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { doc, fixture, ofRule } from '../../helpers';

const S2Z = 'cnpg-i-scale-to-zero.xata.io';

/** The good fixture's Cluster with these annotations, and the Scale-to-Zero plugin when `plugin`. */
function annotated(annotations: Record<string, string>, plugin: boolean | { enabled: boolean } = true) {
  const docs = fixture('good-plugin.yaml');
  const cluster = doc(docs, 'Cluster', 'pg');
  cluster.metadata.annotations = annotations;
  if (plugin !== false) cluster.spec.plugins.push({ name: S2Z, ...(plugin === true ? {} : plugin) });
  return ofRule(analyzeManifests(docs).findings, 'CNPGI140').map((f) => [f.severity, f.object, f.path, f.message, f.fix]);
}

describe('CNPGI140 scale-to-zero-annotations', () => {
  test('an enabling value other than exactly "true": never hibernated', () => {
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'True' })).toEqual([
      [
        'warning',
        'Cluster/app/pg',
        'metadata.annotations[xata.io/scale-to-zero-enabled]',
        'is "True", but the sidecar enables hibernation only for exactly "true": this Cluster is never hibernated',
        'write "true" to enable hibernation, or remove the plugin from spec.plugins',
      ],
    ]);
  });

  test('the plugin without the enabling annotation: the sidecar runs and never hibernates', () => {
    expect(annotated({})).toEqual([
      [
        'warning',
        'Cluster/app/pg',
        'metadata.annotations[xata.io/scale-to-zero-enabled]',
        'is missing: the plugin injects its sidecar, which hibernates the Cluster only when the annotation is exactly "true", so this Cluster is never hibernated',
        'set the annotation xata.io/scale-to-zero-enabled: "true", or remove the plugin from spec.plugins',
      ],
    ]);
  });

  test('minutes that strconv.Atoi refuses: the default 30 minutes', () => {
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'true', 'xata.io/scale-to-zero-inactivity-minutes': '10m' })).toEqual([
      [
        'warning',
        'Cluster/app/pg',
        'metadata.annotations[xata.io/scale-to-zero-inactivity-minutes]',
        'is "10m", which Go\'s strconv.Atoi refuses (invalid syntax): the sidecar logs an error and hibernates after the default 30 minutes',
        'write a whole number of minutes, e.g. "30"',
      ],
    ]);
  });

  test('annotations on a Cluster without the plugin (or with it disabled): nothing reads them', () => {
    const expected = [
      [
        'warning',
        'Cluster/app/pg',
        'metadata.annotations[xata.io/scale-to-zero-enabled]',
        "is set, but the Cluster does not enable the plugin 'cnpg-i-scale-to-zero.xata.io' in spec.plugins: no Scale-to-Zero sidecar is injected to read it, and the Cluster is never hibernated",
        'add { name: cnpg-i-scale-to-zero.xata.io } to spec.plugins, or remove the annotation',
      ],
    ];
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'true' }, false)).toEqual(expected);
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'true' }, { enabled: false })).toEqual(expected);
  });

  test('near misses pass: as the plugin reads them, with Atoi forms, and no annotation without the plugin', () => {
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'true', 'xata.io/scale-to-zero-inactivity-minutes': '10' })).toEqual([]);
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'true', 'xata.io/scale-to-zero-inactivity-minutes': '+010' })).toEqual([]);
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'true' })).toEqual([]);
    expect(annotated({}, false)).toEqual([]);
    expect(annotated({ 'xata.io/scale-to-zero-enabled': 'false' }, false)).toEqual([]);
  });
});
