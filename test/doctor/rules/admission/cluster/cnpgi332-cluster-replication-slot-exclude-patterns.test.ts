import { clusterDoc, findingsOf } from './webhook-findings';

const of = (replicationSlots: object) => findingsOf('CNPGI332', clusterDoc({ replicationSlots }));
const withPatterns = (...excludePatterns: string[]) => of({ synchronizeReplicas: { enabled: true, excludePatterns } });
const TEXT = '"Cannot configure synchronizeReplicas. Invalid regexes were found"';
const FIX = "write each pattern as a Go regular expression, e.g. '^logical_.*' (escape a literal '(' as '\\(')";

describe('CNPGI332 cluster-replication-slot-exclude-patterns', () => {
  test('an unclosed group (the upstream test)', () => {
    expect(withPatterns('([a-zA-Z]+')).toEqual([
      {
        path: 'spec.replicationSlots.synchronizeReplicas.excludePatterns[0]',
        message: `the Cluster webhook refuses excludePatterns '([a-zA-Z]+' (missing closing )) (${TEXT}): the patterns are Go (RE2) regular expressions, which have no lookarounds or backreferences`,
        fix: FIX,
      },
    ]);
  });

  test('one finding names every bad pattern: a lookbehind, a backreference', () => {
    expect(withPatterns('ok', '(?<!x)y', '\\1')).toEqual([
      {
        path: 'spec.replicationSlots.synchronizeReplicas.excludePatterns[1]',
        message: `the Cluster webhook refuses excludePatterns '(?<!x)y' (invalid named capture), '\\1' (invalid escape sequence) (${TEXT}): the patterns are Go (RE2) regular expressions, which have no lookarounds or backreferences`,
        fix: FIX,
      },
    ]);
  });

  test('checked while high availability slots alone are enabled', () => {
    expect(of({ highAvailability: { enabled: true }, synchronizeReplicas: { enabled: false, excludePatterns: ['a**'] } }).map((f) => f.message)).toEqual([
      `the Cluster webhook refuses excludePatterns 'a**' (invalid nested repetition operator) (${TEXT}): the patterns are Go (RE2) regular expressions, which have no lookarounds or backreferences`,
    ]);
  });

  test.each([
    ['a valid pattern (the upstream test)', { synchronizeReplicas: { enabled: true, excludePatterns: ['validpattern'] } }],
    ['Go syntax JavaScript lacks', { synchronizeReplicas: { enabled: true, excludePatterns: ['(?i)^pgl_\\Q.x\\E[[:alnum:]]+\\z', '(?P<name>\\p{Greek})'] } }],
    ['no synchronizeReplicas (the upstream test)', {}],
    [
      'a bad pattern while both features are disabled',
      { highAvailability: { enabled: false }, synchronizeReplicas: { enabled: false, excludePatterns: ['('] } },
    ],
  ])('accepted: %s', (_what, replicationSlots) => {
    expect(of(replicationSlots)).toEqual([]);
  });
});
