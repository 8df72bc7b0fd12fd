import { checkManifests } from '../../src/doctor';
import { guideText, guideYaml, runGuideExample } from './guide-example';

// The ```ts block of docs/guides/scale-to-zero.md, run as written against the library's sources;
// its output must be what the guide's ```yaml block says, and pass the doctor.
const GUIDE = guideText('scale-to-zero');

describe('guide: Scale-to-Zero', () => {
  test('the example runs, writes the annotations the guide shows, and passes the doctor', () => {
    const objects = runGuideExample(GUIDE);
    const cluster = objects.find((o) => o.kind === 'Cluster')!;
    const shown = guideYaml(GUIDE)[0];
    expect(cluster.metadata.annotations).toEqual(shown.metadata.annotations);
    expect(cluster.spec.plugins).toContainEqual(shown.spec.plugins[0]);
    expect(objects.find((o) => o.kind === 'ScheduledBackup')!.metadata.name).toBe(cluster.metadata.name);
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' }).filter((f) => f.severity === 'error')).toEqual([]);
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' }).filter((f) => /CNPGI14[01]/.test(f.ruleId))).toEqual([]);
  });
});
