import { isDnsHostName, isDnsSubdomain, isEnvVarName, isLabelKey, longDnsLabel } from '../../src/manifests/k8s-names';

describe('isDnsSubdomain: what Kubernetes checks object names with (IsDNS1123Subdomain)', () => {
  test('no limit on one part: an 82-character Backup name and a 70-character ObjectStore name', () => {
    expect(isDnsSubdomain('b'.repeat(82))).toBe(true);
    expect(isDnsSubdomain(`${'o'.repeat(70)}.example`)).toBe(true);
    expect(isDnsSubdomain('x'.repeat(253))).toBe(true);
  });
  test('the whole name at most 253 characters, of lower-case parts that start and end with a letter or digit', () => {
    expect(isDnsSubdomain('x'.repeat(254))).toBe(false);
    for (const bad of ['', 'A', 'a_b', '-a', 'a-', 'a..b', '.a', 'a.']) expect(isDnsSubdomain(bad)).toBe(false);
    expect(isDnsSubdomain(['a'] as unknown as string)).toBe(false);
  });
  test('a label key prefix is a subdomain too', () => {
    expect(isLabelKey(`${'p'.repeat(70)}.example.com/name`)).toBe(true);
  });
});

describe('isDnsHostName: a name DNS and TLS carry (a certificate DNS name, a verified server name)', () => {
  test('each label at most 63 characters (RFC 1035)', () => {
    expect(isDnsHostName(`${'a'.repeat(63)}.example.com`)).toBe(true);
    expect(isDnsHostName(`${'a'.repeat(64)}.example.com`)).toBe(false);
    expect(longDnsLabel(`x.${'a'.repeat(64)}.example.com`)).toBe('a'.repeat(64));
    expect(longDnsLabel('plugin.cnpg-system.svc')).toBeUndefined();
  });
  test('and a subdomain first', () => {
    expect(isDnsHostName('Plugin.example.com')).toBe(false);
    expect(isDnsHostName('x'.repeat(254))).toBe(false);
  });
});

describe('isEnvVarName: what Kubernetes 1.30, the oldest version the output targets, accepts', () => {
  test('letters, digits, _, - and ., not a digit first', () => {
    for (const good of ['LOG_LEVEL', 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1', '_X', '-x', '.x', 'a..b']) expect(isEnvVarName(good)).toBe(true);
  });
  test('the names only the relaxed rule of 1.32 and later accepts are refused', () => {
    for (const relaxed of ['MY VAR', '1ABC', 'a:b', 'x/y', 'NIVEAU_DÉTAIL', '..x', '.', '..', '']) expect(isEnvVarName(relaxed)).toBe(false);
    expect(isEnvVarName(['A'] as unknown as string)).toBe(false);
  });
});
