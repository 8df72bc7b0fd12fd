import * as lib from '../../src';
import { Doctor, DOCTOR_RULES, Plan, PLAN_RULES } from '../../src';

// jsii languages (Python, Java, Go, .NET) see classes, interfaces and enums only: a free function
// or an exported constant vanishes from their bindings. Every one the package exports is also a
// static member of a class, under the same name (or, for a constant, under its short name).
//
// Names that may lack one: none (the list is here so that an exception is a visible decision).
const PENDING_CONSTRUCT_STATICS = new Set<string>([]);

type Exports = Record<string, unknown>;

function isClass(value: unknown): value is abstract new (...args: never[]) => unknown {
  return typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
}

/** A TypeScript enum object: values are strings, or numbers with their reverse mapping. */
function isEnum(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([k, v]) => typeof v === 'string' || (typeof v === 'number' && (value as Exports)[v] === k));
}

/** A module re-exported as a namespace (`export * as cnpg from ...`): a jsii submodule. */
function isSubmodule(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { __esModule?: unknown }).__esModule === true;
}

/** The exports jsii drops: functions and constants (not classes, enums or submodules). */
function freeExports(exports: Exports): string[] {
  return Object.keys(exports)
    .filter((name) => !isClass(exports[name]) && !isEnum(exports[name]) && !isSubmodule(exports[name]))
    .sort();
}

/**
 * The static members (`Class.member`) that stand for the free export `name`: a static of the same
 * name, or, for a constant, a static holding the very same value whose name ends the free one
 * (`BARMAN_CLOUD_PLUGIN_IMAGE` is `BarmanCloudPlugin.PLUGIN_IMAGE`).
 */
function staticHolders(exports: Exports, name: string): string[] {
  const out: string[] = [];
  for (const c of Object.keys(exports).filter((k) => isClass(exports[k]))) {
    const cls = exports[c] as unknown as Exports;
    for (const member of Object.getOwnPropertyNames(cls)) {
      const same = member === name;
      const shorter = typeof exports[name] !== 'function' && name.endsWith(`_${member}`) && /^[A-Z][A-Z0-9_]*$/.test(member) && cls[member] === exports[name];
      if (same || shorter) out.push(`${c}.${member}`);
    }
  }
  return out;
}

describe('free functions and constants are also static members (jsii languages)', () => {
  const exports = lib as unknown as Exports;

  test('every free function or constant of the package has a static member (the same name, or the same value under its short name)', () => {
    const missing = freeExports(exports).filter((name) => staticHolders(exports, name).length === 0 && !PENDING_CONSTRUCT_STATICS.has(name));
    expect(missing).toEqual([]);
    // the probe sees what it must: the doctor's and the plan's free names are among the free exports
    expect(freeExports(exports)).toEqual(expect.arrayContaining(['checkManifests', 'DOCTOR_RULES', 'planChanges', 'PLAN_RULES']));
    // the generated L1 submodule is a namespace, not a constant
    for (const submodule of ['cnpg', 'certmanager']) {
      expect(freeExports(exports)).not.toContain(submodule);
      expect(isSubmodule(exports[submodule])).toBe(true);
    }
  });

  test('the pending list holds only names that still lack a static member', () => {
    const done = [...PENDING_CONSTRUCT_STATICS].filter((name) => staticHolders(exports, name).length > 0 || !(name in exports));
    expect(done).toEqual([]);
  });

  test('a static constant is the very value of the free constant', () => {
    for (const name of freeExports(exports).filter((n) => typeof exports[n] !== 'function')) {
      for (const holder of staticHolders(exports, name)) {
        const [c, member] = holder.split('.');
        expect([holder, (exports[c] as unknown as Exports)[member]]).toEqual([holder, exports[name]]);
      }
    }
    expect(Doctor.DOCTOR_RULES).toBe(DOCTOR_RULES);
    expect(Plan.PLAN_RULES).toBe(PLAN_RULES);
  });

  test('a static function gives what the free function gives', () => {
    const objects = [
      {
        apiVersion: 'postgresql.cnpg.io/v1',
        kind: 'Cluster',
        metadata: { name: 'pg', namespace: 'db' },
        spec: { instances: 1, plugins: [{ name: 'missing.example.com' }] },
      },
    ];
    expect(Doctor.checkManifests(objects, { operatorNamespace: 'cnpg-system' })).toEqual(lib.checkManifests(objects, { operatorNamespace: 'cnpg-system' }));
    expect(Doctor.analyzeManifests(objects)).toEqual(lib.analyzeManifests(objects));
    const finding = lib.checkManifests(objects)[0];
    expect(Doctor.formatFinding(finding)).toBe(lib.formatFinding(finding));

    const next: unknown[] = [];
    const report = lib.planChanges(objects, next);
    expect(report.findings.length).toBeGreaterThan(0); // the Cluster's removal
    expect(Plan.planChanges(objects, next)).toEqual(report);
    expect(Plan.formatPlanText(report)).toBe(lib.formatPlanText(report));
    expect(Plan.formatPlanJson(report)).toBe(lib.formatPlanJson(report));
    expect(Plan.formatPlanSarif(report)).toBe(lib.formatPlanSarif(report));
    expect(Plan.formatPlanSarif(report, '9.9.9')).toBe(lib.formatPlanSarif(report, '9.9.9'));
    expect(Plan.formatPlanFinding(report.findings[0])).toBe(lib.formatPlanFinding(report.findings[0]));
  });

  test('the plan static refuses what the free function refuses, with the same message', () => {
    const message = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(lib.CnpgIValidationError);
        return (e as Error).message;
      }
      throw new Error('did not throw');
    };
    const free = message(() => lib.planChanges('nope' as unknown as unknown[], []));
    expect(free).toMatch(/^planChanges: previous 'nope' must be an array/);
    expect(message(() => Plan.planChanges('nope' as unknown as unknown[], []))).toBe(free);
  });

  test('the rule lists cannot be changed through the mutable types jsii needs', () => {
    expect(() => (Doctor.DOCTOR_RULES as unknown[]).push({})).toThrow(TypeError);
    expect(() => Doctor.DOCTOR_RULES[0].kinds.push('Pod')).toThrow(TypeError);
    expect(() => Doctor.DOCTOR_RULES[0].severities.pop()).toThrow(TypeError);
    expect(() => {
      (Doctor.DOCTOR_RULES[0] as { name: string }).name = 'x';
    }).toThrow(TypeError);
    expect(() => (Plan.PLAN_RULES as unknown[]).push({})).toThrow(TypeError);
    expect(() => Plan.PLAN_RULES[0].kinds.push('Pod')).toThrow(TypeError);
    expect(() => Plan.PLAN_RULES[0].severities.pop()).toThrow(TypeError);
    expect(() => {
      (Plan.PLAN_RULES[0].severities[0] as { when: string }).when = 'x';
    }).toThrow(TypeError);
  });
});
