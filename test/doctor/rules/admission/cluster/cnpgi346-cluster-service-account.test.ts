import { clusterFindings } from '../cluster-findings';

const run = (spec: object) => clusterFindings('CNPGI346', (c) => Object.assign(c.spec, spec));

describe('CNPGI346 cluster-service-account', () => {
  test('both an existing ServiceAccount and a template', () => {
    expect(run({ serviceAccountName: 'shared-sa', serviceAccountTemplate: { metadata: { labels: { a: 'b' } } } })).toEqual([
      {
        severity: 'error',
        message:
          'the Cluster webhook refuses serviceAccountName \'shared-sa\' beside serviceAccountTemplate ("serviceAccountName and serviceAccountTemplate are mutually exclusive"): the instances either run as an existing ServiceAccount or as one the operator creates from the template',
        fix: "remove serviceAccountTemplate to run as the existing ServiceAccount 'shared-sa', or remove serviceAccountName",
        path: 'spec.serviceAccountName',
      },
    ]);
    expect(run({ serviceAccountName: 'shared-sa', serviceAccountTemplate: {} })).toHaveLength(1);
  });

  test('near misses the webhook accepts', () => {
    expect(run({ serviceAccountName: 'shared-sa' })).toEqual([]);
    expect(run({ serviceAccountTemplate: {} })).toEqual([]);
    expect(run({ serviceAccountName: '', serviceAccountTemplate: {} })).toEqual([]);
    expect(run({})).toEqual([]);
  });
});
