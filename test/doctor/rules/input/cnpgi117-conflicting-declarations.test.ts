import { analyzeManifests } from '../../../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule } from '../../helpers';

/** The fixture with a second declaration of the plugin Service, changed by `change`. */
function twice(change: (copy: Doc) => void) {
  const docs = fixture('good-plugin.yaml');
  const copy: Doc = JSON.parse(JSON.stringify(doc(docs, 'Service', 'backup')));
  change(copy);
  docs.push(copy);
  return analyzeManifests(docs);
}

describe('CNPGI117 conflicting-declarations', () => {
  test('a second declaration with different content: a warning on it, at the first difference', () => {
    const report = twice((copy) => (copy.metadata.annotations['cnpg.io/pluginPort'] = '9091'));
    const f = ofRule(report.findings, 'CNPGI117');
    expect(f.map((x) => [x.severity, x.object, x.index, x.path, x.message, x.fix])).toEqual([
      [
        'warning',
        'Service/cnpg-system/backup',
        9,
        'metadata.annotations.cnpg.io/pluginPort',
        'is declared 2 times with different content (this declaration differs from the first at metadata.annotations.cnpg.io/pluginPort); only the one applied last takes effect',
        'keep one declaration: delete the stale copy, or leave the built file or its sources out of the input',
      ],
    ]);
    // one object to the operator: not two Services of one plugin name
    expect(ofRule(report.findings, 'CNPGI018')).toEqual([]);
  });

  test('near misses: an identical repeat, the same with the namespace left out, another name or namespace', () => {
    const identical = twice(() => undefined);
    expect(identical.findings).toEqual([]);
    expect(identical.objectCount).toBe(analyzeManifests(fixture('good-plugin.yaml')).objectCount);
    expect(twice((copy) => delete copy.metadata.namespace).findings).toEqual([]);
    // a Service of another name is another object (CNPGI018 says the rest)
    expect(ofRule(twice((copy) => (copy.metadata.name = 'backup-2')).findings, 'CNPGI117')).toEqual([]);
    expect(ofRule(twice((copy) => (copy.metadata.namespace = 'other')).findings, 'CNPGI117')).toEqual([]);
  });

  test('with -n, a copy without a namespace repeats an object of that namespace', () => {
    const docs = fixture('good-plugin.yaml');
    const copies = docs.filter((d) => d.metadata?.namespace === 'cnpg-system').map((d) => JSON.parse(JSON.stringify(d)));
    for (const c of copies) delete c.metadata.namespace;
    const report = analyzeManifests([...docs, ...copies], { defaultNamespace: 'cnpg-system' });
    expect(report.findings).toEqual([]);
    expect(report.objectCount).toBe(docs.length);
  });
});
