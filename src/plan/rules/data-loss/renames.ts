/*
 * Rename matching for the data-loss rules: an object that disappears may reappear under another
 * name in the same namespace, matched by what it is rather than by its name.
 */
import { PlanContext, PlanObject } from '../../plan-model';

/** The objects of `next` that `previous` lacks, by namespace. */
export function addedByNamespace(ctx: PlanContext, kind: string, group: string): Map<string, PlanObject[]> {
  const out = new Map<string, PlanObject[]>();
  for (const o of ctx.next.ofKind(kind, group)) {
    if (ctx.previous.get(o)) continue;
    const ns = o.namespace ?? '';
    const list = out.get(ns);
    if (list) list.push(o);
    else out.set(ns, [o]);
  }
  return out;
}

/** Removes and returns the first candidate that matches: one new object stands for one old one. */
export function takeMatch(candidates: PlanObject[] | undefined, matches: (c: PlanObject) => boolean): PlanObject | undefined {
  if (!candidates) return undefined;
  const i = candidates.findIndex(matches);
  return i < 0 ? undefined : candidates.splice(i, 1)[0];
}
