import { clusterDoc, findingsOf } from './webhook-findings';

const of = (ldap: object) => findingsOf('CNPGI331', clusterDoc({ postgresql: { ldap } }));
const NO_SERVER = {
  path: 'spec.postgresql.ldap',
  message: 'the Cluster webhook refuses an ldap stanza without a server ("ldap server cannot be empty if any other ldap parameters are specified")',
  fix: "name the LDAP server, e.g. server: 'ldap.example.com', or remove the ldap stanza",
};
const BOTH = {
  path: 'spec.postgresql.ldap',
  message: 'the Cluster webhook refuses an ldap stanza with both bindAsAuth and bindSearchAuth ("only bind+search or bind method can be specified")',
  fix: 'keep bindAsAuth (simple bind with a prefix and suffix) or bindSearchAuth (search, then bind), not both',
};

describe('CNPGI331 cluster-ldap', () => {
  test('no server', () => {
    expect(of({ bindAsAuth: { prefix: 'uid=', suffix: ',dc=example,dc=com' } })).toEqual([NO_SERVER]);
    expect(of({})).toEqual([NO_SERVER]);
  });

  test('both bind methods', () => {
    expect(of({ server: 'ldap.example.com', bindAsAuth: { prefix: 'uid=' }, bindSearchAuth: { baseDN: 'dc=example,dc=com' } })).toEqual([BOTH]);
  });

  test('both problems', () => {
    expect(of({ bindAsAuth: {}, bindSearchAuth: {} })).toEqual([NO_SERVER, BOTH]);
  });

  test.each([
    ['simple bind', { server: 'ldap.example.com', bindAsAuth: { prefix: 'uid=', suffix: ',dc=example,dc=com' } }],
    ['search and bind', { server: 'ldap.example.com', scheme: 'ldaps', bindSearchAuth: { baseDN: 'dc=example,dc=com', searchAttribute: 'uid' } }],
    ['a server alone', { server: 'ldap.example.com' }],
  ])('accepted: %s', (_what, ldap) => {
    expect(of(ldap)).toEqual([]);
  });

  test('accepted: no ldap stanza', () => {
    expect(findingsOf('CNPGI331', clusterDoc())).toEqual([]);
  });
});
