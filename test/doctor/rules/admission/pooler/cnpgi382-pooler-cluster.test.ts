import { findingsOf, pooler } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI382', ...objects);

describe('CNPGI382 pooler-cluster', () => {
  test('no cluster name', () => {
    const [f, ...rest] = findings(pooler({ cluster: { name: '' } }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Pooler/app/pg-pooler-rw',
      path: 'spec.cluster.name',
      message: 'the Pooler webhook refuses a Pooler without a cluster name ("must specify a cluster name"): it would not know whose instances to pool',
      fix: "set spec.cluster.name to the name of the Cluster in the Pooler's namespace",
    });
  });

  test('named like its Cluster, with a name built from the type', () => {
    const [f, ...rest] = findings(pooler({ cluster: { name: 'pg' }, type: 'ro' }, { name: 'pg' }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Pooler/app/pg',
      path: 'metadata.name',
      message: `the Pooler webhook refuses a Pooler named like the Cluster it points to, 'pg' ("the pooler resource cannot have the same name of a cluster")`,
      fix: "rename the Pooler, e.g. 'pg-pooler-ro'",
    });
  });

  test('a long name gets no suggestion it could not take', () => {
    const name = 'x'.repeat(60);
    const [f] = findings(pooler({ cluster: { name } }, { name }));
    expect(f.fix).toBe("give the Pooler a name other than its Cluster's");
  });

  test.each([
    [{ cluster: { name: 'pg' } }, {}],
    [{ cluster: { name: 'pg-pooler-rw-cluster' } }, {}],
    [{ cluster: { name: 'PG' } }, { name: 'pg' }],
    [{ cluster: { name: 'pg' } }, { name: 'pg-rw' }],
  ])('accepted: %j %j', (spec, metadata) => {
    expect(findings(pooler(spec, metadata))).toEqual([]);
  });
});
