import { annotate, clusterFindings } from '../cluster-findings';

const run = (value: unknown) => clusterFindings('CNPGI340', (c) => annotate(c, 'cnpg.io/hibernation', value));

describe('CNPGI340 cluster-hibernation-annotation', () => {
  test('a value other than on and off', () => {
    expect(run('true')).toEqual([
      {
        severity: 'error',
        message: 'the Cluster webhook refuses cnpg.io/hibernation: \'true\' (\'Annotation value for hibernation should be "on" or "off"\')',
        fix: "write 'on' to hibernate the Cluster, 'off' to wake it, or remove the annotation",
        path: 'metadata.annotations.cnpg.io/hibernation',
      },
    ]);
    expect(run('')).toHaveLength(1);
    expect(run('On')).toHaveLength(1);
  });

  test('near misses the webhook accepts', () => {
    expect(run('on')).toEqual([]);
    expect(run('off')).toEqual([]);
    expect(clusterFindings('CNPGI340', (c) => annotate(c, 'cnpg.io/hibernate', 'yes'))).toEqual([]);
  });
});
