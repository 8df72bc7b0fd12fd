/*
 * CNPGI300: the Cluster webhook's validateImagePullPolicy (cloudnative-pg v1.30.0
 * internal/webhook/v1/cluster_webhook.go).
 */
import { analyzeManifests } from '../../../../../src/doctor/check-manifests';
import { ofRule } from '../../../helpers';

const cluster = (spec: object, apiVersion = 'postgresql.cnpg.io/v1') => ({
  apiVersion,
  kind: 'Cluster',
  metadata: { name: 'pg', namespace: 'db' },
  spec: { instances: 1, storage: { size: '1Gi' }, ...spec },
});
const findings = (...objects: object[]) => ofRule(analyzeManifests(objects).findings, 'CNPGI300');

describe('CNPGI300 cluster-image-pull-policy', () => {
  test.each(['always', 'Sometimes', ' Always'])('trips on %j', (policy) => {
    expect(findings(cluster({ imagePullPolicy: policy }))).toEqual([
      expect.objectContaining({
        severity: 'error',
        object: 'Cluster/db/pg',
        path: 'spec.imagePullPolicy',
        message: `the Cluster webhook refuses imagePullPolicy ${JSON.stringify(policy)} ("invalid imagePullPolicy, if defined must be one of 'Always', 'Never' or 'IfNotPresent'")`,
        fix: "use Always, Never, IfNotPresent, or leave it out (the kubelet's default for the image's tag)",
      }),
    ]);
  });

  test.each([
    ['Always', cluster({ imagePullPolicy: 'Always' })],
    ['Never', cluster({ imagePullPolicy: 'Never' })],
    ['IfNotPresent', cluster({ imagePullPolicy: 'IfNotPresent' })],
    ['empty', cluster({ imagePullPolicy: '' })],
    ['left out', cluster({})],
    ['another API group', cluster({ imagePullPolicy: 'Sometimes' }, 'example.com/v1')],
  ])('passes: %s', (_what, o) => {
    expect(findings(o)).toEqual([]);
  });
});
