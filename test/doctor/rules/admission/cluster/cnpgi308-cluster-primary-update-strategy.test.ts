/*
 * CNPGI308 cluster-primary-update-strategy: the Cluster webhook's validatePrimaryUpdateStrategy as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI308';

describe('CNPGI308 cluster-primary-update-strategy', () => {
  test('trips: an unknown strategy', () => {
    expect(findingsOf(RULE, cluster({ primaryUpdateStrategy: 'manual' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.primaryUpdateStrategy',
        message: "the Cluster webhook refuses primaryUpdateStrategy 'manual' (\"primaryUpdateStrategy should be empty, 'supervised' or 'unsupervised'\")",
        fix: "use 'unsupervised' (the operator switches over to an updated replica on its own) or 'supervised' (it waits for you)",
      },
    ]);
  });
  test('trips: supervised with one instance', () => {
    expect(findingsOf(RULE, cluster({ instances: 1, primaryUpdateStrategy: 'supervised' }))).toEqual([
      {
        severity: 'error',
        path: 'spec.primaryUpdateStrategy',
        message:
          'the Cluster webhook refuses primaryUpdateStrategy \'supervised\' with one instance ("supervised update strategy is not allowed for clusters with a single instance"): with no replica there is nothing to switch over to, so the update would wait forever',
        fix: "use 'unsupervised', or run two or more instances",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['supervised with three instances', { primaryUpdateStrategy: 'supervised' }, {}],
    ['unsupervised with one instance', { instances: 1, primaryUpdateStrategy: 'unsupervised' }, {}],
    ['no strategy with one instance (the CRD default is unsupervised)', { instances: 1 }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
