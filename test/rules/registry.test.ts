import { formatFinding } from '../../src/rules/finding';
import { RuleRegistry } from '../../src/rules/registry';
import { RuleDefinition } from '../../src/rules/rule';
import { validateRuleIds } from '../../src/rules/suppressions';
import { expectValidationError } from '../util';

interface Input {
  readonly objects: ReadonlyArray<{ readonly ref: string; readonly index: number; readonly bad?: boolean; readonly ignores?: string }>;
}

function rule(id: string, overrides: Partial<RuleDefinition<Input>> = {}): RuleDefinition<Input> {
  return {
    id,
    name: `rule-${id.slice(-3)}`,
    severities: [{ severity: 'error', when: 'always' }],
    what: 'what',
    why: 'why',
    fix: `the fix of ${id}`,
    kinds: ['ConfigMap'],
    check(input, report) {
      for (const o of input.objects) if (o.bad) report('error', o, `${id} dislikes ${o.ref}`, undefined, 'data.x');
    },
    ...overrides,
  };
}

const input: Input = {
  objects: [
    { ref: 'ConfigMap/a/one', index: 0, bad: true },
    { ref: 'ConfigMap/a/two', index: 1 },
    { ref: 'ConfigMap/a/three', index: 2, bad: true, ignores: 'CNPGI901' },
  ],
};

