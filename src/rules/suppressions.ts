/*
 * Silencing rules: `disable` for a whole run, the ignore annotation for one object.
 */
import { invalid } from '../manifests/errors';
import { dig, asString, asObject, Json } from '../manifests/json';
import { editDistance } from '../manifests/nearest-name';
import type { RuleRegistry } from './registry';

/** The annotation that silences rules for the object that carries it: `CNPGI027,CNPGI050`. */
export const IGNORE_ANNOTATION = 'cnpg-i.dev/doctor-ignore';

/** An id of an ignore annotation that is no rule. */
export interface UnknownRuleId {
  readonly id: string;
  /** The closest registered id, when one is close. */
  readonly nearest?: string;
}

/** What an object's ignore annotation says. */
export interface IgnoreAnnotation {
  /** The registered ids it silences. */
  readonly ids: ReadonlySet<string>;
  readonly unknown: readonly UnknownRuleId[];
}

/** The registered id closest to `id` (same id in another case, or one or two edits away). */
export function nearestRuleId(id: string, known: readonly string[]): string | undefined {
  const upper = id.trim().toUpperCase();
  const exact = known.find((k) => k === upper);
  if (exact) return exact;
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(upper, k, 2, { transpositions: false });
    // on a tie, an id the input is the start of wins: CNPGI05 means CNPGI050 rather than CNPGI015
    const better = !best || d < best.d || (d === best.d && k.startsWith(upper) && !best.k.startsWith(upper));
    if (d <= 2 && better) best = { k, d };
  }
  return best?.k;
}

/** Reads the ignore annotation of an object; undefined when it has none. */
export function readIgnoreAnnotation(raw: Json, known: ReadonlySet<string>): IgnoreAnnotation | undefined {
  const annotations = asObject(dig(raw, 'metadata', 'annotations'));
  if (!annotations || !Object.prototype.hasOwnProperty.call(annotations, IGNORE_ANNOTATION)) return undefined;
  const value = asString(annotations[IGNORE_ANNOTATION]) ?? '';
  const ids = new Set<string>();
  const unknown: UnknownRuleId[] = [];
  for (const part of value.split(/[\s,]+/).filter((p) => p !== '')) {
    if (known.has(part)) {
      ids.add(part);
    } else {
      const nearest = nearestRuleId(part, [...known]);
      unknown.push({ id: part, ...(nearest ? { nearest } : {}) });
    }
  }
  return { ids, unknown };
}

/**
 * Checks rule ids a user names (`disable`, `--disable`) against a tool's registry: a retired id
 * is refused naming the rule that reports its problem now, any other unknown id naming the
 * nearest registered one.
 * @internal
 */
export function validateRuleIds(registry: RuleRegistry<never>, ids: readonly unknown[], prop: (i: number) => string, scope: string): string[] {
  const known = [...registry.ids];
  return ids.map((id, i) => {
    if (typeof id === 'string' && registry.ids.has(id)) return id;
    const retired = typeof id === 'string' ? registry.retiredRule(id) : undefined;
    if (retired)
      invalid(
        scope,
        prop(i),
        id,
        `is a retired rule (${retired.name}); ${retired.replacedBy} reports its problem now`,
        `disable ${retired.replacedBy} instead, if that is what you mean`,
      );
    const nearest = typeof id === 'string' ? nearestRuleId(id, known) : undefined;
    return invalid(
      scope,
      prop(i),
      id,
      'is not a rule of the doctor',
      nearest ? `did you mean ${nearest}? (the rules are listed in docs/doctor-rules.md)` : 'use an id from docs/doctor-rules.md, e.g. CNPGI050',
    );
  });
}
