import { findingsOf, pooler } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI384', ...objects);
const QUERY = 'SELECT usename, passwd FROM public.user_search($1)';

describe('CNPGI384 pooler-manual-integration', () => {
  test('an auth query with its certificate: the operator leaves the integration to you', () => {
    const [f, ...rest] = findings(pooler({ pgbouncer: { authQuery: QUERY, serverTLSSecret: { name: 'pgbouncer-client' } } }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'warning',
      object: 'Pooler/app/pg-pooler-rw',
      path: 'spec.pgbouncer.authQuery',
      message:
        'the Pooler webhook warns "The operator won\'t handle the Pooler "pg-pooler-rw" integration with the Cluster "pg" ("app"). Manually configure it as described in the docs.": with authQuery and serverTLSSecret set, the PgBouncer user, its lookup function and its credentials are yours to set up in the Cluster',
      fix: 'remove authQuery and serverTLSSecret so that the operator sets the integration up, or keep them and configure the Cluster yourself',
    });
  });

  test('the deprecated auth query secret: both warnings', () => {
    const found = findings(pooler({ pgbouncer: { authQuery: QUERY, authQuerySecret: { name: 'auth' } } }));
    expect(found.map((f) => [f.severity, f.path])).toEqual([
      ['warning', 'spec.pgbouncer.authQuery'],
      ['warning', 'spec.pgbouncer.authQuerySecret'],
    ]);
    expect(found[1]).toMatchObject({
      message: 'the Pooler webhook warns "The .spec.pgbouncer.authQuerySecret field has been deprecated"',
      fix: 'authenticate PgBouncer to PostgreSQL with a client certificate in spec.pgbouncer.serverTLSSecret instead, or remove both authQuerySecret and authQuery so that the operator sets the integration up',
    });
  });

  test('without a namespace in the manifest, the answer names the one it is applied to', () => {
    const object = pooler({ pgbouncer: { serverTLSSecret: { name: 'c' }, authQuery: QUERY } });
    delete (object.metadata as Record<string, unknown>).namespace;
    const [f] = findings(object);
    expect(f.path).toBe('spec.pgbouncer.authQuery');
    expect(f.message).toContain('with the Cluster "pg" ("<namespace>")');
  });

  test.each([
    [{}],
    [{ poolMode: 'transaction', parameters: { max_client_conn: '100' } }],
    [{ authQuerySecret: { name: '' }, serverTLSSecret: { name: '' }, authQuery: '' }],
    [{ clientTLSSecret: { name: 'tls' }, clientCASecret: { name: 'ca' } }],
  ])('the operator integrates it: %j', (pgbouncer) => {
    expect(findings(pooler({ pgbouncer }))).toEqual([]);
  });
});
