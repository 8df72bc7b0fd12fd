/*
 * CNPGI305 cluster-certificates: the Cluster webhook's validateCerts as the doctor reports it: inputs that trip it
 * (what the doctor says, where), and near misses the webhook accepts.
 */
import { cluster, findingsOf } from '../admission-helpers';

const RULE = 'CNPGI305';

describe('CNPGI305 cluster-certificates', () => {
  test('trips: a server TLS Secret without its CA', () => {
    expect(findingsOf(RULE, cluster({ certificates: { serverTLSSecret: 'pg-server' } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.certificates.serverCASecret',
        message:
          "the Cluster webhook refuses serverTLSSecret 'pg-server' without serverCASecret (\"Server CA secret can't be empty when server TLS secret is provided\", at spec.certificates.servercasecret): clients verify the server with that CA",
        fix: "set serverCASecret to the Secret holding the CA that issued the server certificate (key 'ca.crt')",
      },
    ]);
  });
  test('trips: a server TLS Secret with alternative DNS names', () => {
    expect(
      findingsOf(RULE, cluster({ certificates: { serverTLSSecret: 'pg-server', serverCASecret: 'pg-ca', serverAltDNSNames: ['pg.example.com'] } })),
    ).toEqual([
      {
        severity: 'error',
        path: 'spec.certificates.serverAltDNSNames',
        message:
          'the Cluster webhook refuses serverAltDNSNames ["pg.example.com"] beside serverTLSSecret \'pg-server\' ("Server alternative DNS names can\'t be defined when server TLS secret is provided", at spec.certificates.serveraltdnsnames): the operator adds those names only to a server certificate it issues itself',
        fix: 'put the names in the certificate of serverTLSSecret and remove serverAltDNSNames, or remove serverTLSSecret and serverCASecret to let the operator issue the certificate',
      },
    ]);
  });
  test('trips: a replication TLS Secret without the client CA', () => {
    expect(findingsOf(RULE, cluster({ certificates: { replicationTLSSecret: 'pg-replication' } }))).toEqual([
      {
        severity: 'error',
        path: 'spec.certificates.clientCASecret',
        message:
          "the Cluster webhook refuses replicationTLSSecret 'pg-replication' without clientCASecret (\"Client CA secret can't be empty when client replication secret is provided\", at spec.certificates.clientcasecret): the server verifies the replication client with that CA",
        fix: "set clientCASecret to the Secret holding the CA that issued the replication certificate (key 'ca.crt')",
      },
    ]);
  });

  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a server TLS Secret with its CA', { certificates: { serverTLSSecret: 'pg-server', serverCASecret: 'pg-ca' } }, {}],
    ['alternative DNS names on an operator-issued certificate', { certificates: { serverAltDNSNames: ['pg.example.com'] } }, {}],
    ['a replication TLS Secret with the client CA', { certificates: { replicationTLSSecret: 'pg-replication', clientCASecret: 'pg-client-ca' } }, {}],
    ['a CA alone', { certificates: { serverCASecret: 'pg-ca', clientCASecret: 'pg-client-ca' } }, {}],
    ['an empty server TLS Secret name with DNS names', { certificates: { serverTLSSecret: '', serverAltDNSNames: ['pg.example.com'] } }, {}],
  ])('passes: %s', (_title, spec, metadata) => {
    expect(findingsOf(RULE, cluster(spec, metadata))).toEqual([]);
  });
});
