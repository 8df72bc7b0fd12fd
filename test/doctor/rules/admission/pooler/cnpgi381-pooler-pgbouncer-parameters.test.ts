import { findingsOf, pooler } from '../admission-objects';

const findings = (...objects: unknown[]) => findingsOf('CNPGI381', ...objects);
const refused = (key: string) =>
  `the Pooler webhook refuses PgBouncer parameter '${key}' (spec.cluster.parameters: "Invalid or reserved parameter"): it is not one of the settings a Pooler may pass to PgBouncer; the operator writes the others itself, or does not support them`;

describe('CNPGI381 pooler-pgbouncer-parameters', () => {
  test.each([
    ['pool_mode', 'remove it and set spec.pgbouncer.poolMode instead'],
    ['auth_query', 'remove it and set spec.pgbouncer.authQuery instead'],
    ['max_client_con', "write 'max_client_conn'"],
    ['MAX_CLIENT_CONN', "write 'max_client_conn'"],
    ['listen_port', 'remove it'],
    ['unix_socket_dir', 'remove it'],
  ])('%p', (key, fix) => {
    const [f, ...rest] = findings(pooler({ pgbouncer: { parameters: { [key]: '1' } } }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'error', object: 'Pooler/app/pg-pooler-rw', path: `spec.pgbouncer.parameters.${key}`, message: refused(key), fix });
  });

  test('one finding per refused key, in the order written', () => {
    const found = findings(pooler({ pgbouncer: { parameters: { verbose: '1', pool_mode: 'transaction', listen_addr: '*' } } }));
    expect(found.map((f) => f.path)).toEqual(['spec.pgbouncer.parameters.pool_mode', 'spec.pgbouncer.parameters.listen_addr']);
  });

  test.each([
    [{ max_client_conn: '1000', default_pool_size: '10' }],
    [{ verbose: '10' }],
    [{ server_tls_sslmode: 'verify-full', tcp_keepalive: '1', track_extra_parameters: 'IntervalStyle' }],
    [{ client_tls13_ciphers: 'TLS_AES_256_GCM_SHA384', server_tls13_ciphers: 'TLS_AES_256_GCM_SHA384' }],
    [{}],
    [{ log_connections: '0', log_disconnections: '0', ignore_startup_parameters: 'extra_float_digits' }],
    [{ max_prepared_statements: '200', query_wait_timeout: '120', server_lifetime: '3600' }],
    [{ auth_type: 'scram-sha-256', application_name_add_host: '1' }],
  ])('accepted: %j', (parameters) => {
    expect(findings(pooler({ pgbouncer: { parameters } }))).toEqual([]);
  });
});
