/*
 * Odd input for the admission checks of one kind: objects whose fields, at every place a check
 * reads, hold any JSON value (or one of the values that trip a naive reader), so that a test can
 * assert that the checks never throw and always return well-formed issues.
 */
import fc from 'fast-check';
import type { AdmissionKind } from '../../../src/checks/admission/admission-check';
import { ADMISSION_CHECKS } from '../../../src/checks/admission/index';
import type { CheckIssue } from '../../../src/checks/issue';
import type { Json } from '../../../src/manifests/json';
import '../../hardening/fc-config';

/** A value for a field the checks read: any JSON, or one of the shapes that break naive code. */
const field = fc.oneof(
  fc.anything(),
  fc.constantFrom(
    null,
    true,
    '',
    'absent',
    'plugin',
    'barmanObjectStore',
    '@daily',
    'x',
    'constructor',
    '__proto__',
    [],
    {},
    [null],
    [{}],
    [{ name: 'x' }, { name: 'x' }],
    { name: 'x' },
  ),
);

/**
 * An object built from `paths` (dotted, `[]` for a list of two items; after `annotations.` the
 * rest is one key, dots and all), each leaf an odd value.
 */
export function oddObjects(kind: AdmissionKind, paths: readonly string[]): fc.Arbitrary<Json> {
  return fc.tuple(...paths.map(() => field), fc.string()).map((values) => {
    const object: Json = { apiVersion: 'postgresql.cnpg.io/v1', kind, metadata: { name: values[values.length - 1] }, spec: {} };
    paths.forEach((path, n) => {
      let at: Record<string, unknown> = object;
      const [head, annotation] = path.split(/(?<=^metadata\.annotations)\./);
      const keys = [...head.split('.'), ...(annotation === undefined ? [] : [annotation])];
      keys.forEach((key, k) => {
        if (k === keys.length - 1) {
          at[key] = values[n];
          return;
        }
        if (key.endsWith('[]')) {
          const item = {};
          at[key.slice(0, -2)] = [item, item];
          at = item;
        } else {
          const next = typeof at[key] === 'object' && at[key] !== null && !Array.isArray(at[key]) ? at[key] : {};
          at[key] = next;
          at = next as Record<string, unknown>;
        }
      });
    });
    return object;
  });
}

/** Whether every check of `kind` returns well-formed issues on `object` (and none throws). */
export function wellFormed(kind: AdmissionKind, object: Json): boolean {
  const issues: CheckIssue[] = ADMISSION_CHECKS.filter((c) => c.kind === kind).flatMap((c) => [...c.check(object, {})]);
  return issues.every((i) => (i.severity === 'error' || i.severity === 'warning') && typeof i.path === 'string' && i.message.length > 0 && i.fix.length > 0);
}
