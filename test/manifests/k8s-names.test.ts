import {
  isDnsHostName,
  isDnsSubdomain,
  isEnvVarName,
  isLabelKey,
  isLabelValue,
  labelKeyProblems,
  labelValueProblems,
  longDnsLabel,
} from '../../src/manifests/k8s-names';

const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('label key and value problems, worded as Kubernetes words them', () => {
  test.each(['a', 'dedicated', 'example.com/Team_1', `example.com/${'k'.repeat(63)}`, 'node-role.kubernetes.io/control-plane'])('a valid key: %p', (key) => {
    expect(labelKeyProblems(key)).toEqual([]);
    expect(isLabelKey(key)).toBe(true);
  });

  test.each([
    ['-a', [`name part ${NAME_RULE}`]],
    ['', ['name part must be non-empty', `name part ${NAME_RULE}`]],
    ['/x', ['prefix part must be non-empty']],
    [
      'Example.com/x',
      [
        "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ['k'.repeat(64), ['name part must be no more than 63 bytes']],
    ['a/b/c', [`a valid label key ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`]],
  ])('an invalid key: %p', (key, problems) => {
    expect(labelKeyProblems(key)).toEqual(problems);
    expect(isLabelKey(key)).toBe(false);
  });

  test('values', () => {
    expect(labelValueProblems('')).toEqual([]);
    expect(labelValueProblems('A.b-c_9')).toEqual([]);
    expect(isLabelValue('A.b-c_9')).toBe(true);
    expect(labelValueProblems('v'.repeat(64))).toEqual(['must be no more than 63 bytes']);
    expect(labelValueProblems('a b')).toEqual([
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]);
  });
});

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
