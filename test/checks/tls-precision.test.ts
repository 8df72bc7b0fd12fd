import { goVerifyHostname } from '../../src/checks/tls-precision';

// Expected values follow Go 1.23 crypto/x509 VerifyHostname.
describe('goVerifyHostname', () => {
  test.each([
    ['barman-cloud', ['barman-cloud'], [], true],
    ['Barman-Cloud', ['barman-cloud'], [], true],
    ['barman-cloud.', ['barman-cloud'], [], true],
    ['barman-cloud', ['barman-cloud.'], [], false],
    ['barman-cloud.', ['barman-cloud.'], [], true],
    ['barman-cloud.cnpg-system.svc', ['*.cnpg-system.svc'], [], true],
    ['a.barman-cloud.cnpg-system.svc', ['*.cnpg-system.svc'], [], false],
    ['barman-cloud', ['barman-cloud.cnpg-system.svc'], [], false],
    ['10.0.0.5', ['10.0.0.5'], [], false],
    ['10.0.0.5', [], ['10.0.0.5'], true],
    ['::1', [], ['0:0:0:0:0:0:0:1'], true],
    ['[::1]', [], ['::1'], true],
    ['10.0.0.5', [], ['10.0.0.6'], false],
  ])('%p against DNS %p IP %p', (name, dns, ips, ok) => {
    expect(goVerifyHostname(name, dns, ips)).toBe(ok);
  });
});
