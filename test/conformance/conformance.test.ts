/*
 * The library's admission checks (src/checks/admission) against CloudNativePG's own webhook tests
 * (the table of this folder; README.md says how a runner uses it): each case runs the one check
 * its upstream function names, on the object as the test gives it (defaulted by the library's
 * Cluster defaulter only where the test runs the upstream one), and the verdict must agree. Where
 * the table says admission as a whole decides otherwise (`admission`), the whole chain (CRD
 * defaults, defaulter, every check of the kind) must give that.
 */
import { AdmissionContext, AdmissionKind } from '../../src/checks/admission/admission-check';
import { defaultCluster } from '../../src/checks/admission/cluster-defaults';
import { serviceTemplateIssues } from '../../src/checks/admission/cluster-managed';
import {
  ADMISSION_CHANGE_CHECKS,
  ADMISSION_CHECKS,
  admissionChangeCheck,
  admissionCheck,
  admit,
  admitChange,
  validationEnabled,
  wholeValidatorChecked,
} from '../../src/checks/admission/index';
import { parsePostgresQuantityValue } from '../../src/checks/admission/postgres-size';
import { checkValidationAnnotationValue } from '../../src/checks/admission/validation-annotation';
import type { CheckIssue } from '../../src/checks/issue';
import type { Json } from '../../src/manifests/json';
import { AdmissionCase, HelperCase } from './case';
import { ADMISSION_CASES, HELPER_CASES } from './table';
import { disagreement } from './verdict';

/**
 * The upstream functions of the table that no check of the library models, and why. A function
 * leaves this list when its check lands; the test below fails while the list and the checks
 * disagree.
 */
const UNCHECKED: Readonly<Record<string, string>> = {};

const context: AdmissionContext = {};

/** A copy of a case's object, defaulted by the library's Cluster defaulter when the test runs the upstream one. */
function prepared(object: AdmissionCase['input'], defaulted: boolean | undefined): Json {
  const copy = JSON.parse(JSON.stringify(object)) as Json;
  return defaulted ? defaultCluster(copy, context) : copy;
}

/**
 * The errors and warnings the library's check(s) for `c.function` return on the case's input;
 * a case with an `old` object runs the update check(s), `validateClusterChanges` all of them.
 */
function run(c: AdmissionCase): CheckIssue[] {
  const object = prepared(c.input, c.defaulted);
  if (c.old !== undefined || c.function === 'validateClusterChanges') {
    // without a stored object there is no update to judge (upstream returns no error for a nil old)
    if (c.old === undefined) return [];
    const old = prepared(c.old, c.oldDefaulted);
    const changes =
      c.function === 'validateClusterChanges' ? ADMISSION_CHANGE_CHECKS.filter((x) => x.kind === c.kind) : [admissionChangeCheck(c.kind, c.function)!];
    return changes.flatMap((x) => [...x.check(object, old, context)]);
  }
  const checks = c.function === 'validate' ? ADMISSION_CHECKS.filter((x) => x.kind === c.kind) : [admissionCheck(c.kind, c.function)!];
  return checks.flatMap((x) => [...x.check(object, context)]);
}

const modelled = (c: AdmissionCase) =>
  c.function === 'validate'
    ? wholeValidatorChecked(c.kind)
    : c.function === 'validateClusterChanges' ||
      (c.old !== undefined ? admissionChangeCheck(c.kind, c.function) !== undefined : admissionCheck(c.kind, c.function) !== undefined);
const checked = ADMISSION_CASES.filter(modelled);
const rewritten = checked.filter((c) => c.admission !== undefined);

/** What the library's model of a helper gives for a helper case's arguments. */
interface HelperResult {
  /** The value the helper returns. */
  readonly returns?: unknown;
  /** Whether it fails (returns an error). */
  readonly fails?: boolean;
  /** The errors (and warnings) of a helper that returns an error list. */
  readonly issues?: readonly CheckIssue[];
}

