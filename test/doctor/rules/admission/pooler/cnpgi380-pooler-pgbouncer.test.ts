import { findingsOf, pooler } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI380', ...objects);

describe('CNPGI380 pooler-pgbouncer', () => {
  test('no pgbouncer', () => {
    const [f, ...rest] = findings(pooler({ pgbouncer: null }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      object: 'Pooler/app/pg-pooler-rw',
      path: 'spec.pgbouncer',
      message: 'the Pooler webhook refuses a Pooler without pgbouncer ("required pgbouncer configuration"); the CRD requires it too',
      fix: 'add spec.pgbouncer, e.g. pgbouncer: { poolMode: session }',
    });
  });

  test.each([
    [{ authQuerySecret: { name: 'auth' } }, 'authQuerySecret'],
    [{ serverTLSSecret: { name: 'pgbouncer-client' } }, 'serverTLSSecret'],
    [{ authQuerySecret: { name: 'auth' }, serverTLSSecret: { name: 'pgbouncer-client' }, authQuery: '' }, 'authQuerySecret and serverTLSSecret'],
  ])('credentials without an auth query %#', (pgbouncer, named) => {
    const [f, ...rest] = findings(pooler({ pgbouncer }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      path: 'spec.pgbouncer.authQuery',
      message: `the Pooler webhook refuses ${named} without authQuery ("must specify an auth query when providing an auth query secret"): with credentials of its own, PgBouncer needs the query that looks up the users it lets in`,
      fix: `set spec.pgbouncer.authQuery to that query, or remove ${named} so that the operator sets up the Pooler's access to the Cluster`,
    });
  });

  test('an auth query without credentials', () => {
    const [f, ...rest] = findings(pooler({ pgbouncer: { authQuery: 'SELECT usename, passwd FROM public.user_search($1)', authQuerySecret: { name: '' } } }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      severity: 'error',
      path: 'spec.pgbouncer.authQuerySecret.name',
      message:
        'the Pooler webhook refuses authQuery without authQuerySecret or serverTLSSecret ("must specify an existing auth query secret when providing an auth query secret"): PgBouncer would have no credentials to run the query with',
      fix: "set spec.pgbouncer.serverTLSSecret.name (a client certificate for PostgreSQL) or the deprecated authQuerySecret.name, or remove authQuery so that the operator sets up the Pooler's access to the Cluster",
    });
  });

  test.each([
    [{}],
    [{ poolMode: 'transaction' }],
    [{ authQuery: 'SELECT usename, passwd FROM public.user_search($1)', authQuerySecret: { name: 'auth' } }],
    [{ authQuery: 'SELECT usename, passwd FROM public.user_search($1)', serverTLSSecret: { name: 'pgbouncer-client' } }],
    // neither secret has a name: the operator integrates the Pooler
    [{ authQuerySecret: { name: '' }, serverTLSSecret: {} }],
    // the other TLS secrets are not credentials
    [{ clientTLSSecret: { name: 'tls' }, clientCASecret: { name: 'ca' }, serverCASecret: { name: 'ca' } }],
  ])('accepted: %j', (pgbouncer) => {
    expect(findings(pooler({ pgbouncer }))).toEqual([]);
  });

  test('validation disabled: the webhook accepts anything', () => {
    expect(findings(pooler({ pgbouncer: { authQuery: 'SELECT 1' } }, { annotations: { 'cnpg.io/validation': 'disabled' } }))).toEqual([]);
  });
});
