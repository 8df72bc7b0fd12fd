import { checkManifests } from '../../src/doctor';
import { guideText, guideYaml, runGuideExample } from './guide-example';

// The ```ts block of docs/guides/monitoring.md, run as written against the library's sources;
// the rule its ```yaml block shows must be the one it writes.
const GUIDE = guideText('monitoring');

describe('guide: monitoring', () => {
  test('the example runs, writes the rule the guide shows, and passes the doctor', () => {
    const objects = runGuideExample(GUIDE);
    const rules = objects.filter((o) => o.kind === 'PrometheusRule').flatMap((r) => r.spec.groups.flatMap((g: any) => g.rules));
    const shown = guideYaml(GUIDE)[0];
    const written = rules.find((r) => r.alert === shown.alert && r.labels.cluster === shown.labels.cluster);
    expect({ alert: written.alert, expr: written.expr, labels: written.labels }).toEqual(shown);
    // every alert of the guide's app has its section
    for (const alert of new Set(rules.map((r) => r.alert))) expect(GUIDE).toContain(`### ${alert} (${rules.find((r) => r.alert === alert).labels.severity})`);
    expect(objects.filter((o) => o.kind === 'PodMonitor').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['databases/pg']);
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' })).toEqual([]);
  });
});
