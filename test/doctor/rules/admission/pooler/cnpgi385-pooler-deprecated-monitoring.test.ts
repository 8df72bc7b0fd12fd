import { findingsOf, pooler } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI385', ...objects);
const WARNED =
  'the Pooler webhook warns "spec.monitoring is deprecated and will be removed in a future release. Set this field to false and create a PodMonitor resource for your pooler as described in the documentation"';
const FIX = "remove enablePodMonitor and the PodMonitor relabelings, and write a PodMonitor that selects the Pooler's pods";

describe('CNPGI385 pooler-deprecated-monitoring', () => {
  test('the generated PodMonitor', () => {
    const [f, ...rest] = findings(pooler({ monitoring: { enablePodMonitor: true } }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'warning',
      object: 'Pooler/app/pg-pooler-rw',
      path: 'spec.monitoring.enablePodMonitor',
      message: `${WARNED}: enablePodMonitor asks for the PodMonitor the operator generates, which a later release drops`,
      fix: FIX,
    });
  });

  test('relabelings alone', () => {
    const relabel = [{ action: 'drop', sourceLabels: ['__name__'], regex: 'go_.*' }];
    const [f, ...rest] = findings(pooler({ monitoring: { podMonitorMetricRelabelings: relabel, podMonitorRelabelings: relabel } }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      path: 'spec.monitoring.podMonitorMetricRelabelings',
      message: `${WARNED}: podMonitorMetricRelabelings and podMonitorRelabelings ask for the PodMonitor the operator generates, which a later release drops`,
      fix: FIX,
    });
  });

  test.each([
    [{ monitoring: { enablePodMonitor: false } }],
    [{ monitoring: { tls: { enabled: true } } }],
    [{ monitoring: { podMonitorRelabelings: [] } }],
    [{}],
  ])('accepted without a warning: %j', (spec) => {
    expect(findings(pooler(spec))).toEqual([]);
  });
});
