import { findingsOf, reported } from './cluster-warnings';

const RULE = 'CNPGI356';
const RELABELINGS =
  'is deprecated and will be removed in a future release. Please migrate to manually managing your PodMonitor resources with custom relabeling configurations.';

describe('CNPGI356 cluster-deprecated-pod-monitor', () => {
  test('trips: the PodMonitor the operator manages', () => {
    expect(reported(findingsOf(RULE, (s) => (s.monitoring = { enablePodMonitor: true })))).toEqual([
      {
        severity: 'warning',
        path: 'spec.monitoring.enablePodMonitor',
        message:
          'is true; the Cluster webhook warns ("spec.monitoring.enablePodMonitor is deprecated and will be removed in a future release. ' +
          'Please migrate to manually managing your PodMonitor resources. ' +
          'Set this field to false and create a PodMonitor resource for your cluster as described in the documentation.")',
        fix: "set spec.monitoring.enablePodMonitor: false and create a PodMonitor of your own that selects the Cluster's instance pods",
      },
    ]);
  });

  test('trips: each list of relabelings, in the webhook order', () => {
    const f = findingsOf(RULE, (s) => (s.monitoring = { podMonitorRelabelings: [{ action: 'keep' }], podMonitorMetricRelabelings: [{ action: 'drop' }] }));
    expect(reported(f)).toEqual(
      ['podMonitorMetricRelabelings', 'podMonitorRelabelings'].map((field) => ({
        severity: 'warning',
        path: `spec.monitoring.${field}`,
        message: `is set; the Cluster webhook warns ("spec.monitoring.${field} ${RELABELINGS}")`,
        fix: `move the relabelings into a PodMonitor of your own and remove spec.monitoring.${field}`,
      })),
    );
  });

  test.each([
    ['no monitoring section', () => undefined],
    ['enablePodMonitor false', (s: Record<string, any>) => (s.monitoring = { enablePodMonitor: false })],
    ['empty relabelings', (s: Record<string, any>) => (s.monitoring = { podMonitorRelabelings: [], podMonitorMetricRelabelings: [] })],
    ['other monitoring settings', (s: Record<string, any>) => (s.monitoring = { customQueriesConfigMap: [{ name: 'q', key: 'queries' }] })],
  ])('passes: %s', (_what, edit) => {
    expect(findingsOf(RULE, edit)).toEqual([]);
  });
});