describe('the rule registry', () => {
  test('stamps id, name, the rule fix when none is given, path and index, in run order', () => {
    const registry = new RuleRegistry([rule('CNPGI902'), rule('CNPGI901')]);
    const { findings, suppressed } = registry.run(input);
    expect(suppressed).toEqual([]);
    expect(findings).toEqual([
      {
        ruleId: 'CNPGI902',
        ruleName: 'rule-902',
        severity: 'error',
        object: 'ConfigMap/a/one',
        message: 'CNPGI902 dislikes ConfigMap/a/one',
        fix: 'the fix of CNPGI902',
        path: 'data.x',
        index: 0,
      },
      {
        ruleId: 'CNPGI902',
        ruleName: 'rule-902',
        severity: 'error',
        object: 'ConfigMap/a/three',
        message: 'CNPGI902 dislikes ConfigMap/a/three',
        fix: 'the fix of CNPGI902',
        path: 'data.x',
        index: 2,
      },
      {
        ruleId: 'CNPGI901',
        ruleName: 'rule-901',
        severity: 'error',
        object: 'ConfigMap/a/one',
        message: 'CNPGI901 dislikes ConfigMap/a/one',
        fix: 'the fix of CNPGI901',
        path: 'data.x',
        index: 0,
      },
      {
        ruleId: 'CNPGI901',
        ruleName: 'rule-901',
        severity: 'error',
        object: 'ConfigMap/a/three',
        message: 'CNPGI901 dislikes ConfigMap/a/three',
        fix: 'the fix of CNPGI901',
        path: 'data.x',
        index: 2,
      },
    ]);
    // the listing is sorted by id, read-only, and carries the severity summary
    expect(registry.specs.map((s) => [s.id, s.severity])).toEqual([
      ['CNPGI901', 'error'],
      ['CNPGI902', 'error'],
    ]);
    expect(Object.isFrozen(registry.specs) && Object.isFrozen(registry.specs[0].severities) && Object.isFrozen(registry.specs[0].kinds)).toBe(true);
    for (const struct of [registry.specs[0], registry.specs[0].severities[0]]) {
      // each property read-only, but the struct extensible: the jsii kernel tags a struct it
      // hands to another language with a symbol property, which a frozen object refuses
      expect(Object.values(Object.getOwnPropertyDescriptors(struct)).every((d) => d.writable === false && d.configurable === false)).toBe(true);
      expect(Object.isExtensible(struct)).toBe(true);
    }
    expect('check' in registry.specs[0]).toBe(false);
  });

  test('a precise fix, a before and an after are kept; a finding reported twice is kept once', () => {
    const twice = rule('CNPGI900', {
      check(_input, report) {
        for (let i = 0; i < 2; i++) report('error', { ref: 'Cluster/db/pg' }, 'shrinks', 'keep 10Gi', 'spec.storage.size', { before: '10Gi', after: '5Gi' });
      },
    });
    expect(new RuleRegistry([twice]).run(input).findings).toEqual([
      {
        ruleId: 'CNPGI900',
        ruleName: 'rule-900',
        severity: 'error',
        object: 'Cluster/db/pg',
        message: 'shrinks',
        fix: 'keep 10Gi',
        path: 'spec.storage.size',
        before: '10Gi',
        after: '5Gi',
      },
    ]);
  });

  test('a severity the rule does not declare is a bug of the rule', () => {
    const warns = rule('CNPGI900', { check: (_i, report) => report('warning', { ref: 'x' }, 'm') });
    expect(() => new RuleRegistry([warns]).run(input)).toThrow('CNPGI900 reported warning, but the rule declares only error');
  });

  test('disable and the ignore callback move findings to suppressed', () => {
    const registry = new RuleRegistry([rule('CNPGI901'), rule('CNPGI902')]);
    const { findings, suppressed } = registry.run(input, {
      disable: new Set(['CNPGI902']),
      ignored: (target, id) => input.objects.find((o) => o.ref === target.ref)?.ignores === id,
    });
    expect(findings.map((f) => `${f.ruleId} ${f.object}`)).toEqual(['CNPGI901 ConfigMap/a/one']);
    expect(suppressed.map((f) => `${f.ruleId} ${f.object} ${f.suppressedBy}`)).toEqual([
      'CNPGI901 ConfigMap/a/three annotation',
      'CNPGI902 ConfigMap/a/one disable',
      'CNPGI902 ConfigMap/a/three disable',
    ]);
  });

  test('a subsuming finding drops the other rule on the same object and path, also when it is suppressed itself', () => {
    // CNPGI903 reports only on 'one', at data.x; it subsumes CNPGI901 there
    const narrow = rule('CNPGI903', {
      subsumes: [{ rule: 'CNPGI901' }],
      check: (i, report) => report('error', i.objects[0], 'narrow', undefined, 'data.x'),
    });
    const elsewhere = rule('CNPGI904', {
      subsumes: [{ rule: 'CNPGI902', path: 'data.y' }],
      check: (i, report) => report('error', i.objects[0], 'elsewhere', undefined, 'data.x'),
    });
    const registry = new RuleRegistry([rule('CNPGI901'), rule('CNPGI902'), narrow, elsewhere]);
    const ids = (r: { findings: Array<{ ruleId: string; object: string }> }) => r.findings.map((f) => `${f.ruleId} ${f.object}`);
    // CNPGI901 on 'one' is gone, on 'three' it stays; CNPGI904 names another path, so CNPGI902 stays
    expect(ids(registry.run(input))).toEqual([
      'CNPGI901 ConfigMap/a/three',
      'CNPGI902 ConfigMap/a/one',
      'CNPGI902 ConfigMap/a/three',
      'CNPGI903 ConfigMap/a/one',
      'CNPGI904 ConfigMap/a/one',
    ]);
    expect(ids(registry.run(input, { disable: new Set(['CNPGI903']) }))).toEqual([
      'CNPGI901 ConfigMap/a/three',
      'CNPGI902 ConfigMap/a/one',
      'CNPGI902 ConfigMap/a/three',
      'CNPGI904 ConfigMap/a/one',
    ]);
  });

  test('refuses a registry that is not well formed', () => {
    const retired = [{ id: 'CNPGI905', name: 'old', replacedBy: 'CNPGI901', reason: 'merged' }];
    expect(() => new RuleRegistry([rule('CNPGI901'), rule('CNPGI901')])).toThrow('CNPGI901: registered twice');
    expect(() => new RuleRegistry([rule('CNPG901')])).toThrow('CNPG901: an id is CNPGI and three digits');
    expect(() => new RuleRegistry([rule('CNPGI901', { name: 'Not Kebab' })])).toThrow("CNPGI901: the name 'Not Kebab' is not kebab-case");
    expect(() => new RuleRegistry([rule('CNPGI901', { severities: [] })])).toThrow('CNPGI901: declares no severity');
    expect(() => new RuleRegistry([rule('CNPGI905')], retired)).toThrow('CNPGI905: retired, but registered again');
    expect(() => new RuleRegistry([rule('CNPGI901', { subsumes: [{ rule: 'CNPGI999' }] })])).toThrow(
      "CNPGI901: subsumes 'CNPGI999', which is no other rule of this tool",
    );
  });

  test('validateRuleIds refuses unknown and retired ids with the nearest or the replacing rule', () => {
    const registry = new RuleRegistry([rule('CNPGI901'), rule('CNPGI950')], [{ id: 'CNPGI905', name: 'old-rule', replacedBy: 'CNPGI901', reason: 'merged' }]);
    const prop = (i: number) => `options.disable[${i}]`;
    expect(validateRuleIds(registry, ['CNPGI950'], prop, 'checkManifests')).toEqual(['CNPGI950']);
    expectValidationError(
      () => validateRuleIds(registry, ['CNPGI950', 'cnpgi95'], prop, 'checkManifests'),
      "checkManifests: options.disable[1] 'cnpgi95' is not a rule of the doctor; did you mean CNPGI950? (the rules are listed in docs/doctor-rules.md)",
    );
    expectValidationError(
      () => validateRuleIds(registry, ['CNPGI905'], prop, 'checkManifests'),
      "checkManifests: options.disable[0] 'CNPGI905' is a retired rule (old-rule); CNPGI901 reports its problem now; disable CNPGI901 instead, if that is what you mean",
    );
  });

  test('formatFinding writes one line, with the path when there is one', () => {
    const f = { ruleId: 'CNPGI901', ruleName: 'r', severity: 'error' as const, object: 'Cluster/db/pg', message: 'm', fix: 'f' };
    expect(formatFinding(f)).toBe('CNPGI901 error Cluster/db/pg: m; fix: f');
    expect(formatFinding({ ...f, path: 'spec.x' })).toBe('CNPGI901 error Cluster/db/pg (spec.x): m; fix: f');
  });
  test('withholding: each rule is run by the hook, which decides which of its findings are withheld', () => {
    const registry = new RuleRegistry([rule('CNPGI902'), rule('CNPGI901')]);
    const ran: string[] = [];
    const { findings, withheld } = registry.run(input, {
      withholding: (ruleId, run) => {
        ran.push(ruleId);
        run();
        return (target) => ruleId === 'CNPGI901' && target.ref === 'ConfigMap/a/one';
      },
    });
    expect(ran).toEqual(['CNPGI902', 'CNPGI901']);
    expect(findings.map(formatFinding)).toEqual([
      'CNPGI902 error ConfigMap/a/one (data.x): CNPGI902 dislikes ConfigMap/a/one; fix: the fix of CNPGI902',
      'CNPGI902 error ConfigMap/a/three (data.x): CNPGI902 dislikes ConfigMap/a/three; fix: the fix of CNPGI902',
      'CNPGI901 error ConfigMap/a/three (data.x): CNPGI901 dislikes ConfigMap/a/three; fix: the fix of CNPGI901',
    ]);
    expect(withheld.map(formatFinding)).toEqual(['CNPGI901 error ConfigMap/a/one (data.x): CNPGI901 dislikes ConfigMap/a/one; fix: the fix of CNPGI901']);
    // without the hook, nothing is withheld
    expect(registry.run(input).withheld).toEqual([]);
  });
});