/**
 * The helpers of the table (HELPER_CASES) that the library models, by upstream name: each runs
 * the library's code on the case's arguments. A helper joins this table when its model lands.
 */
const HELPERS: Readonly<Record<string, (args: HelperCase['args']) => HelperResult>> = {
  // common.go isValidationEnabled returns whether validation runs, and fails (the webhook then
  // warns, CNPGI399) on a value it does not know.
  isValidationEnabled: ({ obj }) => {
    const object = obj as unknown as Json;
    const kind = object.kind as AdmissionKind;
    return { returns: validationEnabled(kind, object), fails: checkValidationAnnotationValue(kind, object).length > 0 };
  },
  // cluster_webhook.go parsePostgresQuantityValue returns the Kubernetes quantity it builds, or fails.
  parsePostgresQuantityValue: ({ value }) => {
    const size = parsePostgresQuantityValue(value as string);
    return size === undefined ? { fails: true } : { returns: size.quantity, fails: false };
  },
  // cluster_webhook.go validateServiceTemplate returns an error list.
  validateServiceTemplate: ({ path, nameRequired, template }) => ({
    issues: serviceTemplateIssues(path as string, template as Json, nameRequired as boolean),
  }),
};

/** The helpers of the table that the library does not model (yet), and why. */
const UNCHECKED_HELPERS: Readonly<Record<string, string>> = {};

/** Why a helper's result disagrees with what the case expects, or undefined. */
function helperDisagreement(expected: HelperCase['expected'], result: HelperResult): string | undefined {
  if (expected.returns !== undefined && JSON.stringify(result.returns) !== JSON.stringify(expected.returns))
    return `returns ${JSON.stringify(result.returns)}, expected ${JSON.stringify(expected.returns)}`;
  if (expected.fails !== undefined && result.fails !== expected.fails) return `fails: ${String(result.fails)}, expected ${String(expected.fails)}`;
  if (expected.verdict !== undefined) return disagreement(expected.verdict, result.issues ?? []);
  return undefined;
}

describe('admission conformance: the upstream webhook tests', () => {
  test('every upstream function of the table has a check, or is listed as unchecked with its reason', () => {
    const missing = [...new Set(ADMISSION_CASES.filter((c) => !modelled(c)).map((c) => c.function))].sort();
    expect(missing).toEqual(Object.keys(UNCHECKED).sort());
  });

  test.each(checked.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    expect(disagreement(c.verdict, run(c))).toBeUndefined();
  });

  if (rewritten.length === 0) {
    test('no case where the defaulting changes the verdict is modelled yet', () => expect(rewritten).toEqual([]));
  } else {
    test.each(rewritten.map((c) => [c.id, c] as const))('%s, through the whole admission', (_id, c) => {
      const input = JSON.parse(JSON.stringify(c.input)) as Json;
      const admission = c.old !== undefined ? admitChange(c.kind, input, JSON.parse(JSON.stringify(c.old)) as Json, context) : admit(c.kind, input, context);
      const whole = c.function === 'validate' || c.function === 'validateClusterChanges';
      const issues: readonly CheckIssue[] = whole ? [...admission.issues.values()].flat() : [...(admission.issues.get(c.function) ?? [])];
      expect(disagreement({ errors: c.admission!.errors, paths: c.admission!.paths }, issues)).toBeUndefined();
    });
  }
});

describe('admission conformance: the upstream tests of helpers', () => {
  test('every helper of the table is modelled, or is listed as unchecked with its reason', () => {
    const helpers = [...new Set(HELPER_CASES.map((c) => c.function))].sort();
    expect(helpers.filter((h) => HELPERS[h] === undefined)).toEqual(Object.keys(UNCHECKED_HELPERS).sort());
    expect(Object.keys(HELPERS).filter((h) => !helpers.includes(h))).toEqual([]);
  });

  const modelledHelpers = HELPER_CASES.filter((c) => HELPERS[c.function] !== undefined);
  test.each(modelledHelpers.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    expect(helperDisagreement(c.expected, HELPERS[c.function](c.args))).toBeUndefined();
  });
});
