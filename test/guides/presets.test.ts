import { checkManifests } from '../../src/doctor';
import { guideText, guideYaml, runGuideExample } from './guide-example';

// The S3-compatible example of docs/guides/presets.md, run as written against the library's
// sources: its ObjectStore must be what the guide's ```yaml block shows, and pass the doctor.
const GUIDE = guideText('presets');

describe('guide: presets, S3-compatible stores', () => {
  test('the example writes the ObjectStore the guide shows, linked to the Cluster, and passes the doctor', () => {
    const objects = runGuideExample(GUIDE, 's3-compatible');
    const store = objects.find((o) => o.kind === 'ObjectStore')!;
    const shown = guideYaml(GUIDE).find((o) => o.kind === 'ObjectStore');
    expect(store).toEqual(shown);
    const cluster = objects.find((o) => o.kind === 'Cluster')!;
    expect(cluster.spec.plugins).toContainEqual({
      name: 'barman-cloud.cloudnative-pg.io',
      enabled: true,
      isWALArchiver: true,
      parameters: { barmanObjectName: 'minio' },
    });
    expect(checkManifests(objects, { operatorNamespace: 'cnpg-system' }).filter((f) => f.severity === 'error')).toEqual([]);
  });
});
