import { findingsOf, reported } from './cluster-warnings';

const RULE = 'CNPGI350';

describe('CNPGI350 cluster-node-maintenance-window', () => {
  test.each([
    ['a maintenance window in progress', { inProgress: true, reusePVC: false }],
    ['an empty one (set all the same)', {}],
  ])('trips: %s', (_what, window) => {
    expect(reported(findingsOf(RULE, (s) => (s.nodeMaintenanceWindow = window)))).toEqual([
      {
        severity: 'warning',
        path: 'spec.nodeMaintenanceWindow',
        message:
          'is set; the Cluster webhook warns ("Consider using `.spec.enablePDB` instead of the node maintenance window feature"): ' +
          'the PodDisruptionBudgets that enablePDB controls are the supported way to drain nodes',
        fix: 'remove spec.nodeMaintenanceWindow and control node drains with spec.enablePDB (true by default; false lets a drain evict every instance)',
      },
    ]);
  });

  test.each([
    ['no maintenance window', () => undefined],
    ['a null one', (s: Record<string, unknown>) => (s.nodeMaintenanceWindow = null)],
    ['enablePDB turned off instead', (s: Record<string, unknown>) => (s.enablePDB = false)],
  ])('passes: %s', (_what, edit) => {
    expect(findingsOf(RULE, edit)).toEqual([]);
  });
});
