import { isLabelKey, isLabelValue, labelKeyProblems, labelValueProblems } from '../../src/manifests/k8s-names';

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
