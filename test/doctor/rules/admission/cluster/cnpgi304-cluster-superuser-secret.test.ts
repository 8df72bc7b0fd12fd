/*
 * CNPGI304 cluster-superuser-secret: the Cluster webhook's validateSuperuserSecret as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI304';

describe('CNPGI304 cluster-superuser-secret', () => {
  test('trips: an empty name', () => {
    expect(findingsOf(RULE, cluster({ superuserSecret: { name: '' } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.superuserSecret.name',
        message: 'the Cluster webhook refuses a superuserSecret without a name ("Super user secret name can\'t be empty", at spec.superusersecret.name)',
        fix: "name the Secret (of type kubernetes.io/basic-auth, with username 'postgres' and a password), or remove superuserSecret to let the operator generate one",
      },
    ]);
  });
  test('trips: no name', () => {
    expect(findingsOf(RULE, cluster({ superuserSecret: {} }))).toEqual([
      {
        severity: 'error',
        path: 'spec.superuserSecret.name',
        message: 'the Cluster webhook refuses a superuserSecret without a name ("Super user secret name can\'t be empty", at spec.superusersecret.name)',
        fix: "name the Secret (of type kubernetes.io/basic-auth, with username 'postgres' and a password), or remove superuserSecret to let the operator generate one",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a named Secret', { superuserSecret: { name: 'pg-superuser' } }, {}],
    ['no superuserSecret', {}, {}],
    ['superuserSecret: null', { superuserSecret: null }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
