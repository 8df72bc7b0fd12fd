import * as fs from 'fs';
import * as path from 'path';
import { Finding, SuppressedFinding } from '../../src/rules/finding';
import { RuleSpec } from '../../src/rules/rule';
import { artifactUri, sarifErrorLog, sarifLog } from '../../src/rules/sarif';

const PKG = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));

const RULES: RuleSpec[] = [
  {
    id: 'CNPGI901',
    name: 'one-rule',
    severity: 'error or warning',
    severities: [
      { severity: 'error', when: 'when it breaks' },
      { severity: 'warning', when: 'when it may break' },
    ],
    what: 'what it checks',
    why: 'why it matters (repo v1.0.0 file.go Func)',
    fix: 'the usual fix',
    kinds: ['Cluster'],
  },
  {
    id: 'CNPGI902',
    name: 'other-rule',
    severity: 'warning',
    severities: [{ severity: 'warning', when: 'always' }],
    what: 'w',
    why: 'y',
    fix: 'f',
    kinds: ['*'],
  },
];

const finding: Finding = {
  ruleId: 'CNPGI902',
  ruleName: 'other-rule',
  severity: 'warning',
  object: 'Service/ns/svc',
  message: 'looks odd',
  fix: 'make it even',
};

describe('the SARIF writer', () => {
  test('the driver lists every rule from its spec: what, why, fix and severities, the default level', () => {
    const run = JSON.parse(sarifLog({ name: 'tool', rules: RULES }, [], { objectCount: 0 })).runs[0];
    expect(run.tool.driver).toEqual({
      name: 'tool',
      version: PKG.version,
      informationUri: PKG.repository.url.replace(/\.git$/, ''),
      rules: [
        {
          id: 'CNPGI901',
          name: 'one-rule',
          shortDescription: { text: 'what it checks' },
          fullDescription: { text: 'why it matters (repo v1.0.0 file.go Func)' },
          help: {
            text: 'the usual fix\n\nerror: when it breaks\nwarning: when it may break',
            markdown: '**Fix**: the usual fix\n\n- error: when it breaks\n- warning: when it may break',
          },
          defaultConfiguration: { level: 'error' },
        },
        {
          id: 'CNPGI902',
          name: 'other-rule',
          shortDescription: { text: 'w' },
          fullDescription: { text: 'y' },
          help: { text: 'f\n\nwarning: always', markdown: '**Fix**: f\n\n- warning: always' },
          defaultConfiguration: { level: 'warning' },
        },
      ],
    });
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
    expect(run.properties).toEqual({ objectCount: 0 });
    expect(JSON.parse(sarifLog({ name: 'tool', rules: RULES, version: '9.9.9' }, [], {})).runs[0].tool.driver.version).toBe('9.9.9');
  });

  test('one result per finding: level, the one-line message, the object and path as logical location, the file when known', () => {
    const log = sarifLog(
      { name: 'tool', rules: RULES },
      [{ finding }, { finding: { ...finding, path: 'spec.x' }, location: { uri: 'a/b.yaml', line: 3, column: 1 } }],
      {},
    );
    expect(JSON.parse(log).runs[0].results).toEqual([
      {
        ruleId: 'CNPGI902',
        ruleIndex: 1,
        level: 'warning',
        message: { text: 'Service/ns/svc: looks odd; fix: make it even' },
        locations: [{ logicalLocations: [{ fullyQualifiedName: 'Service/ns/svc', kind: 'object' }] }],
      },
      {
        ruleId: 'CNPGI902',
        ruleIndex: 1,
        level: 'warning',
        message: { text: 'Service/ns/svc (spec.x): looks odd; fix: make it even' },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri: 'a/b.yaml' }, region: { startLine: 3, startColumn: 1 } },
            logicalLocations: [{ fullyQualifiedName: 'Service/ns/svc#spec.x', kind: 'object' }],
          },
        ],
      },
    ]);
    expect(log.endsWith('}\n')).toBe(true);
  });

  test('a suppressed finding carries its suppression; a finding about a change carries before and after', () => {
    const byAnnotation: SuppressedFinding = { ...finding, suppressedBy: 'annotation' };
    const byDisable: SuppressedFinding = { ...finding, suppressedBy: 'disable' };
    const change: Finding = { ...finding, path: 'spec.size', before: '10Gi', after: null };
    const results = JSON.parse(sarifLog({ name: 'tool', rules: RULES }, [{ finding: byAnnotation }, { finding: byDisable }, { finding: change }], {})).runs[0]
      .results;
    expect(results.map((r: any) => r.suppressions)).toEqual([
      [{ kind: 'inSource', justification: 'cnpg-i.dev/doctor-ignore annotation' }],
      [{ kind: 'external', justification: '--disable' }],
      undefined,
    ]);
    expect(results.map((r: any) => r.properties)).toEqual([undefined, undefined, { before: '10Gi', after: null }]);
  });

  test('a run that could not read its input: a failed invocation with the error, located when it is a place in a file', () => {
    const run = JSON.parse(sarifErrorLog({ name: 'tool', rules: RULES }, 'x.yaml:2:1: bad', { uri: 'x.yaml', line: 2, column: 1 })).runs[0];
    expect(run.results).toEqual([]);
    expect(run.tool.driver.rules).toHaveLength(2);
    expect(run.invocations).toEqual([
      {
        executionSuccessful: false,
        exitCode: 2,
        toolExecutionNotifications: [
          {
            level: 'error',
            message: { text: 'x.yaml:2:1: bad' },
            locations: [{ physicalLocation: { artifactLocation: { uri: 'x.yaml' }, region: { startLine: 2, startColumn: 1 } } }],
          },
        ],
      },
    ]);
    expect(
      JSON.parse(sarifErrorLog({ name: 'tool', rules: RULES }, 'no input')).runs[0].invocations[0].toolExecutionNotifications[0].locations,
    ).toBeUndefined();
  });

  test('artifactUri: relative to the working directory, with forward slashes', () => {
    const cwd = path.resolve('checkout');
    expect(artifactUri(path.join(cwd, 'dist', 'a.yaml'), cwd)).toBe('dist/a.yaml');
    expect(artifactUri(path.join('dist', '.', 'a.yaml'), cwd)).toBe('dist/a.yaml');
  });
});
